# The Kubernetes proxy: a port of the behaviour of nixpkgs'
# nixos/modules/services/cluster/kubernetes/proxy.nix, for Kubernetes 1.37:
# its configuration is a KubeProxyConfiguration file.

locals {
  top = config.services.kubernetes
  cfg = config.services.kubernetes.proxy

  configFile = "kubernetes/kube-proxy-config.json"

  flags = [
    "--config=/etc/${local.configFile}",
    local.top.kubelet.enable ? "--hostname-override=${local.top.kubelet.hostname}" : "",
    local.cfg.verbosity != null ? "--v=${local.cfg.verbosity}" : "",
    local.cfg.extraOpts,
  ]
}

format "kubeProxyConfig" "json" {}

options "services.kubernetes.proxy" {
  # Also enable, extraOpts, featureGates, kubeconfig, verbosity: see components.hcl.
  option "bindAddress" {
    type        = host
    default     = "0.0.0.0"
    description = "Kubernetes proxy listening address (settings.bindAddress)."
  }
  option "mode" {
    type        = enum(["iptables", "nftables", "ipvs"])
    default     = "iptables"
    description = <<-EOT
      How kube-proxy programs Services (settings.mode): iptables, or
      nftables (Debian's nftables package gives kube-proxy its nft). ipvs
      is accepted with a warning: it is deprecated since Kubernetes 1.35,
      and kubeadm warns of it too.
    EOT
  }
  option "settings" {
    type        = format.kubeProxyConfig
    default     = {}
    example     = { mode = "nftables" }
    description = <<-EOT
      kube-proxy's configuration file (a KubeProxyConfiguration, written
      as JSON to /etc/kubernetes/kube-proxy-config.json and passed with
      --config). Definitions merge key by key; the library's values
      (apiVersion, kind, the kubeconfig, bindAddress, clusterCIDR, feature
      gates, the mode) are at mkDefault priority.
    EOT
  }
}

config "services.kubernetes.proxy.settings" {
  when             = local.cfg.enable
  apiVersion       = mkDefault("kubeproxy.config.k8s.io/v1alpha1")
  kind             = mkDefault("KubeProxyConfiguration")
  clientConnection = { kubeconfig = mkDefault(local.cfg.kubeconfig.path) }
  bindAddress      = mkDefault(local.cfg.bindAddress)
  clusterCIDR      = mkIf(local.top.clusterCidr != null, mkDefault(local.top.clusterCidr))
  featureGates     = mkIf(length(local.cfg.featureGates) > 0, mkDefault(local.cfg.featureGates))
  mode             = mkDefault(local.cfg.mode)
}

config "environment.packages.nftables" {
  when     = local.cfg.enable && local.cfg.mode == "nftables" && local.top.toolsPackage == "/usr"
  provides = ["/usr/sbin/nft"]
}

config {
  when     = local.cfg.enable && local.cfg.mode == "ipvs"
  warnings = ["services.kubernetes.proxy.mode: the ipvs mode is deprecated since Kubernetes 1.35 (as kubeadm warns) and may go in a later release; use nftables (or iptables)."]
}

config "environment.etc.\"kubernetes/kube-proxy-config.json\"" {
  when   = local.cfg.enable
  origin = "services.kubernetes.proxy.settings"
  text   = formatencode(format.kubeProxyConfig, local.cfg.settings)
}

config "systemd.services.kube-proxy" {
  when        = local.cfg.enable
  description = "Kubernetes Proxy Service"
  wantedBy    = ["kubernetes.target"]
  after       = ["kube-apiserver.service"]
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

# The seed's startup ordering (services.kubernetes.onlineTargets).
config "systemd.services.kube-proxy" {
  when   = local.cfg.enable && local.top.onlineTargets
  after  = ["kube-apiserver-online.target"]
  before = ["kubernetes.target"]
}

# A change of the configuration file (the text written above) restarts kube-proxy,
# as NixOS's store path of the file in ExecStart does.
config "systemd.services.kube-proxy" {
  when            = local.cfg.enable
  restartTriggers = [formatencode(format.kubeProxyConfig, local.cfg.settings)]
}
