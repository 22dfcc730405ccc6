# Tests of services.unbound (unbound.hcl), by option group.

run "the defaults, as NixOS's unbound.conf" {
  config "services.unbound" {
    enable = true
  }
  assert {
    condition = config.environment.etc["unbound/unbound.conf"].text == join("", [
      "server:\n\n",
      "  access-control: 127.0.0.0/8 allow\n  access-control: ::1/128 allow\n",
      "  auto-trust-anchor-file: /var/lib/unbound/root.key\n",
      "  chroot: \"\"\n  directory: /var/lib/unbound\n  do-daemonize: no\n",
      "  interface: 127.0.0.1\n  interface: ::1\n  ip-freebind: yes\n",
      "  pidfile: \"\"\n  tls-cert-bundle: /etc/ssl/certs/ca-certificates.crt\n  username: \"\"\n",
      "remote-control:\n",
      "  control-cert-file: /var/lib/unbound/unbound_control.pem\n  control-enable: no\n",
      "  control-interface: 127.0.0.1\n  control-interface: ::1\n",
      "  control-key-file: /var/lib/unbound/unbound_control.key\n",
      "  server-cert-file: /var/lib/unbound/unbound_server.pem\n  server-key-file: /var/lib/unbound/unbound_server.key\n",
      "\n",
    ])
    error_message = "server and remote-control, keys sorted, lists repeated, bools yes/no, an empty define-tag line"
  }
  assert {
    condition     = !config.services.unbound.checkconf && length(config.environment.etc["unbound/unbound.conf"].checks) == 0
    error_message = "checkconf is off, as in NixOS: the module always sets remote-control"
  }
  assert {
    condition     = startswith(config.systemd.services.unbound.preStart, "/usr/sbin/unbound-anchor -a /var/lib/unbound/root.key || echo \"Root anchor updated!\"\n") && contains(keys(config.environment.packages), "unbound-anchor")
    error_message = "the root trust anchor is fetched before start, by Debian's unbound-anchor"
  }
  assert {
    condition     = config.environment.etc["resolv.conf"].text == "nameserver 127.0.0.1\nnameserver ::1\n"
    error_message = "resolveLocalQueries names the local server"
  }
  assert {
    condition     = config.users.users.unbound.isSystemUser && config.users.users.unbound.group == "unbound" && contains(keys(config.users.groups), "unbound")
    error_message = "unbound has its user and group"
  }
}

run "no IPv6 listens on IPv4 only" {
  config "networking" {
    enableIPv6 = false
  }
  config "services.unbound" {
    enable                = true
    enableRootTrustAnchor = false
  }
  assert {
    condition     = config.services.unbound.settings.server.interface == ["127.0.0.1"] && config.services.unbound.settings.server.access-control == ["127.0.0.0/8 allow"] && !contains(keys(config.services.unbound.settings.server), "auto-trust-anchor-file")
    error_message = "the loopback of IPv4, and no trust anchor when told"
  }
}

run "other sections, one or a list of them" {
  config "services.unbound" {
    enable = true
    settings = {
      server = { define-tag = "a b", num-threads = 4, cache-min-ttl = 1.5 }
      forward-zone = [
        { name = ".", forward-addr = ["192.0.2.1", "192.0.2.2"], forward-first = false },
        { name = "x.", forward-addr = "192.0.2.3" },
      ]
      stub-zone = { name = "corp.", stub-addr = "10.0.0.53" }
      include   = "/etc/unbound/extra.conf"
    }
  }
  assert {
    condition     = startswith(config.environment.etc["unbound/unbound.conf"].text, "server:\n  define-tag: a b\n  access-control:")
    error_message = "a define-tag comes first"
  }
  assert {
    condition     = strcontains(config.environment.etc["unbound/unbound.conf"].text, "  cache-min-ttl: 1.5\n") && strcontains(config.environment.etc["unbound/unbound.conf"].text, "  num-threads: 4\n")
    error_message = "numbers as they are"
  }
  assert {
    condition     = endswith(config.environment.etc["unbound/unbound.conf"].text, "forward-zone:\n  forward-addr: 192.0.2.1\n  forward-addr: 192.0.2.2\n  forward-first: no\n  name: .\nforward-zone:\n  forward-addr: 192.0.2.3\n  name: x.\ninclude: /etc/unbound/extra.conf\nremote-control:\n  control-cert-file: /var/lib/unbound/unbound_control.pem\n  control-enable: no\n  control-interface: 127.0.0.1\n  control-interface: ::1\n  control-key-file: /var/lib/unbound/unbound_control.key\n  server-cert-file: /var/lib/unbound/unbound_server.pem\n  server-key-file: /var/lib/unbound/unbound_server.key\nstub-zone:\n  name: corp.\n  stub-addr: 10.0.0.53\n\n")
    error_message = "each section of a list is written, then the other keys in order, remote-control among them"
  }
}

run "checkconf, when set, checks the file with unbound-checkconf" {
  config "services.unbound" {
    enable    = true
    checkconf = true
  }
  assert {
    condition     = length(config.environment.etc["unbound/unbound.conf"].checks) == 1 && config.environment.etc["unbound/unbound.conf"].checks[0].programs == ["/usr/sbin/unbound-checkconf"]
    error_message = "unbound-checkconf checks the file"
  }
}

run "remote control on a local socket" {
  config "services.unbound" {
    enable                 = true
    localControlSocketPath = "/run/unbound/unbound.ctl"
  }
  assert {
    condition     = config.services.unbound.settings.remote-control.control-enable && config.services.unbound.settings.remote-control.control-interface == "/run/unbound/unbound.ctl"
    error_message = "the socket turns remote control on"
  }
  assert {
    condition     = endswith(config.systemd.services.unbound.preStart, "/usr/sbin/unbound-control-setup -d /var/lib/unbound\n")
    error_message = "the control keys are made before start"
  }
}

run "the unit" {
  config "services.unbound" {
    enable = true
    user   = "dns"
    group  = "dns"
  }
  assert {
    condition     = config.systemd.services.unbound.serviceConfig.ExecStart == "/usr/sbin/unbound -p -d -c /etc/unbound/unbound.conf" && config.systemd.services.unbound.serviceConfig.Type == "notify"
    error_message = "unbound runs in the foreground and notifies"
  }
  assert {
    condition     = config.systemd.services.unbound.serviceConfig.User == "dns" && !contains(keys(config.users.users), "unbound")
    error_message = "another user is the host's to declare"
  }
  assert {
    condition     = contains(config.systemd.services.unbound.wantedBy, "nss-lookup.target") && contains(config.systemd.services.unbound.restartTriggers, config.environment.etc["unbound/unbound.conf"].text)
    error_message = "wanted by nss-lookup.target, restarted when its configuration changes"
  }
}

run "resolved keeps resolv.conf" {
  config "services.unbound" {
    enable = true
  }
  config "services.resolved" {
    enable = true
  }
  assert {
    condition     = config.environment.etc["resolv.conf"].source == "/run/systemd/resolve/stub-resolv.conf"
    error_message = "resolv.conf is resolved's"
  }
}

run "a setting of a type NixOS refuses" {
  config "services.unbound" {
    enable   = true
    settings = { server = { interface = [["127.0.0.1"]] } }
  }
  expect_error = "services.unbound.settings"
}

run "extraConfig is gone" {
  config "services.unbound" {
    enable      = true
    extraConfig = "server:\n"
  }
  expect_error = "services.unbound.settings to add any configuration"
}

run "interfaces is renamed" {
  config "services.unbound" {
    enable     = true
    interfaces = ["192.0.2.1"]
  }
  assert {
    condition     = config.services.unbound.settings.server.interface == ["192.0.2.1"]
    error_message = "as NixOS's mkRenamedOptionModule"
  }
}

run "the default CA bundle comes with ca-certificates" {
  config "services.unbound" { enable = true }
  assert {
    condition     = contains(keys(config.environment.packages), "ca-certificates") && strcontains(config.environment.etc["unbound/unbound.conf"].text, "tls-cert-bundle: /etc/ssl/certs/ca-certificates.crt\n")
    error_message = "the package of the bundle unbound reads is installed"
  }
}

run "another CA bundle needs no ca-certificates" {
  config "services.unbound" {
    enable   = true
    settings = { server = { tls-cert-bundle = "/etc/pki/bundle.pem" } }
  }
  assert {
    condition     = !contains(keys(config.environment.packages), "ca-certificates")
    error_message = "ca-certificates is installed for Debian's bundle only"
  }
}
