# The Kubernetes addon manager: a port of the behaviour of nixpkgs'
# nixos/modules/services/cluster/kubernetes/addon-manager.nix (early 2019).
# It keeps the addons in /etc/kubernetes/addons applied; the bootstrap
# addons, applied once with cluster-admin rights, are applied before it
# starts by the pki module (which has the cluster-admin certificate).

locals {
  top = config.services.kubernetes
  cfg = config.services.kubernetes.addonManager

  isRBACEnabled = contains(local.top.apiserver.authorizationMode, "RBAC")
  rbacName      = "system:kube-addon-manager"
}

options "services.kubernetes.addonManager" {
  # Also enable, kubeconfig: see components.hcl.
  option "bootstrapAddons" {
    type    = attrsOf(attrs)
    default = {}
    example = {
      my-service = {
        apiVersion = "v1"
        kind       = "Service"
        metadata   = { name = "my-service", namespace = "default" }
        spec       = {}
      }
    }
    description = <<-EOT
      Bootstrap addons are like regular addons, but they are applied with cluster-admin rigths.
      They are applied at addon-manager startup only.
    EOT
  }
  option "addons" {
    type    = attrsOf(either(attrs, listOf(attrs)))
    default = {}
    example = {
      my-service = {
        apiVersion = "v1"
        kind       = "Service"
        metadata   = { name = "my-service", namespace = "default" }
        spec       = {}
      }
    }
    description = "Kubernetes addons (any kind of Kubernetes resource can be an addon)."
  }
}

# Each addon is a file of the addon manager's directory; a list of
# resources is written as a v1 List (NixOS writes the bare JSON array).
config "environment" {
  when = local.cfg.enable
  etc = merge(
    {
      for n, a in local.cfg.addons : "kubernetes/addons/${n}.json" => {
        text   = can(keys(a)) ? jsonencode(a) : jsonencode({ apiVersion = "v1", kind = "List", items = a })
        origin = "services.kubernetes.addonManager.addons.${n}"
      }
    },
    {
      for n, a in local.cfg.bootstrapAddons : "kubernetes/bootstrap-addons/${n}.json" => {
        text   = jsonencode(a)
        origin = "services.kubernetes.addonManager.bootstrapAddons.${n}"
      }
    },
  )
}

config "systemd.services.kube-addon-manager" {
  when        = local.cfg.enable
  description = "Kubernetes addon manager"
  wantedBy    = ["kubernetes.target"]
  after       = concat(["kube-apiserver.service"], local.top.onlineTargets ? ["kube-apiserver-online.target", "node-online.target"] : [])
  before      = ["kubernetes.target"]
  environment = {
    ADDON_PATH = "/etc/kubernetes/addons/"
    KUBECONFIG = local.cfg.kubeconfig.path
    # kube-addons looks for /usr/local/bin/kubectl unless told
    KUBECTL_BIN = "${local.top.package}/bin/kubectl"
  }
  # gawk; kubectl
  path = [local.top.toolsPackage, local.top.package]
  serviceConfig = {
    Slice     = "kubernetes.slice"
    ExecStart = "${local.top.package}/bin/kube-addons"
    # kube-addons (the release's kube-addons-main.sh) sources
    # kube-addons.sh from its working directory.
    WorkingDirectory = "${local.top.package}/bin"
    User             = "kubernetes"
    Group            = "kubernetes"
    Restart          = "on-failure"
    RestartSec       = 10
  }
}

config "services.kubernetes.addonManager.bootstrapAddons" {
  when = local.cfg.enable && local.isRBACEnabled
  kube-addon-manager-r = {
    apiVersion = "rbac.authorization.k8s.io/v1"
    kind       = "Role"
    metadata   = { name = local.rbacName, namespace = "kube-system" }
    rules = [{
      apiGroups = ["*"]
      resources = ["*"]
      verbs     = ["*"]
    }]
  }
  kube-addon-manager-rb = {
    apiVersion = "rbac.authorization.k8s.io/v1"
    kind       = "RoleBinding"
    metadata   = { name = local.rbacName, namespace = "kube-system" }
    roleRef = {
      apiGroup = "rbac.authorization.k8s.io"
      kind     = "Role"
      name     = local.rbacName
    }
    subjects = [{
      apiGroup = "rbac.authorization.k8s.io"
      kind     = "User"
      name     = local.rbacName
    }]
  }
  kube-addon-manager-cluster-lister-cr = {
    apiVersion = "rbac.authorization.k8s.io/v1"
    kind       = "ClusterRole"
    metadata   = { name = "${local.rbacName}:cluster-lister" }
    rules = [{
      apiGroups = ["*"]
      resources = ["*"]
      verbs     = ["list"]
    }]
  }
  kube-addon-manager-cluster-lister-crb = {
    apiVersion = "rbac.authorization.k8s.io/v1"
    kind       = "ClusterRoleBinding"
    metadata   = { name = "${local.rbacName}:cluster-lister" }
    roleRef = {
      apiGroup = "rbac.authorization.k8s.io"
      kind     = "ClusterRole"
      name     = "${local.rbacName}:cluster-lister"
    }
    subjects = [{
      kind = "User"
      name = local.rbacName
    }]
  }
}
