# The Kubernetes kubelet: a port of the behaviour of nixpkgs'
# nixos/modules/services/cluster/kubernetes/kubelet.nix as NixOS has it
# today (the kubelet reads a KubeletConfiguration file, with freeform
# settings: nixpkgs#290119; containerd is the runtime: nixpkgs#114737),
# for Kubernetes 1.37, with the options nodegen adds (nodeLabels,
# podManifestPath, the lock file, and the CoreOS kubelet-wrapper in
# kubelet-wrapper.hcl). The options of the 2019 module whose flags the
# kubelet no longer has are removed options that say what replaced them.

locals {
  top = config.services.kubernetes
  cfg = config.services.kubernetes.kubelet

  manifestPath = "kubernetes/manifests"
  configFile   = "kubernetes/kubelet-config.json"

  # The CNI configs are written to /etc/cni/net.d, numbered 11, 12, ... as
  # NixOS numbers them (10 + i, i from 1): a network list (an entry with
  # "plugins") as NN-NAME.conflist, a single plugin as NN-TYPE.conf.
  cniConfigDir = "cni/net.d"

  # The files the kubelet needs before it can start. (The seed lists the
  # three unfiltered; a null would render an empty ConditionPathExists=,
  # which resets the list, so nodegen leaves nulls out.)
  kubeletPaths = distinct([for p in [local.cfg.clientCaFile, local.cfg.tlsCertFile, local.cfg.tlsKeyFile] : p if p != null])

  podManifestPath = (
    local.cfg.podManifestPath != null ? local.cfg.podManifestPath :
    length(local.cfg.manifests) > 0 ? "/etc/${local.manifestPath}" : null
  )

  # The KubeletConfiguration file: settings, without the keys that are
  # null, nor the typed maps and lists the host leaves empty.
  kubeletConfig = {
    for k, v in local.cfg.settings : k => v
    if v != null && !(contains(["evictionHard", "featureGates", "registerWithTaints"], k) && length(v) == 0)
  }

  # What is still a flag in Kubernetes 1.37: everything else is in the
  # configuration file.
  flags = [
    "--config=/etc/${local.configFile}",
    "--hostname-override=${local.cfg.hostname}",
    "--kubeconfig=${local.cfg.kubeconfig.path}",
    local.cfg.nodeIp != null ? "--node-ip=${local.cfg.nodeIp}" : "",
    length(local.cfg.nodeLabels) > 0 ? "--node-labels=${join(",", [for k, v in local.cfg.nodeLabels : v == "" ? k : "${k}=${v}"])}" : "",
    "--root-dir=${local.top.dataDir}",
    local.cfg.lockFile != null ? "--lock-file=${local.cfg.lockFile}" : "",
    local.cfg.exitOnLockContention ? "--exit-on-lock-contention" : "",
    local.cfg.verbosity != null ? "--v=${local.cfg.verbosity}" : "",
    local.cfg.extraOpts,
  ]
  commandLine = join(" ", [for f in local.flags : f if f != ""])

  # node-online's wait for flannel's network: until flannel wrote the
  # subnet the flannel CNI plugin reads.
  waitSubnet = "while ! test -f /run/flannel/subnet.env ; do sleep 1 ; done\n"

  preStart = join("", concat(
    flatten([for img in local.cfg.seedDockerImages : [
      "echo \"Seeding container image: ${img}\"\n",
      "ctr --namespace k8s.io images import ${img}\n",
    ]]),
    ["rm /opt/cni/bin/* || true\n"],
    flatten([for p in local.cfg.cni.packages : [
      "echo \"Linking cni package: ${p}\"\n",
      "ln -fs ${p}/bin/* /opt/cni/bin\n",
    ]]),
    flatten([for d in local.cfg.cni.pluginDirs : [
      "echo \"Linking cni plugins: ${d}\"\n",
      "ln -fs ${d}/* /opt/cni/bin\n",
    ]]),
  ))

  # Labels the kubelet refuses to register (kubernetes#73999, 1.16): a key
  # in the kubernetes.io or k8s.io namespaces, unless it is one of the
  # well-known node labels or under kubelet.kubernetes.io or
  # node.kubernetes.io.
  allowedKubeletLabels = [
    "kubernetes.io/hostname", "kubernetes.io/instance-type", "kubernetes.io/os", "kubernetes.io/arch",
    "beta.kubernetes.io/instance-type", "beta.kubernetes.io/os", "beta.kubernetes.io/arch",
    "failure-domain.beta.kubernetes.io/zone", "failure-domain.beta.kubernetes.io/region",
    "topology.kubernetes.io/zone", "topology.kubernetes.io/region", "node.kubernetes.io/instance-type",
  ]
  # A label's key is a qualified name and its value a label value, as the
  # kubelet and the apiserver check them: what --node-labels joins with ,
  # and = cannot hold those.
  qualifiedName = "^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$"
  labelValue    = "^([A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?)?$"
  badLabels     = [for k, v in local.cfg.nodeLabels : "${k}=${v}" if !(can(regex(local.qualifiedName, k)) && can(regex(local.labelValue, v)))]
  badTaints     = [for n, t in local.cfg.taints : "${t.key}=${t.value}" if !(can(regex(local.qualifiedName, t.key)) && can(regex(local.labelValue, t.value)))]

  labelNamespace = { for k, v in local.cfg.nodeLabels : k => (strcontains(k, "/") ? lower(split("/", k)[0]) : "") }
  refusedLabels = [for k, ns in local.labelNamespace : k if (
    (ns == "kubernetes.io" || endswith(ns, ".kubernetes.io") || ns == "k8s.io" || endswith(ns, ".k8s.io")) &&
    !contains(local.allowedKubeletLabels, k) &&
    !(ns == "kubelet.kubernetes.io" || endswith(ns, ".kubelet.kubernetes.io") || ns == "node.kubernetes.io" || endswith(ns, ".node.kubernetes.io"))
  )]
}

options "services.kubernetes.kubelet" {
  # Also enable, extraOpts, featureGates, kubeconfig, verbosity: see components.hcl.
  option "address" {
    type        = host
    default     = "0.0.0.0"
    description = "Kubernetes kubelet info server listening address (settings.address)."
  }
  option "clusterDns" {
    type        = listOf(host)
    default     = ["10.1.0.1"]
    description = "Use alternative DNS: the cluster DNS servers' addresses (settings.clusterDNS)."
  }
  option "clusterDomain" {
    type         = str
    default      = root.services.kubernetes.addons.dns.clusterDomain
    default_text = "services.kubernetes.addons.dns.clusterDomain"
    description  = "Use alternative domain (settings.clusterDomain)."
  }
  option "clientCaFile" {
    type         = nullOr(path)
    default      = root.services.kubernetes.caFile
    default_text = "services.kubernetes.caFile"
    description  = "Kubernetes apiserver CA file for client authentication (settings.authentication.x509.clientCAFile)."
  }
  option "cni.packages" {
    type        = listOf(package)
    default     = []
    description = "List of network plugin packages to install: each package's bin/* is linked into /opt/cni/bin, where containerd runs the plugins from."
  }
  option "cni.pluginDirs" {
    type        = listOf(path)
    default     = ["/usr/lib/cni"]
    description = <<-EOT
      Directories that hold CNI plugins themselves (not in a bin
      subdirectory), linked into /opt/cni/bin before the kubelet starts. The
      default is where Debian's containernetworking-plugins puts the
      standard plugins (bridge, host-local, loopback, portmap, ...).
    EOT
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
    description = <<-EOT
      Kubernetes CNI configuration, written to /etc/cni/net.d where
      containerd reads it: an entry with `plugins` is a network list
      (NN-NAME.conflist), any other a single plugin (NN-TYPE.conf).
    EOT
  }
  option "cni.configDir" {
    type        = nullOr(path)
    default     = null
    description = "Path to Kubernetes CNI configuration directory: containerd reads the CNI configs there instead (its CRI plugin's cni.conf_dir)."
  }
  option "healthz.bind" {
    type        = host
    default     = "127.0.0.1"
    description = "Kubernetes kubelet healthz listening address (settings.healthzBindAddress)."
  }
  option "healthz.port" {
    type        = int
    default     = 10248
    description = "Kubernetes kubelet healthz port (settings.healthzPort)."
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
  option "nodeIp" {
    type        = nullOr(host)
    default     = null
    description = "IP address of the node. If set, kubelet will use this IP address for the node."
  }
  option "registerNode" {
    type        = bool
    default     = true
    description = "Whether to auto register kubelet with API server (settings.registerNode)."
  }
  option "port" {
    type        = int
    default     = 10250
    description = "Kubernetes kubelet info server listening port (settings.port)."
  }
  option "seedDockerImages" {
    type        = listOf(package)
    default     = []
    description = "Image archives (docker save or OCI format) imported into containerd's k8s.io namespace before the kubelet starts, so that pods can use them without a registry."
  }
  option "taints" {
    type        = attrsOf(submodule.kubernetesTaint)
    default     = {}
    description = "Node taints (https://kubernetes.io/docs/concepts/configuration/assign-pod-node/), registered with the node (settings.registerWithTaints)."
  }
  option "tlsCertFile" {
    type        = nullOr(path)
    default     = null
    description = "File containing x509 Certificate for HTTPS (settings.tlsCertFile)."
  }
  option "tlsKeyFile" {
    type        = nullOr(path)
    default     = null
    description = "File containing x509 private key matching tlsCertFile (settings.tlsPrivateKeyFile)."
  }
  option "unschedulable" {
    type        = bool
    default     = false
    description = "Whether to set node taint to unschedulable=true as it is the case of node that has only master role."
  }
  option "containerRuntimeEndpoint" {
    type        = str
    default     = "unix:///run/containerd/containerd.sock"
    description = "The endpoint of the CRI container runtime (settings.containerRuntimeEndpoint): containerd's socket by default."
  }
  option "settings" {
    type        = submodule.kubeletSettings
    default     = {}
    description = <<-EOT
      The kubelet's configuration file (a KubeletConfiguration, written as
      JSON to /etc/kubernetes/kubelet-config.json and passed with
      --config), as NixOS's `extraConfig`: any key of the KubeletConfiguration
      may be set, and definitions from every module merge key by key. The
      keys the library wires itself have typed options below, whose
      defaults come from the options above (address, port, clusterDns, ...);
      the library's other values (authentication, authorization,
      hairpinMode) are at mkDefault priority.
    EOT
    example = {
      evictionHard = { "memory.available" = "200Mi" }
      maxPods      = 50
    }
  }

  # Not in NixOS's module.
  option "nodeLabels" {
    type        = attrsOf(str)
    default     = {}
    example     = { "node.kubernetes.io/pool" = "batch" }
    description = <<-EOT
      Labels the kubelet registers its node with (--node-labels); a label
      with an empty value is written as its key alone. The kubelet refuses
      labels in the kubernetes.io and k8s.io namespaces other than the
      well-known ones and those under kubelet.kubernetes.io and
      node.kubernetes.io (so `node-role.kubernetes.io/*` must be set with
      kubectl, not by the kubelet): such a label is an error here.
    EOT
  }
  option "podManifestPath" {
    type        = nullOr(pathWord)
    default     = null
    description = "Directory of static pod manifests (settings.staticPodPath); null uses /etc/kubernetes/manifests only when manifests is not empty, as NixOS does."
  }
  option "lockFile" {
    type        = nullOr(pathWord)
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

format "kubeletConfig" "json" {}

# The KubeletConfiguration: any key, with the ones the library wires typed.
submodule "kubeletSettings" {
  freeform = format.kubeletConfig
  option "apiVersion" {
    type        = str
    default     = "kubelet.config.k8s.io/v1beta1"
    description = "The configuration's API version."
  }
  option "kind" {
    type        = str
    default     = "KubeletConfiguration"
    description = "The configuration's kind."
  }
  option "address" {
    type         = str
    default      = root.services.kubernetes.kubelet.address
    default_text = "services.kubernetes.kubelet.address"
    description  = "The address the kubelet serves on."
  }
  option "port" {
    type         = port
    default      = root.services.kubernetes.kubelet.port
    default_text = "services.kubernetes.kubelet.port"
    description  = "The port the kubelet serves on."
  }
  option "healthzBindAddress" {
    type         = str
    default      = root.services.kubernetes.kubelet.healthz.bind
    default_text = "services.kubernetes.kubelet.healthz.bind"
    description  = "The address of the healthz server."
  }
  option "healthzPort" {
    type         = port
    default      = root.services.kubernetes.kubelet.healthz.port
    default_text = "services.kubernetes.kubelet.healthz.port"
    description  = "The port of the healthz server."
  }
  option "clusterDNS" {
    type         = listOf(str)
    default      = root.services.kubernetes.kubelet.clusterDns
    default_text = "services.kubernetes.kubelet.clusterDns"
    description  = "The cluster DNS servers' addresses, for the pods' resolv.conf."
  }
  option "clusterDomain" {
    type         = nullOr(str)
    default      = root.services.kubernetes.kubelet.clusterDomain == "" ? null : root.services.kubernetes.kubelet.clusterDomain
    default_text = "services.kubernetes.kubelet.clusterDomain, null when empty"
    description  = "The cluster's DNS domain."
  }
  option "tlsCertFile" {
    type         = nullOr(path)
    default      = root.services.kubernetes.kubelet.tlsCertFile
    default_text = "services.kubernetes.kubelet.tlsCertFile"
    description  = "The kubelet's serving certificate."
  }
  option "tlsPrivateKeyFile" {
    type         = nullOr(path)
    default      = root.services.kubernetes.kubelet.tlsKeyFile
    default_text = "services.kubernetes.kubelet.tlsKeyFile"
    description  = "The key of the kubelet's serving certificate."
  }
  option "containerRuntimeEndpoint" {
    type         = str
    default      = root.services.kubernetes.kubelet.containerRuntimeEndpoint
    default_text = "services.kubernetes.kubelet.containerRuntimeEndpoint"
    description  = "The CRI endpoint of the container runtime."
  }
  option "cgroupDriver" {
    type        = enum(["systemd", "cgroupfs"])
    default     = "systemd"
    description = "The cgroup driver: systemd, as containerd's runc is configured (SystemdCgroup = true)."
  }
  option "failSwapOn" {
    type        = bool
    default     = true
    description = "Whether the kubelet refuses to start on a host with swap enabled."
  }
  option "failCgroupV1" {
    type         = bool
    default      = root.systemd.enableUnifiedCgroupHierarchy
    default_text = "systemd.enableUnifiedCgroupHierarchy"
    description  = <<-EOT
      Whether the kubelet refuses to start on a cgroup v1 host. Kubernetes
      1.35 made it refuse by default; on a host without the unified
      hierarchy (systemd.enableUnifiedCgroupHierarchy = false) the library
      lets it run.
    EOT
  }
  option "registerNode" {
    type         = bool
    default      = root.services.kubernetes.kubelet.registerNode
    default_text = "services.kubernetes.kubelet.registerNode"
    description  = "Whether the kubelet registers its node with the apiserver."
  }
  option "registerWithTaints" {
    type         = listOf(attrsOf(str))
    default      = [for n, t in root.services.kubernetes.kubelet.taints : { key = t.key, value = t.value, effect = t.effect }]
    default_text = "services.kubernetes.kubelet.taints, by name"
    description  = "The taints the node registers with."
  }
  option "staticPodPath" {
    type         = nullOr(path)
    default      = null
    default_text = "services.kubernetes.kubelet.podManifestPath, or /etc/kubernetes/manifests with manifests"
    description  = "The directory of static pod manifests."
  }
  option "featureGates" {
    type         = attrsOf(bool)
    default      = root.services.kubernetes.kubelet.featureGates
    default_text = "services.kubernetes.kubelet.featureGates"
    description  = "The kubelet's feature gates."
  }
  option "evictionHard" {
    type        = attrsOf(str)
    default     = {}
    example     = { "memory.available" = "100Mi", "nodefs.available" = "10%" }
    description = "Hard eviction thresholds, by signal; empty keeps the kubelet's defaults."
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

removed_option "services.kubernetes.kubelet.allowPrivileged" {
  message = "The kubelet's --allow-privileged flag was removed in Kubernetes 1.15 (kubernetes#77820): privileged pods are allowed by the kubelet and restricted by the apiserver's Pod Security admission."
}
removed_option "services.kubernetes.kubelet.networkPlugin" {
  message = "The kubelet's --network-plugin flag was removed with dockershim in Kubernetes 1.24: the container runtime (containerd) runs the CNI plugins; set the network with services.kubernetes.kubelet.cni.config or services.kubernetes.flannel."
}
removed_option "services.kubernetes.kubelet.podInfraContainerImage" {
  message = "The kubelet's --pod-infra-container-image flag was removed in Kubernetes 1.35: the sandbox (pause) image is the container runtime's setting, services.containerd.sandboxImage."
}
removed_option "services.kubernetes.kubelet.requireKubeconfig" {
  message = "The kubelet's --require-kubeconfig flag was removed in Kubernetes 1.10: the kubelet always uses its kubeconfig."
}
removed_option "services.kubernetes.kubelet.seedImagesWith" {
  message = "Images in seedDockerImages are always imported into containerd (ctr --namespace k8s.io images import): docker is no longer a kubelet runtime (dockershim was removed in Kubernetes 1.24)."
}
removed_option "services.kubernetes.kubelet.cni.pluginsPackage" {
  message = "The standard CNI plugins are linked from services.kubernetes.kubelet.cni.pluginDirs (Debian's /usr/lib/cni by default); a package with a bin directory goes in cni.packages."
}
renamed_option "services.kubernetes.kubelet.anonymousAuth" {
  to = "services.kubernetes.kubelet.settings.authentication.anonymous.enabled"
}

assert {
  condition = !(local.cfg.enable && length(local.cfg.cni.config) > 0 && local.cfg.cni.configDir != null)
  message   = "Verbatim CNI-config and CNI configDir cannot both be set."
}

assert {
  condition = !local.cfg.enable || length(local.refusedLabels) == 0
  message   = "services.kubernetes.kubelet.nodeLabels: the kubelet refuses to register the label${length(local.refusedLabels) == 1 ? "" : "s"} ${join(", ", local.refusedLabels)} (since Kubernetes 1.16 it may set only the well-known labels, and labels under kubelet.kubernetes.io and node.kubernetes.io, in the kubernetes.io and k8s.io namespaces); set node-role.kubernetes.io/* labels with kubectl label node, or use node.kubernetes.io/NAME."
}

assert {
  condition = !local.cfg.enable || can(regex("^[A-Za-z0-9][-A-Za-z0-9_.]*$", local.cfg.hostname))
  message   = "services.kubernetes.kubelet.hostname: the node's name must be a host name (letters, digits, '-', '_' and '.', beginning with a letter or digit), not ${jsonencode(local.cfg.hostname)}; set networking.hostName or services.kubernetes.kubelet.hostname."
}

assert {
  condition = !local.cfg.enable || length(local.badTaints) == 0
  message   = "services.kubernetes.kubelet.taints: a taint's key must be a qualified name (an optional DNS subdomain prefix and /, then up to 63 letters, digits, '-', '_' or '.', beginning and ending with a letter or digit) and its value a label value (the same, or empty): ${join(", ", local.badTaints)}"
}

assert {
  condition = !local.cfg.enable || length(local.badLabels) == 0
  message   = "services.kubernetes.kubelet.nodeLabels: a label's key must be a qualified name (an optional DNS subdomain prefix and /, then up to 63 letters, digits, '-', '_' or '.', beginning and ending with a letter or digit) and its value a label value (the same, or empty): ${join(", ", local.badLabels)}"
}

config "services.kubernetes.kubelet" {
  when     = local.cfg.enable
  hostname = mkDefault(root.networking.fqdn)
  settings = {
    authentication = {
      anonymous = { enabled = mkDefault(false) }
      webhook   = { enabled = mkDefault(true), cacheTTL = mkDefault("10s") }
      x509      = mkIf(local.cfg.clientCaFile != null, { clientCAFile = mkDefault(local.cfg.clientCaFile) })
    }
    authorization = { mode = mkDefault("Webhook") }
    hairpinMode   = mkDefault("hairpin-veth")
    staticPodPath = mkIf(local.podManifestPath != null, mkDefault(local.podManifestPath))
  }
}

config "systemd.services.kubelet" {
  when        = local.cfg.enable
  description = "Kubernetes Kubelet Service"
  wantedBy    = ["kubernetes.target"]
  after       = ["network.target", "kube-apiserver.service"]
  path        = distinct(concat([local.top.toolsPackage], local.top.path))
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

config "environment.etc.\"kubernetes/kubelet-config.json\"" {
  when   = local.cfg.enable
  origin = "services.kubernetes.kubelet.settings"
  text   = formatencode(format.kubeletConfig, local.kubeletConfig)
}

config "services.kubernetes.lib.waitFiles" {
  when    = local.cfg.enable
  kubelet = local.kubeletPaths
}

# The preStart: import the seeded images into containerd, link the CNI
# plugins.
config "systemd.services.kubelet" {
  when     = local.cfg.enable && length(local.cfg.seedDockerImages) + length(local.cfg.cni.packages) + length(local.cfg.cni.pluginDirs) > 0
  preStart = local.preStart
}

# The seed's node-online.target (services.kubernetes.onlineTargets):
# reached once flannel has given this node its pod network.
config "systemd.services.node-online" {
  when     = local.cfg.enable && local.top.flannel.enable && local.top.onlineTargets
  wantedBy = ["node-online.target"]
  after    = ["flannel.target", "kubelet.target"]
  before   = ["node-online.target"]
  # it is complicated. flannel needs kubelet to run the pause container before
  # it discusses the node CIDR with apiserver. Until then prevent creating
  # any pods: pods take flannel's subnet from its subnet.env through the
  # flannel CNI plugin, so wait until flannel wrote it.
  script = local.waitSubnet
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
    hosts  = compact([local.cfg.hostname, local.cfg.nodeIp == null ? "" : local.cfg.nodeIp])
    action = "systemctl --no-block restart kubelet.service"
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
      for i, c in local.cfg.cni.config : (
        can(c.plugins) ? "${local.cniConfigDir}/${10 + i + 1}-${c.name}.conflist" : "${local.cniConfigDir}/${10 + i + 1}-${c.type}.conf"
      ) => {
        text   = jsonencode(c)
        origin = "services.kubernetes.kubelet.cni.config"
      }
    },
  )
  systemPackages = length(local.cfg.cni.pluginDirs) > 0 && contains(local.cfg.cni.pluginDirs, "/usr/lib/cni") ? ["containernetworking-plugins"] : []
}

config "services.kubernetes.kubelet.taints.unschedulable" {
  when   = local.cfg.unschedulable && local.cfg.enable
  value  = "true"
  effect = "NoSchedule"
}

# The seed's kubelet.target and node-online.target
# (services.kubernetes.onlineTargets).
config "systemd.targets.kubelet" {
  when     = local.top.anyComponent && local.top.onlineTargets
  wantedBy = ["node-online.target"]
  before   = ["node-online.target"]
}

config "systemd.targets.node-online" {
  when     = local.top.anyComponent && local.top.onlineTargets
  wantedBy = ["kubernetes.target"]
  before   = ["kubernetes.target"]
}

config "systemd.services.kubelet" {
  when     = local.cfg.enable && local.top.onlineTargets
  wantedBy = ["kubelet.target"]
  after    = ["kube-apiserver-online.target"]
  before   = ["kubelet.target"]
}

# A change of the configuration file (the text written above) restarts the kubelet,
# as NixOS's store path of the file in ExecStart does.
config "systemd.services.kubelet" {
  when            = local.cfg.enable
  restartTriggers = [formatencode(format.kubeletConfig, local.kubeletConfig)]
}
