# Tests of systemd.network (networkd.hcl), by option group.

run "nothing is written unless networkd is enabled, but links" {
  config "systemd.network" {
    links    = { "10-a" = { matchConfig = { OriginalName = "eth0" }, linkConfig = { Name = "lan0" } } }
    networks = { "10-a" = { name = "lan0" } }
    netdevs  = { "20-br" = { netdevConfig = { Name = "br0", Kind = "bridge" } } }
  }
  assert {
    condition     = config.environment.etc["systemd/network/10-a.link"].text == "[Match]\nOriginalName=eth0\n\n[Link]\nName=lan0\n\n"
    error_message = "a .link unit is udev's: written whether networkd is enabled or not, as in NixOS"
  }
  assert {
    condition     = !contains(keys(config.environment.etc), "systemd/network/10-a.network") && !contains(keys(config.environment.etc), "systemd/network/20-br.netdev") && !contains(keys(config.environment.etc), "systemd/networkd.conf")
    error_message = "networks, netdevs and networkd.conf need systemd.network.enable"
  }
  assert {
    condition     = !config.services.resolved.enable && length(config.systemd.services) == 0
    error_message = "no unit and no resolved without networkd"
  }
}

run "a network's sections, in NixOS's order" {
  config "systemd.network" {
    enable = true
    networks = {
      "10-wan" = {
        name          = "wan0"
        DHCP          = "yes"
        domains       = ["a.example", "b.example"]
        networkConfig = { IPv6AcceptRA = true, LLDP = false }
        address       = ["192.0.2.2/24"]
        gateway       = ["192.0.2.1"]
        dns           = ["192.0.2.53", "192.0.2.54"]
        ntp           = ["192.0.2.123"]
        vlan          = ["vlan10"]
        linkConfig    = { MTUBytes = "9000" }
        dhcpV4Config  = { UseDNS = false, RouteMetric = 10 }
        dhcpV6Config  = { UseDNS = false }
        routes        = [{ routeConfig = { Gateway = "192.0.2.1" } }, { routeConfig = { Destination = "198.51.100.0/24", Metric = 5 } }]
        addresses     = [{ addressConfig = { Address = "192.0.2.3/24", Label = "wan0:1" } }]
        bridgeVLANs   = [{ bridgeVLANConfig = { VLAN = "10-20" } }]
        extraConfig   = "[CAN]\nBitRate=500K\n"
      }
    }
  }
  assert {
    condition = config.environment.etc["systemd/network/10-wan.network"].text == join("", [
      "[Match]\nName=wan0\n\n",
      "[Link]\nMTUBytes=9000\n\n",
      "[Network]\nDHCP=yes\nDomains=a.example b.example\nIPv6AcceptRA=true\nLLDP=false\n",
      "Address=192.0.2.2/24\nGateway=192.0.2.1\nDNS=192.0.2.53\nDNS=192.0.2.54\nNTP=192.0.2.123\nVLAN=vlan10\n\n",
      "[Address]\nAddress=192.0.2.3/24\nLabel=wan0:1\n\n",
      "[Route]\nGateway=192.0.2.1\n\n",
      "[Route]\nDestination=198.51.100.0/24\nMetric=5\n\n",
      "[DHCPv4]\nRouteMetric=10\nUseDNS=false\n\n",
      "[DHCPv6]\nUseDNS=false\n\n",
      "[BridgeVLAN]\nVLAN=10-20\n\n",
      "[CAN]\nBitRate=500K\n",
    ])
    error_message = "name, DHCP and domains become keys; the lists follow networkConfig's keys; sections in the renderer's order; extraConfig last"
  }
}

run "an empty network still has its Network section" {
  config "systemd.network" {
    enable   = true
    networks = { "99-x" = {} }
  }
  assert {
    condition     = config.environment.etc["systemd/network/99-x.network"].text == "[Network]\n\n"
    error_message = "as NixOS's networkToUnit"
  }
}

run "a netdev's sections, lists of sections repeated" {
  config "systemd.network" {
    enable = true
    netdevs = {
      "30-wg0" = {
        netdevConfig    = { Name = "wg0", Kind = "wireguard" }
        wireguardConfig = { PrivateKeyFile = "/run/keys/wg0", ListenPort = 51820 }
        wireguardPeers = [
          { wireguardPeerConfig = { PublicKey = "a", AllowedIPs = ["10.0.0.1/32", "10.0.0.2/32"] } },
          { wireguardPeerConfig = { PublicKey = "b" } },
        ]
      }
      "40-bond0" = {
        netdevConfig = { Name = "bond0", Kind = "bond" }
        bondConfig   = { Mode = "802.3ad", MIIMonitorSec = "1s" }
      }
    }
  }
  assert {
    condition     = config.environment.etc["systemd/network/30-wg0.netdev"].text == "[NetDev]\nKind=wireguard\nName=wg0\n\n[WireGuard]\nListenPort=51820\nPrivateKeyFile=/run/keys/wg0\n\n[WireGuardPeer]\nAllowedIPs=10.0.0.1/32\nAllowedIPs=10.0.0.2/32\nPublicKey=a\n\n[WireGuardPeer]\nPublicKey=b\n\n"
    error_message = "a list value repeats its key; each peer is a section"
  }
  assert {
    condition     = config.environment.etc["systemd/network/40-bond0.netdev"].text == "[NetDev]\nKind=bond\nName=bond0\n\n[Bond]\nMIIMonitorSec=1s\nMode=802.3ad\n\n"
    error_message = "the bond's section follows NetDev"
  }
}

run "a netdev needs its netdevConfig" {
  config "systemd.network" {
    enable  = true
    netdevs = { "20-br" = {} }
  }
  expect_error = "netdevConfig"
}

run "a disabled unit is masked" {
  config "systemd.network" {
    enable   = true
    networks = { "10-off" = { enable = false, name = "eth0" } }
  }
  assert {
    condition     = config.environment.etc["systemd/network/10-off.network"].mode == "symlink" && config.environment.etc["systemd/network/10-off.network"].source == "/dev/null"
    error_message = "as NixOS's makeUnit, a link to /dev/null"
  }
}

run "networkd.conf and the route tables" {
  config "systemd.network" {
    enable = true
    config = {
      routeTables   = { vpn = 100, dmz = 200 }
      networkConfig = { SpeedMeter = true }
      dhcpV6Config  = { DUIDType = "uuid" }
    }
  }
  assert {
    condition     = config.environment.etc["systemd/networkd.conf"].text == "[Network]\nRouteTable=dmz:200\nRouteTable=vpn:100\nSpeedMeter=true\n\n[DHCPv6]\nDUIDType=uuid\n\n"
    error_message = "routeTables become RouteTable keys; empty sections but [Network] are left out"
  }
  assert {
    condition     = config.environment.etc["iproute2/rt_tables.d/networkd.conf"].text == "# Extra tables defined in systemd.network.config.routeTables.\n200 dmz\n100 vpn\n"
    error_message = "the tables are named for ip(8) too"
  }
}

run "the route tables stay out of iproute2 when told" {
  config "systemd.network" {
    enable = true
    config = { routeTables = { vpn = 100 }, addRouteTablesToIPRoute2 = false }
  }
  assert {
    condition     = !contains(keys(config.environment.etc), "iproute2/rt_tables.d/networkd.conf")
    error_message = "addRouteTablesToIPRoute2 = false"
  }
}

run "the daemon's units, and resolved by default" {
  config "systemd.network" {
    enable   = true
    networks = { "10-a" = { name = "eth0" } }
  }
  assert {
    condition     = config.systemd.services.systemd-networkd.overrideStrategy == "asDropin" && contains(config.systemd.services.systemd-networkd.wantedBy, "multi-user.target") && contains(config.systemd.services.systemd-networkd.aliases, "dbus-org.freedesktop.network1.service")
    error_message = "the distribution's systemd-networkd.service gets a drop-in"
  }
  assert {
    condition     = contains(config.systemd.sockets.systemd-networkd.wantedBy, "sockets.target")
    error_message = "the netlink socket is wanted by sockets.target"
  }
  assert {
    condition     = contains(config.systemd.services.systemd-networkd.restartTriggers, config.environment.etc["systemd/network/10-a.network"].text)
    error_message = "a changed unit restarts networkd"
  }
  assert {
    condition     = config.services.resolved.enable
    error_message = "networkd turns resolved on by default, as in NixOS"
  }
}

run "wait-online's arguments" {
  config "systemd.network" {
    enable = true
    wait-online = {
      anyInterface      = true
      ignoredInterfaces = ["wg0", "docker0"]
      timeout           = 0
      extraArgs         = ["--ipv4"]
    }
  }
  assert {
    condition     = config.systemd.services.systemd-networkd-wait-online.serviceConfig.ExecStart == ["", "/lib/systemd/systemd-networkd-wait-online --timeout=0 --any --ignore=wg0 --ignore=docker0 --ipv4"]
    error_message = "the timeout, --any and --ignore come before extraArgs"
  }
  assert {
    condition     = config.systemd.services["systemd-network-wait-online@"].serviceConfig.ExecStart == "/lib/systemd/systemd-networkd-wait-online -i %I --timeout=0 --any --ignore=wg0 --ignore=docker0 --ipv4"
    error_message = "the per-interface unit takes the same arguments"
  }
}

run "wait-online disabled is masked" {
  config "systemd.network" {
    enable      = true
    wait-online = { enable = false }
  }
  assert {
    condition     = config.environment.etc["systemd/system/systemd-networkd-wait-online.service"].source == "/dev/null" && !contains(keys(config.systemd.services), "systemd-networkd-wait-online")
    error_message = "the distribution's unit is masked"
  }
}
