# The Prometheus node exporter, ported from NixOS's
# services/monitoring/prometheus/exporters/node.nix to Debian's
# prometheus-node-exporter (/usr/bin/prometheus-node-exporter), on the
# exporter framework (../exporters.hcl).

locals {
  nodeExporter = config.services.prometheus.exporters.node
}

# The exporter's own options (NixOS's extraOpts).
submodule "prometheusNodeExporter" {
  option "enabledCollectors" {
    type        = listOf(str)
    default     = []
    description = "Collectors to enable. The collectors listed here are enabled in addition to the default ones."
    example     = ["systemd"]
  }
  option "disabledCollectors" {
    type        = listOf(str)
    default     = []
    description = "Collectors to disable which are enabled by default."
    example     = ["timex"]
  }
}

option "services.prometheus.exporters.node" {
  type        = submodule.prometheusExporter
  default     = {}
  description = "The prometheus node exporter."
}
option "services.prometheus.exporters.node" { type = submodule.prometheusNodeExporter }

config "services.prometheus.exporters.node" {
  port = mkOptionDefault(9100)
}

config "systemd.services.prometheus-node-exporter" {
  when = local.nodeExporter.enable
  serviceConfig = {
    DynamicUser      = false
    RuntimeDirectory = "prometheus-node-exporter"
    # Each argument is one word of the command line (systemdexecarg).
    ExecStart = join(" ", [for a in concat(
      ["/usr/bin/prometheus-node-exporter"],
      [for c in local.nodeExporter.enabledCollectors : "--collector.${c}"],
      [for c in local.nodeExporter.disabledCollectors : "--no-collector.${c}"],
      ["--web.listen-address", "${local.nodeExporter.listenAddress}:${local.nodeExporter.port}"],
      local.nodeExporter.extraFlags,
    ) : systemdexecarg(a)])
    RestrictAddressFamilies = concat(
      # needs access to dbus via unix sockets (logind/systemd)
      anytrue([for c in ["logind", "systemd"] : contains(local.nodeExporter.enabledCollectors, c)]) ? ["AF_UNIX"] : [],
      # needs netlink sockets for wireless collector
      anytrue([for c in ["network_route", "wifi"] : contains(local.nodeExporter.enabledCollectors, c)]) || !contains(local.nodeExporter.disabledCollectors, "netdev") ? ["AF_NETLINK"] : [],
    )
    # The timex collector needs to access clock APIs
    ProtectClock = contains(local.nodeExporter.disabledCollectors, "timex")
    # Allow space monitoring under /home
    ProtectHome = true
  }
}

# What NixOS takes from pkgs.prometheus-node-exporter: Debian's package,
# installed by nodegen switch.
config "environment.packages.prometheus-node-exporter" {
  when = local.nodeExporter.enable
}
