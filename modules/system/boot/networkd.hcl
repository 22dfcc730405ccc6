# systemd-networkd, ported from NixOS's system/boot/networkd.nix (the
# options) and nixos/lib/systemd-network-units.nix (the unit files), to
# Debian's systemd package: the daemon, its socket and wait-online are the
# distribution's units, which nodegen extends with drop-ins.
#
# Differences from NixOS:
# - NixOS checks every section's keys (checkUnitConfig: assertOnlyFields,
#   assertValueOneOf, ...) through types.addCheck, which nodegen has no
#   form of; the keys are checked by systemd-networkd itself, which
#   fixtures/networkd_test.go runs on the generated files (and udev on the
#   .link units).
# - A unit with enable = false is masked (a link to /dev/null), as NixOS's
#   makeUnit does; so is systemd-networkd-wait-online.service when
#   wait-online.enable is false.
# - Debian's systemd package already declares the systemd-network user.
# - boot.initrd.systemd.network has no equivalent: nodegen writes no initrd.

locals {
  networkd        = config.systemd.network
  networkdLibexec = "/lib/systemd"
  networkdWaitBin = "${local.networkdLibexec}/systemd-networkd-wait-online"

  # The sections of each unit kind, in the order systemd-network-units.nix
  # writes them: the option, the section's name and, for a list of
  # sections, the option of each element that holds its keys. Every
  # section is chosen by networkdSections and rendered by networkdUnitText
  # (the functions below).
  networkdLinkSections = [
    { opt = "matchConfig", header = "Match", inner = null, always = false },
    { opt = "linkConfig", header = "Link", inner = null, always = true },
  ]
  networkdNetdevSections = [
    { opt = "matchConfig", header = "Match", inner = null, always = false },
    { opt = "netdevConfig", header = "NetDev", inner = null, always = true },
    { opt = "bridgeConfig", header = "Bridge", inner = null, always = false },
    { opt = "vlanConfig", header = "VLAN", inner = null, always = false },
    { opt = "ipvlanConfig", header = "IPVLAN", inner = null, always = false },
    { opt = "ipvtapConfig", header = "IPVTAP", inner = null, always = false },
    { opt = "macvlanConfig", header = "MACVLAN", inner = null, always = false },
    { opt = "vxlanConfig", header = "VXLAN", inner = null, always = false },
    { opt = "tunnelConfig", header = "Tunnel", inner = null, always = false },
    { opt = "fooOverUDPConfig", header = "FooOverUDP", inner = null, always = false },
    { opt = "peerConfig", header = "Peer", inner = null, always = false },
    { opt = "tunConfig", header = "Tun", inner = null, always = false },
    { opt = "tapConfig", header = "Tap", inner = null, always = false },
    { opt = "l2tpConfig", header = "L2TP", inner = null, always = false },
    { opt = "l2tpSessions", header = "L2TPSession", inner = "l2tpSessionConfig", always = true },
    { opt = "wireguardConfig", header = "WireGuard", inner = null, always = false },
    { opt = "wireguardPeers", header = "WireGuardPeer", inner = "wireguardPeerConfig", always = true },
    { opt = "bondConfig", header = "Bond", inner = null, always = false },
    { opt = "xfrmConfig", header = "Xfrm", inner = null, always = false },
    { opt = "vrfConfig", header = "VRF", inner = null, always = false },
    { opt = "wlanConfig", header = "WLAN", inner = null, always = false },
    { opt = "batmanAdvancedConfig", header = "BatmanAdvanced", inner = null, always = false },
  ]
  networkdNetworkLists = {
    address = "Address"
    gateway = "Gateway"
    dns     = "DNS"
    ntp     = "NTP"
    bridge  = "Bridge"
    bond    = "Bond"
    vrf     = "VRF"
    vlan    = "VLAN"
    macvlan = "MACVLAN"
    macvtap = "MACVTAP"
    vxlan   = "VXLAN"
    tunnel  = "Tunnel"
    xfrm    = "Xfrm"
  }
  networkdNetworkListOrder = ["address", "gateway", "dns", "ntp", "bridge", "bond", "vrf", "vlan", "macvlan", "macvtap", "vxlan", "tunnel", "xfrm"]
  # A .network's [Network] has, after networkConfig's keys, those of the
  # lists above (lists = true).
  networkdNetworkSections = [
    { opt = "matchConfig", header = "Match", inner = null, always = false },
    { opt = "linkConfig", header = "Link", inner = null, always = false },
    { opt = "networkConfig", header = "Network", inner = null, always = true, lists = true },
    { opt = "addresses", header = "Address", inner = "addressConfig", always = true },
    { opt = "routingPolicyRules", header = "RoutingPolicyRule", inner = "routingPolicyRuleConfig", always = true },
    { opt = "routes", header = "Route", inner = "routeConfig", always = true },
    { opt = "dhcpV4Config", header = "DHCPv4", inner = null, always = false },
    { opt = "dhcpV6Config", header = "DHCPv6", inner = null, always = false },
    { opt = "dhcpPrefixDelegationConfig", header = "DHCPPrefixDelegation", inner = null, always = false },
    { opt = "ipv6AcceptRAConfig", header = "IPv6AcceptRA", inner = null, always = false },
    { opt = "dhcpServerConfig", header = "DHCPServer", inner = null, always = false },
    { opt = "ipv6SendRAConfig", header = "IPv6SendRA", inner = null, always = false },
    { opt = "ipv6Prefixes", header = "IPv6Prefix", inner = "ipv6PrefixConfig", always = true },
    { opt = "ipv6RoutePrefixes", header = "IPv6RoutePrefix", inner = "ipv6RoutePrefixConfig", always = true },
    { opt = "dhcpServerStaticLeases", header = "DHCPServerStaticLease", inner = "dhcpServerStaticLeaseConfig", always = true },
    { opt = "bridgeConfig", header = "Bridge", inner = null, always = false },
    { opt = "bridgeFDBs", header = "BridgeFDB", inner = "bridgeFDBConfig", always = true },
    { opt = "bridgeMDBs", header = "BridgeMDB", inner = "bridgeMDBConfig", always = true },
    { opt = "lldpConfig", header = "LLDP", inner = null, always = false },
    { opt = "canConfig", header = "CAN", inner = null, always = false },
    { opt = "ipoIBConfig", header = "IPoIB", inner = null, always = false },
    { opt = "qdiscConfig", header = "QDisc", inner = null, always = false },
    { opt = "networkEmulatorConfig", header = "NetworkEmulator", inner = null, always = false },
    { opt = "tokenBucketFilterConfig", header = "TokenBucketFilter", inner = null, always = false },
    { opt = "pieConfig", header = "PIE", inner = null, always = false },
    { opt = "flowQueuePIEConfig", header = "FlowQueuePIE", inner = null, always = false },
    { opt = "stochasticFairBlueConfig", header = "StochasticFairBlue", inner = null, always = false },
    { opt = "stochasticFairnessQueueingConfig", header = "StochasticFairnessQueueing", inner = null, always = false },
    { opt = "bfifoConfig", header = "BFIFO", inner = null, always = false },
    { opt = "pfifoConfig", header = "PFIFO", inner = null, always = false },
    { opt = "pfifoHeadDropConfig", header = "PFIFOHeadDrop", inner = null, always = false },
    { opt = "pfifoFastConfig", header = "PFIFOFast", inner = null, always = false },
    { opt = "cakeConfig", header = "CAKE", inner = null, always = false },
    { opt = "controlledDelayConfig", header = "ControlledDelay", inner = null, always = false },
    { opt = "deficitRoundRobinSchedulerConfig", header = "DeficitRoundRobinScheduler", inner = null, always = false },
    { opt = "deficitRoundRobinSchedulerClassConfig", header = "DeficitRoundRobinSchedulerClass", inner = null, always = false },
    { opt = "enhancedTransmissionSelectionConfig", header = "EnhancedTransmissionSelection", inner = null, always = false },
    { opt = "genericRandomEarlyDetectionConfig", header = "GenericRandomEarlyDetection", inner = null, always = false },
    { opt = "fairQueueingControlledDelayConfig", header = "FairQueueingControlledDelay", inner = null, always = false },
    { opt = "fairQueueingConfig", header = "FairQueueing", inner = null, always = false },
    { opt = "trivialLinkEqualizerConfig", header = "TrivialLinkEqualizer", inner = null, always = false },
    { opt = "hierarchyTokenBucketConfig", header = "HierarchyTokenBucket", inner = null, always = false },
    { opt = "hierarchyTokenBucketClassConfig", header = "HierarchyTokenBucketClass", inner = null, always = false },
    { opt = "heavyHitterFilterConfig", header = "HeavyHitterFilter", inner = null, always = false },
    { opt = "quickFairQueueingConfig", header = "QuickFairQueueing", inner = null, always = false },
    { opt = "quickFairQueueingConfigClass", header = "QuickFairQueueingClass", inner = null, always = false },
    { opt = "bridgeVLANs", header = "BridgeVLAN", inner = "bridgeVLANConfig", always = true },
  ]
  networkdConfigSections = [
    { opt = "networkConfig", header = "Network", inner = null, always = true },
    { opt = "dhcpV4Config", header = "DHCPv4", inner = null, always = false },
    { opt = "dhcpV6Config", header = "DHCPv6", inner = null, always = false },
  ]

  # The options of single sections ([VLAN], [DHCPv4], ...), by kind: their
  # option, section and example, declared by one dynamic block each.
  networkdSingleOptions = {
    link    = { for s in local.networkdLinkSections : s.opt => s.header if s.inner == null && s.opt != "matchConfig" }
    netdev  = { for s in local.networkdNetdevSections : s.opt => s.header if s.inner == null && s.opt != "matchConfig" }
    network = { for s in local.networkdNetworkSections : s.opt => s.header if s.inner == null && s.opt != "matchConfig" && s.opt != "networkConfig" }
  }
}

# The options of one unit of each kind: NixOS's commonNetworkOptions (a
# link's enable has a description of its own).
submodule "networkdEnable" {
  option "enable" {
    type        = bool
    default     = true
    description = "Whether to manage network configuration using systemd-network. This also enables systemd.networkd.enable."
  }
}
submodule "networkdCommon" {
  option "matchConfig" {
    type        = attrsOf(systemdOption)
    default     = {}
    example     = { Name = "eth0" }
    description = "Each attribute in this set specifies an option in the `[Match]` section of the unit. See systemd.link(5) systemd.netdev(5) systemd.network(5) for details."
  }
  option "extraConfig" {
    type        = lines
    default     = ""
    description = "Extra configuration append to unit"
  }
}

submodule "networkdLink" {
  option "enable" {
    type        = bool
    default     = true
    description = "Whether to enable this .link unit. It's handled by udev no matter if systemd-networkd is enabled or not"
  }
  option "linkConfig" {
    type        = attrsOf(systemdOption)
    default     = {}
    example     = { MACAddress = "00:ff:ee:aa:cc:dd" }
    description = "Each attribute in this set specifies an option in the `[Link]` section of the unit. See systemd.link(5) for details."
  }
}

submodule "networkdNetdev" {
  option "netdevConfig" {
    type        = attrsOf(systemdOption)
    example     = { Name = "mybridge", Kind = "bridge" }
    description = "Each attribute in this set specifies an option in the `[Netdev]` section of the unit. See systemd.netdev(5) for details."
  }
  dynamic "option" {
    for_each = { for o, h in local.networkdSingleOptions.netdev : o => h if o != "netdevConfig" }
    labels   = [option.key]
    content {
      type        = attrsOf(systemdOption)
      default     = {}
      description = "Each attribute in this set specifies an option in the `[${option.value}]` section of the unit. See systemd.netdev(5) for details."
    }
  }
  option "l2tpSessions" {
    type        = listOf(submodule.networkdL2tpSession)
    default     = []
    example     = [{ l2tpSessionConfig = { SessionId = 25, PeerSessionId = 26, Name = "l2tp-sess" } }]
    description = "Each item in this array specifies an option in the `[L2TPSession]` section of the unit. See systemd.netdev(5) for details."
  }
  option "wireguardPeers" {
    type        = listOf(submodule.networkdWireguardPeer)
    default     = []
    example     = [{ wireguardPeerConfig = { Endpoint = "192.168.1.1:51820", PublicKey = "27s0OvaBBdHoJYkH9osZpjpgSOVNw+RaKfboT/Sfq0g=", PresharedKeyFile = "/etc/wireguard/psk.key", AllowedIPs = ["10.0.0.1/32"], PersistentKeepalive = 15 } }]
    description = "Each item in this array specifies an option in the `[WireGuardPeer]` section of the unit. See systemd.netdev(5) for details. Use `PresharedKeyFile` instead of `PresharedKey`: the profile is world-readable."
  }
}

# The elements of the lists of sections, one submodule each, as NixOS's
# addressOptions, routeOptions, ...
submodule "networkdL2tpSession" {
  option "l2tpSessionConfig" {
    type        = attrsOf(systemdOption)
    default     = {}
    description = "Each attribute in this set specifies an option in the `[L2TPSession]` section of the unit. See systemd.netdev(5) for details."
  }
}
submodule "networkdWireguardPeer" {
  option "wireguardPeerConfig" {
    type        = attrsOf(systemdOption)
    default     = {}
    description = "Each attribute in this set specifies an option in the `[WireGuardPeer]` section of the unit. See systemd.network(5) for details."
  }
}
submodule "networkdAddress" {
  option "addressConfig" {
    type        = attrsOf(systemdOption)
    example     = { Address = "192.168.0.100/24" }
    description = "Each attribute in this set specifies an option in the `[Address]` section of the unit. See systemd.network(5) for details."
  }
}
submodule "networkdRoutingPolicyRule" {
  option "routingPolicyRuleConfig" {
    type        = attrsOf(systemdOption)
    default     = {}
    example     = { Table = 10, IncomingInterface = "eth1", Family = "both" }
    description = "Each attribute in this set specifies an option in the `[RoutingPolicyRule]` section of the unit. See systemd.network(5) for details."
  }
}
submodule "networkdRoute" {
  option "routeConfig" {
    type        = attrsOf(systemdOption)
    default     = {}
    example     = { Gateway = "192.168.0.1" }
    description = "Each attribute in this set specifies an option in the `[Route]` section of the unit. See systemd.network(5) for details."
  }
}
submodule "networkdIpv6Prefix" {
  option "ipv6PrefixConfig" {
    type        = attrsOf(systemdOption)
    default     = {}
    example     = { Prefix = "fd00::/64" }
    description = "Each attribute in this set specifies an option in the `[IPv6Prefix]` section of the unit. See systemd.network(5) for details."
  }
}
submodule "networkdIpv6RoutePrefix" {
  option "ipv6RoutePrefixConfig" {
    type        = attrsOf(systemdOption)
    default     = {}
    example     = { Route = "fd00::/64" }
    description = "Each attribute in this set specifies an option in the `[IPv6RoutePrefix]` section of the unit. See systemd.network(5) for details."
  }
}
submodule "networkdDhcpServerStaticLease" {
  option "dhcpServerStaticLeaseConfig" {
    type        = attrsOf(systemdOption)
    default     = {}
    example     = { MACAddress = "65:43:4a:5b:d8:5f", Address = "192.168.1.42" }
    description = "Each attribute in this set specifies an option in the `[DHCPServerStaticLease]` section of the unit. See systemd.network(5) for details. Make sure to configure the corresponding client interface to use `ClientIdentifier=mac`."
  }
}
submodule "networkdBridgeFDB" {
  option "bridgeFDBConfig" {
    type        = attrsOf(systemdOption)
    default     = {}
    example     = { MACAddress = "65:43:4a:5b:d8:5f", Destination = "192.168.1.42", VNI = 20 }
    description = "Each attribute in this set specifies an option in the `[BridgeFDB]` section of the unit. See systemd.network(5) for details."
  }
}
submodule "networkdBridgeMDB" {
  option "bridgeMDBConfig" {
    type        = attrsOf(systemdOption)
    default     = {}
    example     = { MulticastGroupAddress = "ff02::1:2:3:4", VLANId = 10 }
    description = "Each attribute in this set specifies an option in the `[BridgeMDB]` section of the unit. See systemd.network(5) for details."
  }
}
submodule "networkdBridgeVLAN" {
  option "bridgeVLANConfig" {
    type        = attrsOf(systemdOption)
    default     = {}
    example     = { VLAN = 20 }
    description = "Each attribute in this set specifies an option in the `[BridgeVLAN]` section of the unit. See systemd.network(5) for details."
  }
}

submodule "networkdNetwork" {
  dynamic "option" {
    for_each = local.networkdSingleOptions.network
    labels   = [option.key]
    content {
      type        = attrsOf(systemdOption)
      default     = {}
      description = "Each attribute in this set specifies an option in the `[${option.value}]` section of the unit. See systemd.network(5) for details."
    }
  }
  option "networkConfig" {
    type        = attrsOf(systemdOption)
    default     = {}
    example     = { Description = "My Network" }
    description = "Each attribute in this set specifies an option in the `[Network]` section of the unit. See systemd.network(5) for details."
  }
  option "dhcpServerStaticLeases" {
    type        = listOf(submodule.networkdDhcpServerStaticLease)
    default     = []
    example     = [{ dhcpServerStaticLeaseConfig = { MACAddress = "65:43:4a:5b:d8:5f", Address = "192.168.1.42" } }]
    description = "A list of DHCPServerStaticLease sections to be added to the unit. See systemd.network(5) for details."
  }
  option "ipv6Prefixes" {
    type        = listOf(submodule.networkdIpv6Prefix)
    default     = []
    example     = [{ ipv6PrefixConfig = { AddressAutoconfiguration = true, OnLink = true } }]
    description = "A list of ipv6Prefix sections to be added to the unit. See systemd.network(5) for details."
  }
  option "ipv6RoutePrefixes" {
    type        = listOf(submodule.networkdIpv6RoutePrefix)
    default     = []
    example     = [{ ipv6RoutePrefixConfig = { Route = "fd00::/64", LifetimeSec = 3600 } }]
    description = "A list of ipv6RoutePrefix sections to be added to the unit. See systemd.network(5) for details."
  }
  option "bridgeFDBs" {
    type        = listOf(submodule.networkdBridgeFDB)
    default     = []
    example     = [{ bridgeFDBConfig = { MACAddress = "90:e2:ba:43:fc:71", Destination = "192.168.100.4", VNI = 3600 } }]
    description = "A list of BridgeFDB sections to be added to the unit. See systemd.network(5) for details."
  }
  option "bridgeMDBs" {
    type        = listOf(submodule.networkdBridgeMDB)
    default     = []
    example     = [{ bridgeMDBConfig = { MulticastGroupAddress = "ff02::1:2:3:4", VLANId = 10 } }]
    description = "A list of BridgeMDB sections to be added to the unit. See systemd.network(5) for details."
  }
  option "bridgeVLANs" {
    type        = listOf(submodule.networkdBridgeVLAN)
    default     = []
    example     = [{ bridgeVLANConfig = { VLAN = "10-20" } }]
    description = "A list of BridgeVLAN sections to be added to the unit. See systemd.network(5) for details."
  }
  option "name" {
    type        = nullOr(str)
    default     = null
    description = "The name of the network interface to match against."
  }
  option "DHCP" {
    type        = nullOr(str)
    default     = null
    description = "Whether to enable DHCP on the interfaces matched."
  }
  option "domains" {
    type        = nullOr(listOf(str))
    default     = null
    description = "A list of domains to pass to the network config."
  }
  dynamic "option" {
    for_each = local.networkdNetworkLists
    labels   = [option.key]
    content {
      type        = listOf(str)
      default     = []
      description = "A list of ${option.key == "address" ? "addresse" : option.key}s to be added to the network section of the unit. See systemd.network(5) for details."
    }
  }
  option "addresses" {
    type        = listOf(submodule.networkdAddress)
    default     = []
    description = "A list of address sections to be added to the unit. See systemd.network(5) for details."
  }
  option "routingPolicyRules" {
    type        = listOf(submodule.networkdRoutingPolicyRule)
    default     = []
    description = "A list of routing policy rules sections to be added to the unit. See systemd.network(5) for details."
  }
  option "routes" {
    type        = listOf(submodule.networkdRoute)
    default     = []
    description = "A list of route sections to be added to the unit. See systemd.network(5) for details."
  }

  # NixOS's networkConfig module: name, DHCP and domains as keys.
  config {
    matchConfig = mkIf(config.name != null, { Name = config.name })
    networkConfig = mkMerge([
      mkIf(config.DHCP != null, { DHCP = config.DHCP }),
      mkIf(config.domains != null, { Domains = join(" ", config.domains) }),
    ])
  }
}

# networkd.conf: NixOS's networkdOptions and networkdConfig.
submodule "networkdConfig" {
  option "networkConfig" {
    type        = attrsOf(systemdOption)
    default     = {}
    example     = { SpeedMeter = true, ManageForeignRoutingPolicyRules = false }
    description = "Each attribute in this set specifies an option in the `[Network]` section of the networkd config. See networkd.conf(5) for details."
  }
  option "dhcpV4Config" {
    type        = attrsOf(systemdOption)
    default     = {}
    example     = { DUIDType = "vendor" }
    description = "Each attribute in this set specifies an option in the `[DHCPv4]` section of the networkd config. See networkd.conf(5) for details."
  }
  option "dhcpV6Config" {
    type        = attrsOf(systemdOption)
    default     = {}
    example     = { DUIDType = "vendor" }
    description = "Each attribute in this set specifies an option in the `[DHCPv6]` section of the networkd config. See networkd.conf(5) for details."
  }
  option "routeTables" {
    type        = attrsOf(int)
    default     = {}
    example     = { foo = 27 }
    description = "Defines route table names as an attrset of name to number. See networkd.conf(5) for details."
  }
  option "addRouteTablesToIPRoute2" {
    type        = bool
    default     = true
    example     = false
    description = "If true and routeTables are set, then the specified route tables will also be installed into /etc/iproute2/rt_tables (in nodegen, /etc/iproute2/rt_tables.d/networkd.conf, which Debian's iproute2 reads too)."
  }

  config {
    networkConfig = mkIf(length(config.routeTables) > 0, {
      RouteTable = [for name, number in config.routeTables : "${name}:${number}"]
    })
  }
}

options "systemd.network" {
  option "enable" {
    type        = bool
    default     = false
    description = "Whether to enable networkd or not."
  }
  option "links" {
    type        = attrsOf(submodule.networkdLink)
    default     = {}
    description = "Definition of systemd network links."
  }
  option "netdevs" {
    type        = attrsOf(submodule.networkdNetdev)
    default     = {}
    description = "Definition of systemd network devices."
  }
  option "networks" {
    type        = attrsOf(submodule.networkdNetwork)
    default     = {}
    description = "Definition of systemd networks."
  }
  option "config" {
    type        = submodule.networkdConfig
    default     = {}
    description = "Definition of global systemd network config."
  }
  option "units" {
    type        = attrsOf(submodule.networkdUnit)
    default     = {}
    internal    = true
    description = "Definition of networkd units: their file names and texts."
  }
  option "wait-online.enable" {
    type        = bool
    default     = true
    example     = false
    description = <<-EOT
      Whether to enable the systemd-networkd-wait-online service.

      systemd-networkd-wait-online can timeout and fail if there are no network interfaces
      available for it to manage. When systemd-networkd is enabled but a different service is
      responsible for managing the system's internet connection (for example, NetworkManager or
      connman are used to manage WiFi connections), this service is unnecessary and can be
      disabled.
    EOT
  }
  option "wait-online.anyInterface" {
    type        = bool
    default     = false
    description = "Whether to consider the network online when any interface is online, as opposed to all of them. This is useful on portable machines with a wired and a wireless interface, for example."
  }
  option "wait-online.ignoredInterfaces" {
    type        = listOf(str)
    default     = []
    example     = ["wg0"]
    description = "Network interfaces to be ignored when deciding if the system is online."
  }
  option "wait-online.timeout" {
    type        = ints.unsigned
    default     = 120
    example     = 0
    description = "Time to wait for the network to come online, in seconds. Set to 0 to disable."
  }
  option "wait-online.extraArgs" {
    type        = listOf(str)
    default     = []
    description = "Extra command-line arguments to pass to systemd-networkd-wait-online. These also affect per-interface `systemd-network-wait-online@` services. See systemd-networkd-wait-online.service(8) for all available options."
  }
}

# The netdevs' and links' options shared with networks.
option "systemd.network.links" { type = attrsOf(submodule.networkdCommon) }
option "systemd.network.netdevs" { type = attrsOf(submodule.networkdCommon) }
option "systemd.network.networks" { type = attrsOf(submodule.networkdCommon) }
option "systemd.network.netdevs" { type = attrsOf(submodule.networkdEnable) }
option "systemd.network.networks" { type = attrsOf(submodule.networkdEnable) }

submodule "networkdUnit" {
  option "enable" {
    type        = bool
    default     = true
    description = "Whether the unit is written; a disabled one is masked."
  }
  option "text" {
    type        = str
    description = "The unit file."
  }
}

# NixOS's attrsToSection (nixos/lib/systemd-lib.nix): KEY=VALUE for each
# value of each key, by key. A bool is true or false, a list repeats its
# key.
function "attrsToSection" {
  params = [as]
  result = join("", flatten([for k, v in as : [for x in flatten([v]) : "${k}=${x}\n"]]))
}

# The sections a unit has, from its definition and its table of sections
# (local.networkdLinkSections, ...): a name, its keys (an attribute set)
# and the lines after them. A single section is written when it has keys
# or when the renderer always writes it; a list of sections, one for each
# element.
function "networkdSections" {
  params = [def, table]
  result = flatten([
    for s in table : [
      for x in (s.inner == null ? [def[s.opt]] : def[s.opt]) : {
        header = s.header
        attrs  = s.inner == null ? x : x[s.inner]
        lines  = lookup(s, "lists", false) ? flatten([for l in local.networkdNetworkListOrder : [for v in def[l] : "${local.networkdNetworkLists[l]}=${v}"]]) : []
      } if s.always || s.inner != null || length(x) > 0
    ]
  ])
}

# The unit renderers of systemd-network-units.nix: each section as
# "[NAME]\n", attrsToSection of its keys, its lines and a blank line;
# extraConfig last.
function "networkdUnitText" {
  params = [def, table]
  result = join("", concat([
    for s in networkdSections(def, table) : "[${s.header}]\n${attrsToSection(s.attrs)}${join("", [for l in s.lines : "${l}\n"])}\n"
  ], [def.extraConfig]))
}

locals {
  # Each unit as its definition and its table of sections.
  networkdFiles = merge(
    { for n, def in local.networkd.links : "${n}.link" => { def = def, table = local.networkdLinkSections } },
    local.networkd.enable ? { for n, def in local.networkd.netdevs : "${n}.netdev" => { def = def, table = local.networkdNetdevSections } } : {},
    local.networkd.enable ? { for n, def in local.networkd.networks : "${n}.network" => { def = def, table = local.networkdNetworkSections } } : {},
  )
  networkdConf = networkdUnitText(merge(local.networkd.config, { extraConfig = "" }), local.networkdConfigSections)

  networkdWaitArgs = join(" ", [for a in local.networkd.wait-online.extraArgs : systemdexecarg(a)])
}

config "systemd.network" {
  units = { for n, f in local.networkdFiles : n => { enable = f.def.enable, text = networkdUnitText(f.def, f.table) } }
  # Before the host's own arguments, where NixOS's module order puts them.
  wait-online = {
    extraArgs = mkBefore(concat(
      ["--timeout=${local.networkd.wait-online.timeout}"],
      local.networkd.wait-online.anyInterface ? ["--any"] : [],
      [for i in local.networkd.wait-online.ignoredInterfaces : "--ignore=${i}"],
    ))
  }
}

# The unit files (NixOS's mkUnitFiles); a disabled one masked.
config "environment" {
  etc = {
    for n, u in local.networkd.units : "systemd/network/${n}" => u.enable ? {
      origin = "systemd.network.units.\"${n}\""
      text   = u.text
    } : {
      origin = "systemd.network.units.\"${n}\""
      mode   = "symlink"
      source = "/dev/null"
    }
  }
}

config "environment.etc.\"systemd/networkd.conf\"" {
  when   = local.networkd.enable
  origin = "systemd.network.config"
  text   = local.networkdConf
}

config "environment.etc.\"iproute2/rt_tables.d/networkd.conf\"" {
  when   = local.networkd.enable && local.networkd.config.addRouteTablesToIPRoute2 && length(local.networkd.config.routeTables) > 0
  origin = "systemd.network.config.routeTables"
  text   = "# Extra tables defined in systemd.network.config.routeTables.\n${join("", [for name, number in local.networkd.config.routeTables : "${number} ${name}\n"])}"
}

# systemd-networkd is socket-activated by kernel netlink route change
# messages. It is important to have systemd buffer those on behalf of
# networkd.
config "systemd.sockets.systemd-networkd" {
  when             = local.networkd.enable
  overrideStrategy = "asDropin"
  wantedBy         = ["sockets.target"]
}

config "systemd.services.systemd-networkd" {
  when             = local.networkd.enable
  overrideStrategy = "asDropin"
  wantedBy         = ["multi-user.target"]
  aliases          = ["dbus-org.freedesktop.network1.service"]
  restartTriggers  = concat([for n, u in local.networkd.units : u.text], [local.networkdConf])
}

config "systemd.services.systemd-networkd-wait-online" {
  when             = local.networkd.enable && local.networkd.wait-online.enable
  overrideStrategy = "asDropin"
  wantedBy         = ["network-online.target"]
  serviceConfig = {
    ExecStart = ["", "${local.networkdWaitBin} ${local.networkdWaitArgs}"]
  }
}

config "environment.etc.\"systemd/system/systemd-networkd-wait-online.service\"" {
  when   = local.networkd.enable && !local.networkd.wait-online.enable
  origin = "systemd.network.wait-online.enable"
  mode   = "symlink"
  source = "/dev/null"
}

config "systemd" {
  when = local.networkd.enable
  services = {
    "systemd-network-wait-online@" = {
      description = "Wait for Network Interface %I to be Configured"
      conflicts   = ["shutdown.target"]
      requisite   = ["systemd-networkd.service"]
      after       = ["systemd-networkd.service"]
      serviceConfig = {
        Type            = "oneshot"
        RemainAfterExit = true
        ExecStart       = "${local.networkdWaitBin} -i %I ${local.networkdWaitArgs}"
      }
    }
  }
}

config "services.resolved" {
  when   = local.networkd.enable
  enable = mkDefault(true)
}

# What NixOS takes from pkgs.systemd: Debian's systemd package.
config "environment.packages.systemd" {
  when     = local.networkd.enable
  provides = ["${local.networkdLibexec}/systemd-networkd", local.networkdWaitBin]
}
