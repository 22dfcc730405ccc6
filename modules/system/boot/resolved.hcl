# systemd-resolved, ported from NixOS's system/boot/resolved.nix to
# Debian's systemd-resolved package: its unit, with a drop-in, and
# resolved.conf. As in NixOS, /etc/resolv.conf becomes a link to the stub
# resolver's file.
#
# Differences from NixOS: nodegen has no system.nssDatabases (Debian's
# libnss-resolve adds resolve to nsswitch.conf when it is installed), no
# networking.useHostResolvConf (containers), no dnsmasq and no
# NetworkManager to tell.

# NixOS's `optionalString c "KEY=${concatStringsSep " " xs}"` as a line of
# the indented string: KEY= and the values, or an empty line.
function "resolvedListLine" {
  params = [c, key, xs]
  result = c ? "${key}=${join(" ", xs)}\n" : "\n"
}

locals {
  resolved    = config.services.resolved
  resolvedBin = "/lib/systemd/systemd-resolved"

  # As NixOS's indented string writes it: a line for each of DNS=,
  # FallbackDNS= and Domains=, empty when the value is.
  resolvedConf = join("", [
    "[Resolve]\n",
    resolvedListLine(length(config.networking.nameservers) > 0, "DNS", config.networking.nameservers),
    resolvedListLine(local.resolved.fallbackDns != null, "FallbackDNS", coalescelist(local.resolved.fallbackDns, [""])),
    resolvedListLine(length(local.resolved.domains) > 0, "Domains", local.resolved.domains),
    "LLMNR=${local.resolved.llmnr}\n",
    "DNSSEC=${local.resolved.dnssec}\n",
    "${local.resolved.extraConfig}\n",
  ])
}

options "services.resolved" {
  option "enable" {
    type        = bool
    default     = false
    description = "Whether to enable the systemd DNS resolver daemon, `systemd-resolved`. Search for `services.resolved` to see all options."
  }
  option "fallbackDns" {
    type        = nullOr(listOf(str))
    default     = null
    example     = ["8.8.8.8", "2001:4860:4860::8844"]
    description = "A list of IPv4 and IPv6 addresses to use as the fallback DNS servers. If this option is null, a compiled-in list of DNS servers is used instead. Setting this option to an empty list will override the built-in list to an empty list, disabling fallback."
  }
  option "domains" {
    type         = listOf(str)
    default      = config.networking.search
    default_text = "config.networking.search"
    example      = ["example.com"]
    description  = "A list of domains. These domains are used as search suffixes when resolving single-label host names (domain names which contain no dot), in order to qualify them into fully-qualified domain names (FQDNs). For compatibility reasons, if this setting is not specified, the search domains listed in /etc/resolv.conf are used instead, if that file exists and any domains are configured in it."
  }
  option "llmnr" {
    type        = enum(["true", "resolve", "false"])
    default     = "true"
    example     = "false"
    description = <<-EOT
      Controls Link-Local Multicast Name Resolution support
      (RFC 4795) on the local host.

      If set to
      - "true": Enables full LLMNR responder and resolver support.
      - "false": Disables both.
      - "resolve": Only resolution support is enabled, but responding is disabled.
    EOT
  }
  option "dnssec" {
    type        = enum(["true", "allow-downgrade", "false"])
    default     = "false"
    example     = "true"
    description = <<-EOT
      If set to
      - "true": all DNS lookups are DNSSEC-validated locally (excluding
        LLMNR and Multicast DNS). Note that this mode requires a DNS server
        that supports DNSSEC. If the DNS server does not properly support
        DNSSEC all validations will fail.
      - "allow-downgrade": DNSSEC validation is attempted, but if the server
        does not support DNSSEC properly, DNSSEC mode is automatically
        disabled. Note that this mode makes DNSSEC validation vulnerable to
        "downgrade" attacks, where an attacker might be able to trigger a
        downgrade to non-DNSSEC mode by synthesizing a DNS response that
        suggests DNSSEC was not supported.
      - "false": DNS lookups are not DNSSEC validated.

      At the time of September 2023, systemd upstream advise to disable
      DNSSEC by default as the current code is not robust enough to deal
      with "in the wild" non-compliant servers, which will usually give you
      a broken bad experience in addition of insecure.
    EOT
  }
  option "extraConfig" {
    type        = lines
    default     = ""
    description = "Extra config to append to resolved.conf."
  }
}

config "systemd.services.systemd-resolved" {
  when             = local.resolved.enable
  overrideStrategy = "asDropin"
  wantedBy         = ["multi-user.target"]
  aliases          = ["dbus-org.freedesktop.resolve1.service"]
  restartTriggers  = [local.resolvedConf]
}

config "environment.etc.\"systemd/resolved.conf\"" {
  when   = local.resolved.enable
  origin = "services.resolved"
  text   = local.resolvedConf
}

# symlink the dynamic stub resolver of resolv.conf as recommended by upstream:
# https://www.freedesktop.org/software/systemd/man/systemd-resolved.html#/etc/resolv.conf
config "environment.etc.\"resolv.conf\"" {
  when   = local.resolved.enable
  origin = "services.resolved.enable"
  mode   = "symlink"
  source = "/run/systemd/resolve/stub-resolv.conf"
}

# What NixOS takes from pkgs.systemd: Debian's systemd-resolved package.
config "environment.packages.systemd-resolved" {
  when     = local.resolved.enable
  provides = [local.resolvedBin]
}
