# The firewall as an nftables ruleset (NixOS's
# services/networking/firewall-nftables.nix): table inet nixos-fw, loaded
# by firewall.service with nft -f, replaced atomically on reload.

locals {
  fw      = config.networking.firewall
  nft     = "/usr/sbin/nft"
  fwRules = "/etc/nftables/nixos-fw.nft"

  # The rules of one interface's (or every interface's) open ports, in
  # the input-allow chain; iface is "default" for every interface. An
  # interface name is an nft string: its type (interfaceName) keeps out
  # the quote and backslash that nft strings cannot escape.
  fwPortRules = flatten([
    for iface, p in merge({ default = local.fw }, local.fw.interfaces) : [
      for r in [
        { proto = "tcp", ports = concat([for n in p.allowedTCPPorts : "${n}"], [for r in p.allowedTCPPortRanges : "${r.from}-${r.to}"]) },
        { proto = "udp", ports = concat([for n in p.allowedUDPPorts : "${n}"], [for r in p.allowedUDPPortRanges : "${r.from}-${r.to}"]) },
      ] : format("%s%s dport { %s } accept",
        iface == "default" ? "" : "iifname \"${p.name}\" ",
        r.proto,
        join(", ", distinct(r.ports)),
      ) if length(r.ports) > 0
    ]
  ])

  # The ruleset, line by line: the flush idiom first, so that nft -f
  # replaces the table in one transaction.
  fwRuleset = join("\n", concat(
    [
      "table inet nixos-fw",
      "delete table inet nixos-fw",
      "",
      "table inet nixos-fw {",
      "  chain input {",
      "    type filter hook input priority filter; policy drop;",
      "",
      "    iifname { ${join(", ", [for i in concat(["lo"], local.fw.trustedInterfaces) : "\"${i}\""])} } accept comment \"trusted interfaces\"",
      "",
      "    # Some ICMPv6 types like NDP are untracked.",
      "    ct state vmap {",
      "      invalid : drop,",
      "      established : accept,",
      "      related : accept,",
      "      new : jump input-allow,",
      "      untracked : jump input-allow,",
      "    }",
    ],
    local.fw.logRefusedConnections ? ["    tcp flags syn / fin,syn,rst,ack log level info prefix \"refused connection: \""] : [],
    local.fw.logRefusedPackets ? ["    log level info prefix \"refused packet: \""] : [],
    local.fw.rejectPackets ? ["    meta l4proto tcp reject with tcp reset", "    reject"] : [],
    ["  }", "", "  chain input-allow {"],
    [for r in local.fwPortRules : "    ${r}"],
    local.fw.allowPing ? ["    icmp type echo-request accept comment \"allow ping\""] : [],
    [
      "    icmpv6 type != { nd-redirect, 139 } accept comment \"Accept all ICMPv6 messages except redirects and node information queries (type 139). See RFC 4890, section 4.4.\"",
      "    ip6 daddr fe80::/64 udp dport 546 accept comment \"DHCPv6 client\"",
    ],
    [for l in compact(split("\n", local.fw.extraInputRules)) : "    ${l}"],
    ["  }", "}", ""],
  ))
}

config "environment.etc.\"nftables/nixos-fw.nft\"" {
  when   = local.fw.enable
  origin = "networking.firewall"
  text   = local.fwRuleset
  # nft -c parses and validates the ruleset without loading it; it needs
  # CAP_NET_ADMIN for its cache.
  checks = [{
    programs = [local.nft]
    script   = "${local.nft} -c -f \"$1\""
    root     = true
  }]
}

config "systemd.services.firewall" {
  when            = local.fw.enable
  description     = "Firewall"
  documentation   = ["man:nft(8)"]
  wantedBy        = ["sysinit.target"]
  wants           = ["network-pre.target"]
  before          = ["network-pre.target", "shutdown.target"]
  conflicts       = ["shutdown.target"]
  reloadIfChanged = true
  reloadTriggers  = [local.fwRuleset]
  unitConfig = {
    DefaultDependencies = false
  }
  serviceConfig = {
    Type            = "oneshot"
    RemainAfterExit = true
    ExecStart       = "${local.nft} -f ${local.fwRules}"
    ExecReload      = "${local.nft} -f ${local.fwRules}"
    ExecStop        = "${local.nft} delete table inet nixos-fw"
  }
}

# nft, from Debian's nftables package, installed by nodegen switch.
config "environment.packages.nftables" {
  when     = local.fw.enable
  provides = [local.nft]
}
