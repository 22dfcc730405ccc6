# The Kubernetes proxy: a port of the behaviour of nixpkgs'
# nixos/modules/services/cluster/kubernetes/proxy.nix (early 2019), started
# under kubernetes.target once the apiserver knows this node.

locals {
  top = config.services.kubernetes
  cfg = config.services.kubernetes.proxy

  flags = [
    "--bind-address=${local.cfg.bindAddress}",
    local.top.clusterCidr != null ? "--cluster-cidr=${local.top.clusterCidr}" : "",
    length(local.cfg.featureGates) > 0 ? "--feature-gates=${join(",", [for f in local.cfg.featureGates : "${f}=true"])}" : "",
    "--kubeconfig=${local.cfg.kubeconfig.path}",
    local.cfg.verbosity != null ? "--v=${local.cfg.verbosity}" : "",
    local.cfg.extraOpts,
  ]
}

options "services.kubernetes.proxy" {
  # Also enable, extraOpts, featureGates, kubeconfig, verbosity: see components.hcl.
  option "bindAddress" {
    type        = str
    default     = "0.0.0.0"
    description = "Kubernetes proxy listening address."
  }
}

config "systemd.services.kube-proxy" {
  when        = local.cfg.enable
  description = "Kubernetes Proxy Service"
  wantedBy    = ["kubernetes.target"]
  after       = ["kube-apiserver-online.target"]
  before      = ["kubernetes.target"]
  # iptables, conntrack
  path = distinct(concat([local.top.toolsPackage], local.top.path))
  serviceConfig = {
    Slice            = "kubernetes.slice"
    ExecStart        = join(" ", concat(["${local.top.package}/bin/kube-proxy"], [for f in local.flags : f if f != ""]))
    WorkingDirectory = local.top.dataDir
    Restart          = "on-failure"
    RestartSec       = 5
  }
}
