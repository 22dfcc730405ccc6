# The Prometheus exporters' shared framework, ported from NixOS's
# services/monitoring/prometheus/exporters.nix. An exporter joins it in
# exporters/NAME.hcl with a few lines:
#
#   option "services.prometheus.exporters.NAME" {
#     type        = submodule.prometheusExporter
#     default     = {}
#     description = "The prometheus NAME exporter."
#   }
#   config "services.prometheus.exporters.NAME" { port = mkOptionDefault(PORT) }
#   config "systemd.services.prometheus-NAME-exporter" {
#     when          = config.services.prometheus.exporters.NAME.enable
#     serviceConfig = { ExecStart = "..." }
#   }
#
# The framework gives every enabled exporter its user and group, its firewall
# rule, and the rest of its prometheus-NAME-exporter service: NixOS's
# hardening, restart and user settings.
#
# Options of the exporter itself (NixOS's extraOpts) go in a submodule of
# its own, declared for the same option (see exporters/node.hcl). The
# descriptions read name, the exporter's name, as NixOS's mkExporterOpts
# does: "the prometheus node exporter".

submodule "prometheusExporter" {
  option "enable" {
    type        = bool
    default     = false
    description = "Whether to enable the prometheus ${name} exporter."
  }
  option "port" {
    type        = port
    description = "Port to listen on."
  }
  option "listenAddress" {
    type        = str
    default     = "0.0.0.0"
    description = "Address to listen on."
  }
  option "extraFlags" {
    type        = listOf(str)
    default     = []
    description = "Extra commandline options to pass to the ${name} exporter."
  }
  option "openFirewall" {
    type        = bool
    default     = false
    description = "Open port in firewall for incoming connections."
  }
  option "firewallRules" {
    type        = nullOr(lines)
    default     = null
    description = "Specify rules for nftables to add to the input chain when openFirewall is true."
    example     = "iifname \"eth0\" tcp dport 9100 counter accept"
  }
  option "user" {
    type         = str
    default      = "${name}-exporter"
    default_text = "${name}-exporter"
    description  = "User name under which the ${name} exporter shall be run."
  }
  option "group" {
    type         = str
    default      = "${name}-exporter"
    default_text = "${name}-exporter"
    description  = "Group under which the ${name} exporter shall be run."
  }

  config {
    firewallRules = mkIf(config.openFirewall, mkDefault("tcp dport ${config.port} accept comment \"${name}-exporter\""))
  }
}

locals {
  # The enabled exporters, by name.
  exporters = { for n, e in config.services.prometheus.exporters : n => e if e.enable }
  # Those whose service runs without a dynamic user (NixOS:
  # serviceOpts.serviceConfig.DynamicUser or true): they get a user and a
  # group of their own.
  exportersStaticUser = {
    for n, e in local.exporters : n => e
    if config.systemd.services["prometheus-${n}-exporter"].serviceConfig.DynamicUser == false
  }
}

config "users" {
  users = {
    for n, e in local.exportersStaticUser : "${n}-exporter" => {
      description  = "Prometheus ${n} exporter service user"
      isSystemUser = true
      group        = e.group
    } if e.user == "${n}-exporter"
  }
  groups = {
    for n, e in local.exportersStaticUser : "${n}-exporter" => {} if e.group == "${n}-exporter"
  }
}

config "networking.firewall" {
  extraInputRules = join("\n", [for n, e in local.exporters : e.firewallRules if e.openFirewall])
}

config "systemd" {
  services = {
    for n, e in local.exporters : "prometheus-${n}-exporter" => {
      wantedBy = ["multi-user.target"]
      after    = ["network.target"]
      serviceConfig = {
        Restart          = mkDefault("always")
        PrivateTmp       = mkDefault(true)
        WorkingDirectory = mkDefault("/tmp")
        DynamicUser      = mkDefault(true)
        User             = mkDefault(e.user)
        Group            = e.group
        # Hardening
        CapabilityBoundingSet   = mkDefault([""])
        DeviceAllow             = [""]
        LockPersonality         = true
        MemoryDenyWriteExecute  = true
        NoNewPrivileges         = true
        PrivateDevices          = mkDefault(true)
        ProtectClock            = mkDefault(true)
        ProtectControlGroups    = true
        ProtectHome             = true
        ProtectHostname         = true
        ProtectKernelLogs       = true
        ProtectKernelModules    = true
        ProtectKernelTunables   = true
        ProtectSystem           = mkDefault("strict")
        RemoveIPC               = true
        RestrictAddressFamilies = ["AF_INET", "AF_INET6"]
        RestrictNamespaces      = true
        RestrictRealtime        = true
        RestrictSUIDSGID        = true
        SystemCallArchitectures = "native"
        UMask                   = "0077"
      }
    }
  }
}
