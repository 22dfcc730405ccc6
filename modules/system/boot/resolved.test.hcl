# Tests of services.resolved (resolved.hcl).

run "resolved.conf as NixOS writes it" {
  config "services.resolved" {
    enable = true
  }
  assert {
    condition     = config.environment.etc["systemd/resolved.conf"].text == "[Resolve]\n\n\n\nLLMNR=true\nDNSSEC=false\n\n"
    error_message = "an unset DNS, FallbackDNS or Domains leaves its line empty"
  }
  assert {
    condition     = config.environment.etc["resolv.conf"].mode == "symlink" && config.environment.etc["resolv.conf"].source == "/run/systemd/resolve/stub-resolv.conf"
    error_message = "resolv.conf is the stub resolver's"
  }
  assert {
    condition     = config.systemd.services.systemd-resolved.overrideStrategy == "asDropin" && contains(config.systemd.services.systemd-resolved.aliases, "dbus-org.freedesktop.resolve1.service")
    error_message = "the distribution's unit gets a drop-in"
  }
  assert {
    condition     = contains(keys(config.environment.packages), "systemd-resolved")
    error_message = "Debian's package is installed"
  }
}

run "servers, domains and fallback" {
  config "networking" {
    nameservers = ["192.0.2.53", "2001:db8::53"]
    search      = ["example.org"]
  }
  config "services.resolved" {
    enable      = true
    fallbackDns = []
    llmnr       = "false"
    dnssec      = "true"
    extraConfig = "DNSOverTLS=yes\n"
  }
  assert {
    condition     = config.environment.etc["systemd/resolved.conf"].text == "[Resolve]\nDNS=192.0.2.53 2001:db8::53\nFallbackDNS=\nDomains=example.org\nLLMNR=false\nDNSSEC=true\nDNSOverTLS=yes\n\n"
    error_message = "nameservers and search come from networking; an empty fallbackDns turns the built-in list off"
  }
}

run "llmnr is one of NixOS's values" {
  config "services.resolved" {
    enable = true
    llmnr  = "yes"
  }
  expect_error = "llmnr"
}
