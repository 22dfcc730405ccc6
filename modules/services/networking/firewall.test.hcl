# Tests of networking.firewall (firewall.hcl, firewall-nftables.hcl).

run "the firewall is off by default" {
  config "networking.firewall" {
    allowedTCPPorts = [22]
  }
  assert {
    condition     = !contains(keys(config.environment.etc), "nftables/nixos-fw.nft") && !contains(keys(config.systemd.services), "firewall")
    error_message = "no ruleset and no unit unless enabled"
  }
}

run "open ports render into the input-allow chain" {
  config "networking.firewall" {
    enable               = true
    allowedTCPPorts      = [22, 80, 22]
    allowedUDPPortRanges = [{ from = 60000, to = 61000 }]
    trustedInterfaces    = ["wg0"]
    allowPing            = false
    interfaces           = { eth0 = { allowedTCPPorts = [9100] } }
    extraInputRules      = "ip saddr 10.0.0.0/8 tcp dport 8080 accept"
  }

  assert {
    condition = alltrue([for l in [
      "    iifname { \"lo\", \"wg0\" } accept comment \"trusted interfaces\"",
      "    tcp dport { 22, 80 } accept",
      "    udp dport { 60000-61000 } accept",
      "    iifname \"eth0\" tcp dport { 9100 } accept",
      "    ip saddr 10.0.0.0/8 tcp dport 8080 accept",
    ] : strcontains(config.environment.etc["nftables/nixos-fw.nft"].text, "${l}\n")])
    error_message = "ports, ranges, interfaces, trusted interfaces and extra rules are in the ruleset"
  }
  assert {
    condition     = !strcontains(config.environment.etc["nftables/nixos-fw.nft"].text, "echo-request")
    error_message = "allowPing = false drops ICMPv4 echo requests"
  }
  assert {
    condition     = config.systemd.services.firewall.serviceConfig.ExecReload == "/usr/sbin/nft -f /etc/nftables/nixos-fw.nft" && config.systemd.services.firewall.reloadIfChanged
    error_message = "the unit loads the ruleset and reloads it when it changes"
  }
  assert {
    condition     = strcontains(config.systemd.units["firewall.service"].text, "X-Reload-Triggers=")
    error_message = "a changed ruleset changes the unit, which is reloaded"
  }
}

run "a port range goes upwards" {
  config "networking.firewall" {
    allowedTCPPortRanges = [{ from = 9000, to = 8000 }]
  }
  expect_error = "not from 9000 to 8000"
}

# Issue 27: interface names are nft strings; a quote would end one.
run "a trusted interface with a quote is refused" {
  config "networking.firewall" {
    enable            = true
    trustedInterfaces = ["wg0\" } accept; iifname { \"x"]
  }
  expect_error = "network interface name"
}

run "an interface name with a quote is refused" {
  config "networking.firewall" {
    enable     = true
    interfaces = { "eth\"0" = { allowedTCPPorts = [22] } }
  }
  expect_error = "It is refused because it holds '\"'"
}
