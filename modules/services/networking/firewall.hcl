# The firewall's options, with NixOS's names (services/networking/firewall.nix).
# firewall-nftables.hcl renders them as an nftables ruleset.
#
# Unlike NixOS, the firewall is off unless a host enables it: a host that
# nodegen did not firewall before must not start dropping packets.

submodule "firewallPorts" {
  option "allowedTCPPorts" {
    type        = listOf(port)
    default     = []
    description = "List of TCP ports on which incoming connections are accepted."
    example     = [22, 80]
  }
  option "allowedUDPPorts" {
    type        = listOf(port)
    default     = []
    description = "List of open UDP ports."
    example     = [53]
  }
  option "allowedTCPPortRanges" {
    type        = listOf(submodule.firewallPortRange)
    default     = []
    description = "A range of TCP ports on which incoming connections are accepted."
    example     = [{ from = 8999, to = 9003 }]
  }
  option "allowedUDPPortRanges" {
    type        = listOf(submodule.firewallPortRange)
    default     = []
    description = "Range of open UDP ports."
    example     = [{ from = 60000, to = 61000 }]
  }
}

# An interface of interfaces.NAME: its name is written in the ruleset as an
# nft string, so it must be one that Linux and nft accept.
submodule "firewallInterface" {
  option "name" {
    type         = interfaceName
    default      = name
    default_text = "the attribute name"
    read_only    = true
    internal     = true
    description  = "The interface's name."
  }
}

submodule "firewallPortRange" {
  option "from" {
    type        = port
    description = "The first port of the range."
  }
  option "to" {
    type        = port
    description = "The last port of the range."
  }
  assert {
    condition = config.from <= config.to
    message   = "a firewall port range goes from a lower port to a higher one, not from ${config.from} to ${config.to}."
  }
}

submodule "firewall" {
  option "enable" {
    type        = bool
    default     = false
    description = "Whether to enable the firewall: a stateful nftables filter that accepts established connections, ping, and the allowed ports, and drops all other incoming packets. Off by default, unlike NixOS's (on by default), deliberately: a host that nodegen did not firewall before must not start dropping packets when it is switched."
  }
  option "interfaces" {
    type        = attrsOf(submodule.firewallPorts)
    default     = {}
    description = "Interface-specific open ports."
    example     = { eth0 = { allowedTCPPorts = [9100] } }
  }
  option "interfaces" { type = attrsOf(submodule.firewallInterface) }
  option "trustedInterfaces" {
    type        = listOf(interfaceName)
    default     = []
    description = "Traffic coming in from these interfaces will be accepted unconditionally. Traffic from the loopback (lo) interface will always be accepted."
    example     = ["enp0s2"]
  }
  option "allowPing" {
    type        = bool
    default     = true
    description = "Whether to respond to incoming ICMPv4 echo requests (\"pings\"). ICMPv6 pings are always allowed."
  }
  option "rejectPackets" {
    type        = bool
    default     = false
    description = "If set, refused packets are rejected rather than dropped (ignored): a TCP reset or an ICMP port unreachable is sent back."
  }
  option "logRefusedConnections" {
    type        = bool
    default     = true
    description = "Whether to log rejected or dropped incoming connections (only new TCP connections, SYN packets)."
  }
  option "logRefusedPackets" {
    type        = bool
    default     = false
    description = "Whether to log all rejected or dropped incoming packets."
  }
  option "extraInputRules" {
    type        = lines
    default     = ""
    description = "Additional nftables rules to be appended to the input-allow chain."
    example     = "ip6 saddr { fc00::/7, fe80::/10 } tcp dport 24800 accept"
  }
}

# The firewall's own options, and the ports open on every interface: the
# same options as each of interfaces.NAME has (NixOS's commonOptions).
option "networking.firewall" {
  type        = submodule.firewall
  default     = {}
  description = "The firewall (see its options)."
}
option "networking.firewall" { type = submodule.firewallPorts }
