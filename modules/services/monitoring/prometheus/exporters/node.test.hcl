# Tests of services.prometheus.exporters.node (node.hcl) on the exporter
# framework (../exporters.hcl).

run "the node exporter" {
  config "services.prometheus.exporters.node" {
    enable             = true
    port               = 9101
    listenAddress      = "127.0.0.1"
    enabledCollectors  = ["systemd"]
    disabledCollectors = ["netdev"]
    openFirewall       = true
  }

  assert {
    condition     = config.systemd.services.prometheus-node-exporter.serviceConfig.ExecStart == "/usr/bin/prometheus-node-exporter --collector.systemd --no-collector.netdev --web.listen-address 127.0.0.1:9101"
    error_message = "collectors and the listen address are flags"
  }
  assert {
    condition     = config.systemd.services.prometheus-node-exporter.serviceConfig.RestrictAddressFamilies == ["AF_INET", "AF_INET6", "AF_UNIX"]
    error_message = "the systemd collector needs AF_UNIX; without netdev no AF_NETLINK"
  }
  assert {
    condition     = config.users.users.node-exporter.isSystemUser && config.users.users.node-exporter.group == "node-exporter" && contains(keys(config.users.groups), "node-exporter")
    error_message = "an exporter without a dynamic user gets its own user and group"
  }
  assert {
    condition     = config.networking.firewall.extraInputRules == "tcp dport 9101 accept comment \"node-exporter\""
    error_message = "openFirewall adds the exporter's rule"
  }
  assert {
    condition     = config.systemd.services.prometheus-node-exporter.serviceConfig.ProtectSystem == "strict" && config.systemd.services.prometheus-node-exporter.serviceConfig.Restart == "always"
    error_message = "the framework's hardening applies"
  }
}

run "a disabled exporter defines nothing" {
  assert {
    condition     = !contains(keys(config.systemd.services), "prometheus-node-exporter") && !contains(keys(config.users.users), "node-exporter")
    error_message = "nothing without enable"
  }
}

# Issue 27: each flag is one argument of ExecStart, whatever it holds.
run "flags are single arguments of the command line" {
  config "services.prometheus.exporters.node" {
    enable        = true
    listenAddress = "[::1]"
    extraFlags    = ["--collector.textfile.directory=/var/lib/node exporter", "--web.config.file=%h"]
  }
  assert {
    condition     = config.systemd.services.prometheus-node-exporter.serviceConfig.ExecStart == "/usr/bin/prometheus-node-exporter --web.listen-address [::1]:9100 \"--collector.textfile.directory=/var/lib/node exporter\" --web.config.file=%%h"
    error_message = "a flag with a space or a specifier is quoted, % doubled"
  }
}
