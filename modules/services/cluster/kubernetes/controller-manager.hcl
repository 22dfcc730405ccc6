# The Kubernetes controller manager: a port of the behaviour of nixpkgs'
# nixos/modules/services/cluster/kubernetes/controller-manager.nix (early
# 2019), started under kube-apiserver-online.target once the apiserver
# answers.

locals {
  top = config.services.kubernetes
  cfg = config.services.kubernetes.controllerManager

  controllerManagerPaths = distinct([for p in [
    local.cfg.kubeconfig.caFile,
    local.cfg.kubeconfig.certFile,
    local.cfg.kubeconfig.keyFile,
    local.cfg.rootCaFile,
    local.cfg.serviceAccountKeyFile,
    local.cfg.tlsCertFile,
    local.cfg.tlsKeyFile,
  ] : p if p != null])

  flags = [
    "--allocate-node-cidrs=${local.cfg.allocateNodeCIDRs}",
    "--authentication-kubeconfig=${local.cfg.kubeconfig.path}",
    "--authorization-kubeconfig=${local.cfg.kubeconfig.path}",
    "--bind-address=${local.cfg.bindAddress}",
    local.cfg.clusterCidr != null ? "--cluster-cidr=${local.cfg.clusterCidr}" : "",
    length(local.cfg.featureGates) > 0 ? "--feature-gates=${join(",", [for g, on in local.cfg.featureGates : "${g}=${on}"])}" : "",
    "--kubeconfig=${local.cfg.kubeconfig.path}",
    "--leader-elect=${local.cfg.leaderElect}",
    local.cfg.rootCaFile != null ? "--root-ca-file=${local.cfg.rootCaFile}" : "",
    "--secure-port=${local.cfg.securePort}",
    local.cfg.serviceAccountKeyFile != null ? "--service-account-private-key-file=${local.cfg.serviceAccountKeyFile}" : "",
    "--service-cluster-ip-range=${local.top.apiserver.serviceClusterIpRange}",
    local.cfg.tlsCertFile != null ? "--tls-cert-file=${local.cfg.tlsCertFile}" : "",
    local.cfg.tlsKeyFile != null ? "--tls-private-key-file=${local.cfg.tlsKeyFile}" : "",
    contains(local.top.apiserver.authorizationMode, "RBAC") ? "--use-service-account-credentials" : "",
    local.cfg.verbosity != null ? "--v=${local.cfg.verbosity}" : "",
    local.cfg.extraOpts,
  ]
}

options "services.kubernetes.controllerManager" {
  # Also enable, extraOpts, featureGates, kubeconfig, verbosity: see components.hcl.
  option "allocateNodeCIDRs" {
    type        = bool
    default     = true
    description = "Whether to automatically allocate CIDR ranges for cluster nodes."
  }
  option "bindAddress" {
    type        = host
    default     = "127.0.0.1"
    description = "Kubernetes controller manager listening address."
  }
  option "clusterCidr" {
    type         = nullOr(word)
    default      = root.services.kubernetes.clusterCidr
    default_text = "services.kubernetes.clusterCidr"
    description  = "Kubernetes CIDR Range for Pods in cluster."
  }
  option "leaderElect" {
    type        = bool
    default     = true
    description = "Whether to start leader election before executing main loop."
  }
  option "rootCaFile" {
    type         = nullOr(path)
    default      = root.services.kubernetes.caFile
    default_text = "services.kubernetes.caFile"
    description  = <<-EOT
      Kubernetes controller manager certificate authority file included in
      service account's token secret.
    EOT
  }
  option "securePort" {
    type        = int
    default     = 10257
    description = "Kubernetes controller manager secure listening port."
  }
  option "serviceAccountKeyFile" {
    type        = nullOr(path)
    default     = null
    description = <<-EOT
      Kubernetes controller manager PEM-encoded private RSA key file used to
      sign service account tokens
    EOT
  }
  option "tlsCertFile" {
    type        = nullOr(path)
    default     = null
    description = "Kubernetes controller-manager certificate file."
  }
  option "tlsKeyFile" {
    type        = nullOr(path)
    default     = null
    description = "Kubernetes controller-manager private key file."
  }
}

config "systemd.services.kube-controller-manager" {
  when        = local.cfg.enable
  description = "Kubernetes Controller Manager Service"
  wantedBy    = ["kubernetes.target"]
  after       = ["kube-apiserver.service"]
  path        = distinct(concat([local.top.toolsPackage], local.top.path))
  serviceConfig = {
    # (NixOS waits 30 s; the library's components start together and
    # restart until the apiserver answers, so a short wait.)
    RestartSec       = 5
    Restart          = "on-failure"
    Slice            = "kubernetes.slice"
    ExecStart        = join(" ", concat(["${local.top.package}/bin/kube-controller-manager"], [for f in local.flags : f if f != ""]))
    WorkingDirectory = local.top.dataDir
    User             = "kubernetes"
    Group            = "kubernetes"
  }
}

config "services.kubernetes.lib.waitFiles" {
  when                    = local.cfg.enable
  kube-controller-manager = local.controllerManagerPaths
}

config "services.kubernetes.pki.certs" {
  when = local.cfg.enable
  controllerManager = {
    name   = "kube-controller-manager"
    CN     = "kube-controller-manager"
    action = "systemctl --no-block restart kube-controller-manager.service"
  }
}

# The seed's startup ordering (services.kubernetes.onlineTargets).
config "systemd.services.kube-controller-manager" {
  when     = local.cfg.enable && local.top.onlineTargets
  wantedBy = ["kube-apiserver-online.target"]
  before   = ["kube-apiserver-online.target"]
}

removed_option "services.kubernetes.controllerManager.insecurePort" {
  message = "The controller manager's insecure port (--port) was removed in Kubernetes 1.24: it serves only on securePort."
}
