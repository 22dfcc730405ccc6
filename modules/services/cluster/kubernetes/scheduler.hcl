# The Kubernetes scheduler: a port of the behaviour of nixpkgs'
# nixos/modules/services/cluster/kubernetes/scheduler.nix (early 2019),
# started under kube-apiserver-online.target once the apiserver answers.

locals {
  top = config.services.kubernetes
  cfg = config.services.kubernetes.scheduler

  flags = [
    "--address=${local.cfg.address}",
    length(local.cfg.featureGates) > 0 ? "--feature-gates=${join(",", [for f in local.cfg.featureGates : "${f}=true"])}" : "",
    "--kubeconfig=${local.cfg.kubeconfig.path}",
    "--leader-elect=${local.cfg.leaderElect}",
    "--port=${local.cfg.port}",
    local.cfg.verbosity != null ? "--v=${local.cfg.verbosity}" : "",
    local.cfg.extraOpts,
  ]
}

options "services.kubernetes.scheduler" {
  # Also enable, extraOpts, featureGates, kubeconfig, verbosity: see components.hcl.
  option "address" {
    type        = str
    default     = "127.0.0.1"
    description = "Kubernetes scheduler listening address."
  }
  option "leaderElect" {
    type        = bool
    default     = true
    description = "Whether to start leader election before executing main loop."
  }
  option "port" {
    type        = int
    default     = 10251
    description = "Kubernetes scheduler listening port."
  }
}

config "systemd.services.kube-scheduler" {
  when        = local.cfg.enable
  description = "Kubernetes Scheduler Service"
  wantedBy    = ["kube-apiserver-online.target"]
  after       = ["kube-apiserver.service"]
  before      = ["kube-apiserver-online.target"]
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
