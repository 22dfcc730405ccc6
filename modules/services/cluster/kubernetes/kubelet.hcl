# The Kubernetes kubelet: a port of the behaviour of nixpkgs'
# nixos/modules/services/cluster/kubernetes/kubelet.nix (2019-03-03,
# "Stabilize services startup across machines"), with the options nodegen
# adds for other ways to run the kubelet (containerRuntimeEndpoint,
# nodeLabels, podManifestPath, the lock file and anonymous-auth flags, and
# the CoreOS kubelet-wrapper in kubelet-wrapper.hcl).

locals {
  top = config.services.kubernetes
  cfg = config.services.kubernetes.kubelet

  manifestPath = "kubernetes/manifests"

  # --cni-conf-dir: the verbatim CNI configs are written to /etc/cni/net.d,
  # numbered 11, 12, ... as NixOS numbers them (10 + i, i from 1).
  cniConfigDir = "cni/net.d"
  cniConfig    = local.cfg.cni.configDir != null ? local.cfg.cni.configDir : "/etc/${local.cniConfigDir}"

  taints = join(",", [for n, t in local.cfg.taints : "${t.key}=${t.value}:${t.effect}"])

  # The files the kubelet needs before it can start. (The seed lists the
  # three unfiltered; a null would render an empty ConditionPathExists=,
  # which resets the list, so nodegen leaves nulls out.)
  kubeletPaths = distinct([for p in [local.cfg.clientCaFile, local.cfg.tlsCertFile, local.cfg.tlsKeyFile] : p if p != null])

  podManifestPath = (
    local.cfg.podManifestPath != null ? local.cfg.podManifestPath :
    length(local.cfg.manifests) > 0 ? "/etc/${local.manifestPath}" : null
  )

  flags = [
    "--address=${local.cfg.address}",
    "--allow-privileged=${local.cfg.allowPrivileged}",
    local.cfg.anonymousAuth != null ? "--anonymous-auth=${local.cfg.anonymousAuth}" : "",
    "--authentication-token-webhook",
    "--authentication-token-webhook-cache-ttl=\"10s\"",
    "--authorization-mode=Webhook",
    local.cfg.clientCaFile != null ? "--client-ca-file=${local.cfg.clientCaFile}" : "",
    local.cfg.clusterDns != "" ? "--cluster-dns=${local.cfg.clusterDns}" : "",
    local.cfg.clusterDomain != "" ? "--cluster-domain=${local.cfg.clusterDomain}" : "",
    "--cni-conf-dir=${local.cniConfig}",
    local.cfg.containerRuntimeEndpoint != null ? "--container-runtime-endpoint=${local.cfg.containerRuntimeEndpoint}" : "",
    local.cfg.exitOnLockContention ? "--exit-on-lock-contention" : "",
    length(local.cfg.featureGates) > 0 ? "--feature-gates=${join(",", [for f in local.cfg.featureGates : "${f}=true"])}" : "",
    "--hairpin-mode=hairpin-veth",
    "--healthz-bind-address=${local.cfg.healthz.bind}",
    "--healthz-port=${local.cfg.healthz.port}",
    "--hostname-override=${local.cfg.hostname}",
    "--kubeconfig=${local.cfg.kubeconfig.path}",
    local.cfg.lockFile != null ? "--lock-file=${local.cfg.lockFile}" : "",
    local.cfg.networkPlugin != null ? "--network-plugin=${local.cfg.networkPlugin}" : "",
    local.cfg.nodeIp != null ? "--node-ip=${local.cfg.nodeIp}" : "",
    length(local.cfg.nodeLabels) > 0 ? "--node-labels=${join(",", [for k, v in local.cfg.nodeLabels : v == "" ? k : "${k}=${v}"])}" : "",
    local.cfg.podInfraContainerImage != null ? "--pod-infra-container-image=${local.cfg.podInfraContainerImage}" : "",
    local.podManifestPath != null ? "--pod-manifest-path=${local.podManifestPath}" : "",
    "--port=${local.cfg.port}",
    "--register-node=${local.cfg.registerNode}",
    local.taints != "" ? "--register-with-taints=${local.taints}" : "",
    local.cfg.requireKubeconfig ? "--require-kubeconfig" : "",
    "--root-dir=${local.top.dataDir}",
    local.cfg.tlsCertFile != null ? "--tls-cert-file=${local.cfg.tlsCertFile}" : "",
    local.cfg.tlsKeyFile != null ? "--tls-private-key-file=${local.cfg.tlsKeyFile}" : "",
    local.cfg.verbosity != null ? "--v=${local.cfg.verbosity}" : "",
    local.cfg.extraOpts,
  ]
  commandLine = join(" ", [for f in local.flags : f if f != ""])

  # node-online's waits for flannel's network: with docker, until flannel
  # has restarted docker on it; else until flannel wrote its subnet.
  waitDocker = <<-EOT
    while ! test -f /run/flannel/docker ; do sleep 1 ; done
    while test `stat --print=%Y /run/flannel/docker` -gt `date +%s --date="$(systemctl show --property=ActiveEnterTimestamp --value docker)"` ; do
      sleep 1
    done
  EOT
  waitSubnet = "while ! test -f /run/flannel/subnet.env ; do sleep 1 ; done\n"

  preStart = join("", concat(
    flatten([for img in local.cfg.seedDockerImages : local.cfg.seedImagesWith == "containerd" ? [
      "echo \"Seeding containerd image: ${img}\"\n",
      "ctr --namespace k8s.io images import ${img}\n",
    ] : [
      "echo \"Seeding docker image: ${img}\"\n",
      "docker load <${img}\n",
    ]]),
    ["rm /opt/cni/bin/* || true\n"],
    flatten([for p in local.cfg.cni.packages : [
      "echo \"Linking cni package: ${p}\"\n",
      "ln -fs ${p}/bin/* /opt/cni/bin\n",
    ]]),
  ))
}

options "services.kubernetes.kubelet" {
  # Also enable, extraOpts, featureGates, kubeconfig, verbosity: see components.hcl.
  option "address" {
    type        = str
    default     = "0.0.0.0"
    description = "Kubernetes kubelet info server listening address."
  }
  option "allowPrivileged" {
    type        = bool
    default     = false
    description = "Whether to allow Kubernetes containers to request privileged mode."
  }
  option "clusterDns" {
    type        = str
    default     = "10.1.0.1"
    description = "Use alternative DNS."
  }
  option "clusterDomain" {
    type         = str
    default      = root.services.kubernetes.addons.dns.clusterDomain
    default_text = "services.kubernetes.addons.dns.clusterDomain"
    description  = "Use alternative domain."
  }
  option "clientCaFile" {
    type         = nullOr(path)
    default      = root.services.kubernetes.caFile
    default_text = "services.kubernetes.caFile"
    description  = "Kubernetes apiserver CA file for client authentication."
  }
  option "cni.packages" {
    type        = listOf(package)
    default     = []
    description = "List of network plugin packages to install."
  }
  option "cni.config" {
    type    = listOf(attrs)
    default = []
    example = [
      {
        cniVersion = "0.2.0", name = "mynet", type = "bridge", bridge = "cni0", isGateway = true, ipMasq = true,
        ipam       = { type = "host-local", subnet = "10.22.0.0/16", routes = [{ dst = "0.0.0.0/0" }] }
      },
      { cniVersion = "0.2.0", type = "loopback" },
    ]
    description = "Kubernetes CNI configuration."
  }
  option "cni.configDir" {
    type        = nullOr(path)
    default     = null
    description = "Path to Kubernetes CNI configuration directory."
  }
  option "cni.pluginsPackage" {
    type        = nullOr(package)
    default     = "/opt/cni-plugins"
    description = <<-EOT
      The standard CNI plugins (bin/bridge, bin/flannel, bin/loopback, ...),
      always added to cni.packages, as NixOS adds pkgs.cni-plugins; null
      adds none.
    EOT
  }
  option "healthz.bind" {
    type        = str
    default     = "127.0.0.1"
    description = "Kubernetes kubelet healthz listening address."
  }
  option "healthz.port" {
    type        = int
    default     = 10248
    description = "Kubernetes kubelet healthz port."
  }
  option "hostname" {
    type         = str
    default      = root.networking.hostName
    default_text = "networking.fqdn (networking.hostName, with networking.domain when set)"
    description  = "Kubernetes kubelet hostname override."
  }
  option "manifests" {
    type        = attrsOf(attrs)
    default     = {}
    description = "List of manifests to bootstrap with kubelet (only pods can be created as manifest entry)"
  }
  option "networkPlugin" {
    type        = nullOr(enum(["cni", "kubenet"]))
    default     = "kubenet"
    description = "Network plugin to use by Kubernetes."
  }
  option "nodeIp" {
    type        = nullOr(str)
    default     = null
    description = "IP address of the node. If set, kubelet will use this IP address for the node."
  }
  option "registerNode" {
    type        = bool
    default     = true
    description = "Whether to auto register kubelet with API server."
  }
  option "port" {
    type        = int
    default     = 10250
    description = "Kubernetes kubelet info server listening port."
  }
  option "seedDockerImages" {
    type        = listOf(package)
    default     = []
    description = "List of docker images to preload on system"
  }
  option "seedImagesWith" {
    type        = enum(["docker", "containerd"])
    default     = "docker"
    description = "What loads seedDockerImages before the kubelet starts: `docker load`, or containerd's `ctr --namespace k8s.io images import` (the namespace the kubelet's CRI reads). The containerd module chooses containerd when it is enabled."
  }
  option "taints" {
    type        = attrsOf(submodule.kubernetesTaint)
    default     = {}
    description = "Node taints (https://kubernetes.io/docs/concepts/configuration/assign-pod-node/)."
  }
  option "tlsCertFile" {
    type        = nullOr(path)
    default     = null
    description = "File containing x509 Certificate for HTTPS."
  }
  option "tlsKeyFile" {
    type        = nullOr(path)
    default     = null
    description = "File containing x509 private key matching tlsCertFile."
  }
  option "unschedulable" {
    type        = bool
    default     = false
    description = "Whether to set node taint to unschedulable=true as it is the case of node that has only master role."
  }

  # Not in the NixOS module of 2019.
  option "containerRuntimeEndpoint" {
    type        = nullOr(str)
    default     = null
    example     = "unix:///run/containerd/containerd.sock"
    description = "The endpoint of a CRI container runtime (--container-runtime-endpoint); null leaves the flag out, and the kubelet uses docker."
  }
  option "nodeLabels" {
    type        = attrsOf(str)
    default     = {}
    example     = { "node-role.kubernetes.io/worker" = "" }
    description = "Labels the kubelet registers its node with (--node-labels); a label with an empty value is written as its key alone."
  }
  option "podInfraContainerImage" {
    type        = nullOr(str)
    default     = "pause"
    description = "The image of the pods' infra (pause) container (--pod-infra-container-image); \"pause\", the seed's, is the image loaded from services.kubernetes.package. Null leaves the flag out: the kubelet's own default."
  }
  option "podManifestPath" {
    type        = nullOr(path)
    default     = null
    description = "Directory of static pod manifests (--pod-manifest-path); null passes /etc/kubernetes/manifests only when manifests is not empty, as NixOS does."
  }
  option "requireKubeconfig" {
    type        = bool
    default     = false
    description = "Whether to pass --require-kubeconfig (kubelets before 1.8): exit when the kubeconfig is missing."
  }
  option "anonymousAuth" {
    type        = nullOr(bool)
    default     = null
    description = "Whether the kubelet API accepts anonymous requests (--anonymous-auth); null leaves the flag out."
  }
  option "lockFile" {
    type        = nullOr(str)
    default     = null
    example     = "/var/run/lock/kubelet.lock"
    description = "The lock file the kubelet takes (--lock-file)."
  }
  option "exitOnLockContention" {
    type        = bool
    default     = false
    description = "Whether the kubelet exits when another process contends for its lock file (--exit-on-lock-contention)."
  }
}

submodule "kubernetesTaint" {
  option "key" {
    type         = str
    default      = name
    default_text = "the attribute name"
    description  = "Key of taint."
  }
  option "value" {
    type        = str
    description = "Value of taint."
  }
  option "effect" {
    type        = enum(["NoSchedule", "PreferNoSchedule", "NoExecute"])
    example     = "NoSchedule"
    description = "Effect of taint."
  }
}

assert {
  condition = !(local.cfg.enable && length(local.cfg.cni.config) > 0 && local.cfg.cni.configDir != null)
  message   = "Verbatim CNI-config and CNI configDir cannot both be set."
}

config "services.kubernetes.kubelet" {
  when             = local.cfg.enable
  seedDockerImages = local.cfg.podInfraContainerImage == "pause" ? ["${local.top.package}/images/pause.tar"] : []
  # Always include cni plugins
  cni = {
    packages = local.cfg.cni.pluginsPackage != null ? [local.cfg.cni.pluginsPackage] : []
  }
  hostname = mkDefault(root.networking.fqdn)
}

config "systemd.services.kubelet" {
  when        = local.cfg.enable
  description = "Kubernetes Kubelet Service"
  wantedBy    = ["kubelet.target"]
  after       = ["kube-apiserver-online.target"]
  before      = ["kubelet.target"]
  path        = distinct(concat([local.top.toolsPackage, root.virtualisation.docker.package], local.top.path))
  serviceConfig = {
    Slice            = "kubernetes.slice"
    CPUAccounting    = true
    MemoryAccounting = true
    Restart          = "on-failure"
    RestartSec       = "1000ms"
    ExecStart        = "${local.cfg.wrapper.enable ? local.cfg.wrapper.path : "${local.top.package}/bin/kubelet"} ${local.commandLine}"
    WorkingDirectory = local.top.dataDir
  }
}

config "services.kubernetes.lib.waitFiles" {
  when    = local.cfg.enable
  kubelet = local.kubeletPaths
}

# The seed's preStart: seed the docker images, link the CNI plugins.
config "systemd.services.kubelet" {
  when     = local.cfg.enable && length(local.cfg.seedDockerImages) + length(local.cfg.cni.packages) > 0
  preStart = local.preStart
}

# docker starts before the kubelet: in its unit when nodegen writes it, else
# in a drop-in for the host's docker.service when docker is the kubelet's
# runtime (no CRI endpoint).
config "systemd.services.docker" {
  when   = local.cfg.enable && root.virtualisation.docker.enable
  before = ["kubelet.service"]
}

config "systemd.units.\"docker.service\"" {
  when = local.cfg.enable && !root.virtualisation.docker.enable && local.cfg.containerRuntimeEndpoint == null
  dropIns = {
    "10-kubelet" = "[Unit]\nBefore=kubelet.service"
  }
}

# node-online waits for the pod network flannel gives this node. (NixOS
# writes it on every kubelet host, with docker's wait; nodegen only with
# flannel, the only thing it waits for, and with the wait of the runtime.)
config "systemd.services.node-online" {
  when     = local.cfg.enable && local.top.flannel.enable
  wantedBy = ["node-online.target"]
  after    = ["flannel.target", "kubelet.target"]
  before   = ["node-online.target"]
  # it is complicated. flannel needs kubelet to run the pause container before
  # it discusses the node CIDR with apiserver and afterwards configures and restarts
  # dockerd. Until then prevent creating any pods because they have to be recreated anyway
  # because the network of docker0 has been changed by flannel.
  # Without docker (containerd), pods take flannel's subnet from its
  # subnet.env through the flannel CNI plugin: wait until flannel wrote it.
  script = root.virtualisation.docker.enable ? local.waitDocker : local.waitSubnet
  serviceConfig = {
    Type  = "oneshot"
    Slice = "kubernetes.slice"
  }
}

config "boot" {
  when          = local.cfg.enable
  kernelModules = ["br_netfilter"]
}

config "services.kubernetes.pki.certs" {
  when = local.cfg.enable
  kubelet = {
    name   = "kubelet"
    CN     = local.cfg.hostname
    action = "systemctl restart kubelet.service"
  }
}

config "environment" {
  when = local.cfg.enable
  etc = merge(
    {
      for n, m in local.cfg.manifests : "${local.manifestPath}/${n}.json" => {
        text   = jsonencode(m)
        mode   = "0755"
        origin = "services.kubernetes.kubelet.manifests.${n}"
      }
    },
    local.cfg.cni.configDir != null ? {} : {
      for i, c in local.cfg.cni.config : "${local.cniConfigDir}/${10 + i + 1}-${c.type}.conf" => {
        text   = jsonencode(c)
        origin = "services.kubernetes.kubelet.cni.config"
      }
    },
  )
}

config "services.kubernetes.kubelet.taints.unschedulable" {
  when   = local.cfg.unschedulable && local.cfg.enable
  value  = "true"
  effect = "NoSchedule"
}

# kubelet.target and node-online.target. (The seed defines them for every
# NixOS host; nodegen only on a host with a Kubernetes component, or every
# host built with the library would carry them.)
config "systemd.targets.kubelet" {
  when     = local.top.anyComponent
  wantedBy = ["node-online.target"]
  before   = ["node-online.target"]
}

config "systemd.targets.node-online" {
  when     = local.top.anyComponent
  wantedBy = ["kubernetes.target"]
  before   = ["kubernetes.target"]
}
