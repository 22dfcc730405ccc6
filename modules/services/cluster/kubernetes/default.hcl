# services.kubernetes: what every Kubernetes component shares, the roles,
# and the kubernetes.target the components start under.
#
# A port of the behaviour of nixpkgs' nixos/modules/services/cluster/
# kubernetes/default.nix as of early 2019 (after "nixos/kubernetes:
# Stabilize services startup across machines"). Packages are paths on the
# host; see README.md in this directory for the defaults.

locals {
  cfg        = config.services.kubernetes
  anyEnabled = config.services.kubernetes.anyComponent
  etcdEndpoints = (local.cfg.controlPlane.enable
    ? [for m in local.cfg.controlPlane.members : "https://${strcontains(m.address, ":") ? "[${m.address}]" : m.address}:2379"]
  : ["https://${local.cfg.masterAddress}:2379"])
}

options "services.kubernetes" {
  option "roles" {
    type        = listOf(enum(["master", "node"]))
    default     = []
    description = <<-EOT
      Kubernetes role that this machine should take.

      Master role will enable etcd, apiserver, scheduler, controller manager,
      addon manager, flannel and proxy services.
      Node role will enable flannel, containerd, kubelet and proxy services.
    EOT
  }
  option "package" {
    type        = package
    default     = "/opt/kubernetes"
    description = <<-EOT
      Kubernetes package to use: a directory with bin/kubelet,
      bin/kube-apiserver, bin/kube-controller-manager, bin/kube-scheduler,
      bin/kube-proxy, bin/kube-addons, bin/kubectl, and images/pause.tar
      (the infra container image, loaded as pause:latest).
    EOT
  }
  option "toolsPackage" {
    type        = package
    default     = "/usr"
    description = <<-EOT
      Where the host tools the services call live (bin and sbin): curl,
      iptables, socat, ethtool, git, ssh, gawk, grep, ... NixOS takes each
      from nixpkgs; a nodegen host has them in one prefix.
    EOT
  }
  option "kubeconfig" {
    type        = submodule.kubernetesKubeconfigDefaults
    default     = {}
    description = "Default kubeconfig: each component's kubeconfig takes its server, CA, certificate and key from here unless set."
  }
  option "apiserverAddress" {
    type         = str
    default_text = "https://masterAddress:apiserver.securePort, when a component is enabled"
    example      = "https://kubernetes-apiserver.example.com:6443"
    description  = <<-EOT
      Clusterwide accessible address for the kubernetes apiserver,
      including protocol and optional port.
    EOT
  }
  option "caFile" {
    type        = nullOr(path)
    default     = null
    description = "Default kubernetes certificate authority"
  }
  option "dataDir" {
    type        = path
    default     = "/var/lib/kubernetes"
    description = "Kubernetes root directory for managing kubelet files."
  }
  option "easyCerts" {
    type        = bool
    default     = false
    description = "Automatically setup x509 certificates and keys for the entire cluster."
  }
  option "featureGates" {
    type        = attrsOf(bool)
    default     = {}
    example     = { InPlacePodVerticalScaling = true }
    description = "The feature gates of every component: each gate on or off (a map, as NixOS has it since nixpkgs#327842)."
  }
  option "onlineTargets" {
    type        = bool
    default     = false
    description = <<-EOT
      Whether to order the cluster's start as the 2019 seed did ("nixos/kubernetes:
      Stabilize services startup across machines"): kube-apiserver-online.target,
      kubelet.target, node-online.target, flannel.target and cfssl-online.target,
      reached by curl wait loops in the components' preStart. NixOS reverted them
      in Aug 2019 (nixpkgs#67563) in favour of restart policies, and so does the
      library by default: every component restarts until what it needs answers.
    EOT
  }
  option "masterAddress" {
    type        = host
    example     = "master.example.com"
    description = "Clusterwide available network address or hostname for the kubernetes master server."
  }
  option "path" {
    type        = listOf(package)
    default     = []
    description = "Packages added to the services' PATH environment variable. Both the bin and sbin subdirectories of each package are added."
  }
  option "clusterCidr" {
    type        = nullOr(word)
    default     = "10.1.0.0/16"
    description = "Kubernetes controller manager and proxy CIDR Range for Pods in cluster."
  }
  option "anyComponent" {
    type      = bool
    read_only = true
    internal  = true
    default = (
      config.services.kubernetes.apiserver.enable || config.services.kubernetes.scheduler.enable ||
      config.services.kubernetes.controllerManager.enable || config.services.kubernetes.kubelet.enable ||
      config.services.kubernetes.proxy.enable || config.services.kubernetes.addonManager.enable
    )
    description = "Whether a Kubernetes component is enabled on this host: the shared units and files exist only then."
  }
  option "secretsPath" {
    type         = path
    default      = "${config.services.kubernetes.dataDir}/secrets"
    default_text = "dataDir + \"/secrets\""
    description  = "Default location for kubernetes secrets. Not a store location."
  }
}

# The defaults of every component's kubeconfig.
submodule "kubernetesKubeconfigDefaults" {
  option "server" {
    type         = str
    default_text = "services.kubernetes.apiserverAddress, when a component is enabled"
    description  = "Default kubeconfig kube-apiserver server address."
  }
  option "caFile" {
    type         = nullOr(path)
    default      = root.services.kubernetes.caFile
    default_text = "services.kubernetes.caFile"
    description  = "Default kubeconfig certificate authority file used to connect to kube-apiserver."
  }
  option "certFile" {
    type        = nullOr(path)
    default     = null
    description = "Default kubeconfig client certificate file used to connect to kube-apiserver."
  }
  option "keyFile" {
    type        = nullOr(path)
    default     = null
    description = "Default kubeconfig client key file used to connect to kube-apiserver."
  }
}

# easyCerts: the pki module issues every certificate, under one CA.
config "services.kubernetes" {
  when   = local.cfg.easyCerts
  pki    = { enable = mkDefault(true) }
  caFile = "${local.cfg.secretsPath}/ca.pem"
}

# Roles.
config "services.kubernetes" {
  when              = contains(local.cfg.roles, "master")
  apiserver         = { enable = mkDefault(true) }
  scheduler         = { enable = mkDefault(true) }
  controllerManager = { enable = mkDefault(true) }
  addonManager      = { enable = mkDefault(true) }
  proxy             = { enable = mkDefault(true) }
  kubelet = {
    enable = mkDefault(true)
    taints = mkIf(!contains(local.cfg.roles, "node"), {
      master = {
        key    = "node-role.kubernetes.io/control-plane"
        value  = "true"
        effect = "NoSchedule"
      }
    })
  }
}

config "services.etcd" {
  # Not mkDefault in NixOS either: flannel's defaults would turn it off.
  when   = contains(local.cfg.roles, "master")
  enable = true
}

# A master-only host is unschedulable by default. (NixOS tests
# all (el: el == "master") roles, which is also true for no roles at all;
# nodegen asks for at least one role.)
config "services.kubernetes.kubelet" {
  when          = length(local.cfg.roles) > 0 && alltrue([for r in local.cfg.roles : r == "master"])
  unschedulable = mkDefault(true)
}

config "services.kubernetes" {
  when    = contains(local.cfg.roles, "node")
  kubelet = { enable = mkDefault(true) }
  proxy   = { enable = mkDefault(true) }
}

# Using roles enables easyCerts and flannel.
config "services.kubernetes" {
  when      = length(local.cfg.roles) > 0
  flannel   = { enable = mkDefault(true) }
  easyCerts = mkDefault(true)
}

config "services.flannel.etcd" {
  when      = length(local.cfg.roles) > 0
  endpoints = mkDefault(local.etcdEndpoints)
}

config "services.kubernetes" {
  when = local.cfg.apiserver.enable
  pki = {
    etcClusterAdminKubeconfig = mkDefault("kubernetes/cluster-admin.kubeconfig")
  }
  apiserver = {
    etcd = { servers = mkDefault(local.etcdEndpoints) }
  }
}

# containerd is the kubelet's container runtime (nixpkgs#114737); docker
# only where a host enables it itself.
# From Debian's packages (containerd 1.6.20 on Debian 12).
config "services.containerd" {
  when     = local.cfg.kubelet.enable && !local.cfg.kubelet.wrapper.enable
  enable   = mkDefault(true)
  version  = mkDefault("1.6.20")
  binaries = { fromPackages = mkDefault(true) }
}

# (A highly available control plane shares one key instead: control-plane.hcl.)
config "services.kubernetes.pki.certs" {
  when = (local.cfg.apiserver.enable || local.cfg.controllerManager.enable) && !local.cfg.controlPlane.enable
  serviceAccount = {
    name = "service-account"
    CN   = "system:service-account-signer"
    # (Neither has a reload; --no-block: the action runs inside
    # kube-certs.service, which a unit's start may wait for.)
    action = "systemctl --no-block restart ${join(" ", compact([local.cfg.apiserver.enable ? "kube-apiserver.service" : "", local.cfg.controllerManager.enable ? "kube-controller-manager.service" : ""]))}"
  }
}

# What a host with any component has: kubernetes.target, the directories,
# the kubernetes user, and the apiserver address every component talks to.
config "systemd.targets.kubernetes" {
  when        = local.anyEnabled
  description = "Kubernetes"
  wantedBy    = ["multi-user.target"]
}

# kube-apiserver-online.target is reached once the apiserver answers, on
# this host or across the network: it synchronises the start of the
# components of every machine of the cluster.
config "systemd.targets.kube-apiserver-online" {
  when     = local.anyEnabled && local.cfg.onlineTargets
  wantedBy = ["kubernetes.target"]
  before   = ["kubernetes.target"]
}

config "systemd.services.kube-apiserver-online" {
  when        = local.anyEnabled && local.cfg.onlineTargets
  description = "Wait for the Kubernetes apiserver to be reachable"
  wantedBy    = ["kube-apiserver-online.target"]
  after       = ["kube-apiserver.service"]
  before      = ["kube-apiserver-online.target"]
  path        = [local.cfg.toolsPackage]
  script      = "echo apiserver is online"
  serviceConfig = {
    Slice      = "kubernetes.slice"
    TimeoutSec = "500"
  }
}

config "systemd.services.kube-apiserver-online" {
  when     = local.anyEnabled && local.cfg.onlineTargets
  preStart = local.cfg.lib.waitCurl.apiserver-online.script
}

config "services.kubernetes.lib.waitCurl.apiserver-online" {
  when   = local.anyEnabled && local.cfg.onlineTargets
  path   = "/healthz"
  cacert = local.cfg.caFile
}

config "environment.etc.\"tmpfiles.d/kubernetes.conf\"" {
  when   = local.anyEnabled
  origin = "services.kubernetes"
  text   = <<-EOT
    d /opt/cni/bin 0755 root root -
    d /run/kubernetes 0755 kubernetes kubernetes -
    d ${local.cfg.dataDir} 0755 kubernetes kubernetes -
  EOT
}

config "environment.etc.\"sysusers.d/kubernetes.conf\"" {
  when   = local.anyEnabled
  origin = "services.kubernetes"
  text = join("", [
    "u kubernetes - \"Kubernetes user\" ${local.cfg.dataDir}\n",
    config.virtualisation.docker.enable ? "m kubernetes docker\n" : "",
  ])
}

config "services.kubernetes" {
  when       = local.anyEnabled
  kubeconfig = { server = mkDefault(local.cfg.apiserverAddress) }
  # dns addon is enabled by default
  addons = { dns = { enable = mkDefault(true) } }
  # (NixOS leaves the port out with an advertiseAddress.)
  apiserverAddress = mkDefault(
    local.cfg.apiserver.advertiseAddress != null
    ? "https://${local.cfg.apiserver.advertiseAddress}:${local.cfg.apiserver.securePort}"
    : "https://${local.cfg.masterAddress}:${local.cfg.apiserver.securePort}"
  )
}

# A node's own address inside the Service range or the pod range is taken
# for a Service's cluster IP or a pod's: traffic to the node goes astray.
# (Easy to do: the Service range defaults to 10.0.0.0/24, where many
# private networks put their hosts.)
locals {
  ipv4Pattern = "^[0-9]{1,3}([.][0-9]{1,3}){3}$"
  # The node's addresses that are IP addresses, by the option that sets them.
  nodeAddresses = {
    for o, a in {
      "services.kubernetes.kubelet.nodeIp"             = local.cfg.kubelet.enable ? local.cfg.kubelet.nodeIp : null
      "services.kubernetes.masterAddress"              = options.services.kubernetes.masterAddress.isDefined ? local.cfg.masterAddress : null
      "services.kubernetes.apiserver.advertiseAddress" = local.cfg.apiserver.enable ? local.cfg.apiserver.advertiseAddress : null
    } : o => a if a != null && (length(regexall(local.ipv4Pattern, a)) > 0 || strcontains(a, ":"))
  }
  # The ranges, each CIDR of a dual-stack list on its own.
  clusterRanges = concat(
    [for r in split(",", local.cfg.apiserver.serviceClusterIpRange) : { cidr = trimspace(r), what = "the Service range", option = "services.kubernetes.apiserver.serviceClusterIpRange" }],
    local.cfg.clusterCidr == null ? [] : [for r in split(",", local.cfg.clusterCidr) : { cidr = trimspace(r), what = "the pod range", option = "services.kubernetes.clusterCidr" }],
  )
}

config {
  when = local.anyEnabled
  warnings = flatten([
    for o, a in local.nodeAddresses : [
      for r in local.clusterRanges : "${o}: the node address ${a} lies in ${r.what} ${r.cidr} (${r.option}), whose addresses the cluster gives to ${r.what == "the pod range" ? "pods" : "Services"}: traffic for the node would go to them. Choose node addresses outside the Service and pod ranges, or move the ranges."
      if strcontains(r.cidr, ":") == strcontains(a, ":") && cidrcontains(r.cidr, a)
    ]
  ])
}
