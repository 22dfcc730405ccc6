# The Kubernetes scheduler: a port of the behaviour of nixpkgs'
# nixos/modules/services/cluster/kubernetes/scheduler.nix, for Kubernetes
# 1.37: its configuration (a KubeSchedulerConfiguration, whose kubeconfig
# and leader election it holds) is a file, and it serves only on its
# secure port.

locals {
  top = config.services.kubernetes
  cfg = config.services.kubernetes.scheduler

  configFile = "kubernetes/kube-scheduler-config.json"

  flags = [
    "--authentication-kubeconfig=${local.cfg.kubeconfig.path}",
    "--authorization-kubeconfig=${local.cfg.kubeconfig.path}",
    "--bind-address=${local.cfg.address}",
    "--config=/etc/${local.configFile}",
    length(local.cfg.featureGates) > 0 ? "--feature-gates=${join(",", [for g, on in local.cfg.featureGates : "${g}=${on}"])}" : "",
    "--secure-port=${local.cfg.port}",
    local.cfg.verbosity != null ? "--v=${local.cfg.verbosity}" : "",
    local.cfg.extraOpts,
  ]
}

format "kubeSchedulerConfig" "json" {}

options "services.kubernetes.scheduler" {
  # Also enable, extraOpts, featureGates, kubeconfig, verbosity: see components.hcl.
  option "address" {
    type        = host
    default     = "127.0.0.1"
    description = "Kubernetes scheduler listening address (--bind-address)."
  }
  option "leaderElect" {
    type        = bool
    default     = true
    description = "Whether to start leader election before executing main loop (settings.leaderElection.leaderElect)."
  }
  option "port" {
    type        = port
    default     = 10259
    description = "Kubernetes scheduler secure listening port (--secure-port)."
  }
  option "settings" {
    type        = format.kubeSchedulerConfig
    default     = {}
    example     = { percentageOfNodesToScore = 50 }
    description = <<-EOT
      The scheduler's configuration file (a KubeSchedulerConfiguration,
      written as JSON to /etc/kubernetes/kube-scheduler-config.json and
      passed with --config). Definitions merge key by key; the library's
      values (apiVersion, kind, the kubeconfig, leader election) are at
      mkDefault priority.
    EOT
  }
}

config "services.kubernetes.scheduler.settings" {
  when             = local.cfg.enable
  apiVersion       = mkDefault("kubescheduler.config.k8s.io/v1")
  kind             = mkDefault("KubeSchedulerConfiguration")
  clientConnection = { kubeconfig = mkDefault(local.cfg.kubeconfig.path) }
  leaderElection   = { leaderElect = mkDefault(local.cfg.leaderElect) }
}

config "environment.etc.\"kubernetes/kube-scheduler-config.json\"" {
  when   = local.cfg.enable
  origin = "services.kubernetes.scheduler.settings"
  text   = formatencode(format.kubeSchedulerConfig, local.cfg.settings)
}

config "systemd.services.kube-scheduler" {
  when        = local.cfg.enable
  description = "Kubernetes Scheduler Service"
  wantedBy    = ["kubernetes.target"]
  after       = ["kube-apiserver.service"]
  path        = [local.top.toolsPackage]
  serviceConfig = {
    Slice            = "kubernetes.slice"
    ExecStart        = join(" ", concat(["${local.top.package}/bin/kube-scheduler"], [for f in local.flags : f if f != ""]))
    WorkingDirectory = local.top.dataDir
    User             = "kubernetes"
    Group            = "kubernetes"
    Restart          = "on-failure"
    RestartSec       = 5
  }
}

# The seed's startup ordering (services.kubernetes.onlineTargets).
config "systemd.services.kube-scheduler" {
  when     = local.cfg.enable && local.top.onlineTargets
  wantedBy = ["kube-apiserver-online.target"]
  before   = ["kube-apiserver-online.target"]
}

# A change of the configuration file (the text written above) restarts the scheduler,
# as NixOS's store path of the file in ExecStart does.
config "systemd.services.kube-scheduler" {
  when            = local.cfg.enable
  restartTriggers = [formatencode(format.kubeSchedulerConfig, local.cfg.settings)]
}
