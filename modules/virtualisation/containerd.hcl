# services.containerd: containerd as kops' nodeup configures it
# (nodeup/pkg/model/containerd.go, ContainerdBuilder), as typed options.
#
# What the seed builds, and where it is here:
#
#   Build: skipInstall         -> nothing at all (local.active)
#   Flatcar / ContainerOS      -> only the 10-kops.conf drop-in (local.install)
#   buildConfigFile            -> /etc/containerd/config.toml from `settings`
#                                 (buildContainerdConfig), or configOverride
#   installContainerd          -> containerd.service, /etc/sysconfig/containerd,
#                                 /etc/crictl.yaml (binaries, runc and the
#                                 license file are packages, not profile files)
#   buildCNIConfigTemplateFile -> /etc/containerd/config-cni.template (kubenet)
#   buildIPMasqueradeRules     -> cni-iptables-setup script and unit (kubenet)
#
# Version-dependent branches: the seed has none in the files it writes. It
# parses the version (semver.ParseTolerant) in installContainerd and fails
# when it does not parse or is missing; that is the `version` option's type
# and the assert at the end. Its only other version conditions pick release
# assets for containerd < 1.6 (binaries and runc inside the Docker or
# containerd bundle): install-time, not part of the profile. The comment
# "only enable systemd cgroups for kubernetes >= 1.20" has no branch behind
# it: SystemdCgroup is always true. Later kops releases add a branch for
# containerd >= 2.0, and so does this module: containerd 2 reads config
# version 3, whose CRI plugin is split in two (io.containerd.cri.v1.images
# and io.containerd.cri.v1.runtime), and takes registry mirrors from
# hosts.toml files under config_path rather than the v2 mirrors table.
#
# The kubelet's side (the kubelet on containerd, containerd's CNI settings
# and sandbox image from the kubelet's) is
# services/cluster/kubernetes/containerd.hcl.

locals {
  cfg         = config.services.containerd
  configFile  = "/etc/containerd/config.toml"
  cniTemplate = "/etc/containerd/config-cni.template"
  cri         = "io.containerd.grpc.v1.cri"

  # containerd 2 reads config version 3 (its major version parsed as
  # semver.ParseTolerant does); the CRI plugin's settings move to two
  # plugins, images and runtime.
  versionParts = local.cfg.version == null ? [] : split(".", trimprefix(trimspace(local.cfg.version), "v"))
  major        = length(local.versionParts) > 0 ? tonumber(local.versionParts[0]) : 1
  minor        = length(local.versionParts) > 1 ? tonumber(split("-", split("+", local.versionParts[1])[0])[0]) : 0
  v3           = local.major >= 2
  criImages    = local.v3 ? "io.containerd.cri.v1.images" : local.cri
  criRuntime   = local.v3 ? "io.containerd.cri.v1.runtime" : local.cri
  certsDir     = "/etc/containerd/certs.d"

  # Build returns at once when skipInstall is set.
  active = local.cfg.enable && !local.cfg.skipInstall
  # Flatcar and ContainerOS ship containerd: nodeup writes only a drop-in.
  immutable = contains(["flatcar", "containeros"], local.cfg.distribution)
  install   = local.active && !local.immutable

  # buildIPMasqueradeRules: no rules without a CIDR, nor for one ending in /0.
  cidr       = local.cfg.nonMasqueradeCIDR
  masquerade = local.active && local.cfg.usesKubenet && local.cidr != "" && !endswith(local.cidr, "/0")

  # CONTAINERD_OPTS: flagbuilder.BuildFlags over ContainerdConfig's flag
  # fields (address, log-level, root, state), sorted; an empty string is no
  # flag. extraOptions follow, in definition order.
  flags = concat(sort(compact([
    local.cfg.address == null ? "" : "--address=${local.cfg.address}",
    local.cfg.logLevel == null ? "" : "--log-level=${local.cfg.logLevel}",
    local.cfg.root == null ? "" : "--root=${local.cfg.root}",
    local.cfg.state == null ? "" : "--state=${local.cfg.state}",
  ])), local.cfg.extraOptions)

  # Slice: only with the systemd cgroup driver and runtime cgroups.
  runtimeCgroups = local.cfg.runtimeCgroups == null ? "" : local.cfg.runtimeCgroups
  slice          = local.cfg.cgroupDriver == "systemd" && local.runtimeCgroups != "" ? "${trim(local.runtimeCgroups, "/")}.slice" : null

  # The 10-kops.conf drop-ins of buildSystemdServiceOverrideFlatcar and
  # buildSystemdServiceOverrideContainerOS, without a final newline as
  # there.
  dropIn = {
    flatcar     = "[Service]\nEnvironmentFile=/etc/environment\nExecStart=\nExecStart=/usr/bin/containerd --config ${local.configFile}"
    containeros = "[Service]\nEnvironmentFile=/etc/environment\nTasksMax=infinity"
  }
}

# /etc/containerd/config.toml, NixOS's settingsFormat (pkgs.formats.toml).
format "containerdConfig" "toml" {}

options "services.containerd" {
  option "enable" {
    type        = bool
    default     = false
    description = "Whether to configure containerd, the container runtime, as kops' nodeup does."
  }
  option "version" {
    # semver.ParseTolerant: surrounding space and a leading "v" are dropped,
    # leading zeros are tolerated, a missing minor or patch is 0 (but then
    # no pre-release or build may follow); pre-release identifiers are
    # numeric without leading zeros or alphanumeric, build identifiers
    # alphanumeric.
    type        = nullOr(strMatching("\\s*v?[0-9]+(\\.[0-9]+(\\.[0-9]+(-(0|[1-9][0-9]*|[0-9]*[A-Za-z-][0-9A-Za-z-]*)(\\.(0|[1-9][0-9]*|[0-9]*[A-Za-z-][0-9A-Za-z-]*))*)?(\\+[0-9A-Za-z-]+(\\.[0-9A-Za-z-]+)*)?)?)?\\s*"))
    default     = null
    example     = "1.6.20"
    description = <<-EOT
      The containerd release on the node, a semantic version as kops reads it
      (semver.ParseTolerant: "v1.6", "1.6.20", "1.7.0-rc.1"). Required when
      the module installs containerd (any distribution but Flatcar and
      ContainerOS); a version that does not parse is an error at its
      definition.
    EOT
  }
  option "skipInstall" {
    type        = bool
    default     = false
    description = "Leave containerd alone: write none of its files (kops' containerd.skipInstall)."
  }
  option "configOverride" {
    type        = nullOr(str)
    default     = null
    description = "The complete /etc/containerd/config.toml, verbatim; `settings` is then ignored."
  }
  option "settings" {
    type        = format.containerdConfig
    default     = {}
    description = <<-EOT
      /etc/containerd/config.toml as a TOML tree. Definitions from every
      module merge key by key, recursively, and lists concatenate. The
      module's own values (kops' defaults and what the other options imply)
      are at mkDefault priority, so a plain definition overrides any of
      them; mkForce wins over plain definitions at any depth.
    EOT
    example = {
      plugins = {
        "io.containerd.grpc.v1.cri" = { max_concurrent_downloads = 10 }
      }
    }
  }
  option "registryMirrors" {
    type        = attrsOf(listOf(str))
    default     = {}
    example     = { "docker.io" = ["https://mirror.example.com"] }
    description = "Registry mirrors: for each registry host, its mirror endpoints in order. Endpoints from several modules concatenate."
  }
  option "nri.enabled" {
    type        = bool
    default     = false
    description = "Whether to enable the Node Resource Interface plugin (kops: setting containerd.nri)."
  }
  option "nri.pluginRequestTimeout" {
    type        = nullOr(strMatching("([0-9]+(\\.[0-9]*)?|\\.[0-9]+)(ns|us|µs|ms|s|m|h)(([0-9]+(\\.[0-9]*)?|\\.[0-9]+)(ns|us|µs|ms|s|m|h))*"))
    default     = null
    example     = "2s"
    description = "How long NRI waits for a plugin to handle a request, a Go duration."
  }
  option "nri.pluginRegistrationTimeout" {
    type        = nullOr(strMatching("([0-9]+(\\.[0-9]*)?|\\.[0-9]+)(ns|us|µs|ms|s|m|h)(([0-9]+(\\.[0-9]*)?|\\.[0-9]+)(ns|us|µs|ms|s|m|h))*"))
    default     = null
    example     = "5s"
    description = "How long NRI waits for a plugin to register, a Go duration."
  }
  option "selinuxEnabled" {
    type        = bool
    default     = false
    description = "Whether the CRI plugin enables SELinux labelling of containers."
  }
  option "sandboxImage" {
    type        = nullOr(str)
    default     = null
    example     = "registry.k8s.io/pause:3.9"
    description = "The pod sandbox (pause) image: the kubelet's pod-infra container image. Null or empty leaves containerd's default."
  }
  option "nvidiaRuntime" {
    type        = bool
    default     = false
    description = "Whether to add the `nvidia` runtime (nvidia-container-runtime) next to runc, for nodes with an NVIDIA GPU."
  }
  option "cgroupDriver" {
    type        = enum(["systemd", "cgroupfs"])
    default     = "systemd"
    description = "The kubelet's cgroup driver. With systemd, runtimeCgroups puts containerd in a slice."
  }
  option "runtimeCgroups" {
    type        = nullOr(str)
    default     = null
    example     = "/podruntime"
    description = "The kubelet's runtime cgroups: with the systemd cgroup driver, containerd.service runs in the slice of that name (slashes trimmed, `.slice` appended)."
  }
  option "distribution" {
    type        = enum(["debian", "ubuntu", "rhel", "rocky", "amazonlinux2", "amazonlinux2023", "flatcar", "containeros"])
    default     = "debian"
    description = "The node's distribution. Flatcar and ContainerOS ship containerd: only a drop-in for their containerd.service is written."
  }
  option "usesKubenet" {
    type        = bool
    default     = false
    description = "Whether pods are networked by kubenet: containerd then writes the pod network with a CNI config template, and pod traffic leaving the non-masquerade CIDR is masqueraded."
  }
  option "nonMasqueradeCIDR" {
    type        = str
    default     = ""
    example     = "100.64.0.0/10"
    description = "The cluster's non-masquerade CIDR. With kubenet, traffic to anything outside it is masqueraded; empty or a /0 sets up no masquerading."
  }
  option "ipv6Only" {
    type         = bool
    default      = strcontains(config.services.containerd.nonMasqueradeCIDR, ":")
    default_text = "whether nonMasqueradeCIDR is an IPv6 CIDR"
    description  = "Whether the cluster is IPv6-only: the kubenet CNI template then adds a ::/0 route."
  }
  option "address" {
    type        = nullOr(str)
    default     = null
    description = "containerd's GRPC socket (--address); null keeps containerd's default, /run/containerd/containerd.sock."
  }
  option "logLevel" {
    type        = nullOr(enum(["trace", "debug", "info", "warn", "error", "fatal", "panic"]))
    default     = null
    description = "containerd's log level (--log-level)."
  }
  option "root" {
    type        = nullOr(str)
    default     = null
    description = "Directory for containerd's persistent data (--root)."
  }
  option "state" {
    type        = nullOr(str)
    default     = null
    description = "Directory for containerd's execution state (--state)."
  }
  option "extraOptions" {
    type        = listOf(str)
    default     = []
    example     = ["--log-format=json"]
    description = "More command-line flags for containerd, after the ones above, in CONTAINERD_OPTS."
  }
  option "configVersion" {
    type         = int
    read_only    = true
    default      = local.v3 ? 3 : 2
    default_text = "3 for containerd 2.x, else 2"
    description  = "The version of config.toml the node's containerd reads (read-only): 3 for containerd 2.x, 2 before."
  }
  option "criPlugins" {
    type         = attrsOf(str)
    read_only    = true
    default      = { images = local.criImages, runtime = local.criRuntime }
    default_text = "{ images = \"io.containerd.cri.v1.images\", runtime = \"io.containerd.cri.v1.runtime\" } for containerd 2.x, else io.containerd.grpc.v1.cri for both"
    description  = "The names of the CRI plugin's tables in config.toml for the node's containerd (read-only): where images (the sandbox image, registries) and the runtime (runtimes, CNI) are configured."
  }
  option "cniBinDirs" {
    type         = bool
    read_only    = true
    default      = local.major > 2 || (local.major == 2 && local.minor >= 1)
    default_text = "whether containerd is 2.1 or later"
    description  = "Whether the CRI runtime plugin of the node's containerd takes a list of CNI plugin directories, cni.bin_dirs (containerd 2.1 and later), rather than cni.bin_dir (read-only)."
  }
  option "runtimeEndpoint" {
    type         = str
    read_only    = true
    default      = "unix://${coalesce(config.services.containerd.address, "/run/containerd/containerd.sock")}"
    default_text = "unix:// and address, or /run/containerd/containerd.sock"
    description  = "The CRI endpoint of containerd, for the kubelet's --container-runtime-endpoint and crictl (read-only)."
  }
}

# buildContainerdConfig, as settings at mkDefault priority: config version
# 2 for containerd 1.x, as the seed writes it, and version 3 for containerd
# 2.x, as later kops releases write it, where runtimes and CNI belong to
# the CRI runtime plugin (local.criRuntime; the CRI plugin itself in 2).
config "services.containerd.settings" {
  when    = local.cfg.enable
  version = mkDefault(local.v3 ? 3 : 2)
  plugins = {
    "io.containerd.nri.v1.nri" = mkIf(local.cfg.nri.enabled, {
      disable                     = mkDefault(false)
      plugin_request_timeout      = mkIf(local.cfg.nri.pluginRequestTimeout != null, mkDefault(local.cfg.nri.pluginRequestTimeout))
      plugin_registration_timeout = mkIf(local.cfg.nri.pluginRegistrationTimeout != null, mkDefault(local.cfg.nri.pluginRegistrationTimeout))
    })
    (local.criRuntime) = {
      enable_selinux = mkIf(local.cfg.selinuxEnabled, mkDefault(true))
      containerd = {
        default_runtime_name = mkIf(local.cfg.nvidiaRuntime, mkDefault("runc"))
        runtimes = {
          runc = {
            runtime_type = mkDefault("io.containerd.runc.v2")
            options      = { SystemdCgroup = mkDefault(true) }
          }
          # appendNvidiaGPURuntimeConfig (containerd 2 has no runc.v1 shim,
          # nor runtime_engine and runtime_root)
          nvidia = mkIf(local.cfg.nvidiaRuntime, {
            privileged_without_host_devices = mkDefault(false)
            runtime_engine                  = mkIf(!local.v3, mkDefault(""))
            runtime_root                    = mkIf(!local.v3, mkDefault(""))
            runtime_type                    = mkDefault(local.v3 ? "io.containerd.runc.v2" : "io.containerd.runc.v1")
            options = {
              SystemdCgroup = mkDefault(true)
              BinaryName    = mkDefault("/usr/bin/nvidia-container-runtime")
            }
          })
        }
      }
      cni = mkIf(local.cfg.usesKubenet, {
        conf_template = mkDefault(local.cniTemplate)
      })
    }
  }
}

# Images in config version 2: the CRI plugin's sandbox image, and the v2
# mirrors table the seed writes, registry.mirrors.NAME.endpoint.
config "services.containerd.settings" {
  when = local.cfg.enable && !local.v3
  plugins = {
    (local.cri) = {
      sandbox_image = mkIf(local.cfg.sandboxImage != null && local.cfg.sandboxImage != "", mkDefault(local.cfg.sandboxImage))
      registry = mkIf(length(local.cfg.registryMirrors) > 0, {
        mirrors = {
          for name, endpoints in local.cfg.registryMirrors : name => { endpoint = mkDefault(endpoints) }
        }
      })
    }
  }
}

# Images in config version 3: the images plugin's pinned sandbox image, and
# registries as hosts.toml files under config_path.
config "services.containerd.settings" {
  when = local.cfg.enable && local.v3
  plugins = {
    (local.criImages) = {
      pinned_images = mkIf(local.cfg.sandboxImage != null && local.cfg.sandboxImage != "", {
        sandbox = mkDefault(local.cfg.sandboxImage)
      })
      registry = mkIf(length(local.cfg.registryMirrors) > 0, {
        config_path = mkDefault(local.certsDir)
      })
    }
  }
}

# containerd 2's registry mirrors: one hosts.toml per registry ("*" is
# _default), its mirrors in order, each for pulling and resolving.
config "environment" {
  when = local.active && local.v3
  etc = {
    for name, endpoints in local.cfg.registryMirrors : "containerd/certs.d/${name == "*" ? "_default" : name}/hosts.toml" => {
      origin = "services.containerd.registryMirrors"
      text = join("\n", [
        for e in endpoints : "[host.${jsonencode(e)}]\n  capabilities = [\"pull\", \"resolve\"]\n"
      ])
    }
  }
}

config "environment.etc.\"containerd/config.toml\"" {
  when   = local.active
  origin = local.cfg.configOverride == null ? "services.containerd.settings" : "services.containerd.configOverride"
  text   = local.cfg.configOverride == null ? formatencode(format.containerdConfig, local.cfg.settings) : local.cfg.configOverride
}

# buildCNIConfigTemplateFile. {{.PodCIDR}} is containerd's template field.
config "environment.etc.\"containerd/config-cni.template\"" {
  when   = local.active && local.cfg.usesKubenet
  origin = "services.containerd.usesKubenet"
  text   = <<-EOT
    {
        "cniVersion": "0.4.0",
        "name": "k8s-pod-network",
        "plugins": [
            {
                "type": "ptp",
                "ipam": {
                    "type": "host-local",
                    "ranges": [[{"subnet": "{{.PodCIDR}}"}]],
                    "routes": ${jsonencode(concat([{ dst = "0.0.0.0/0" }], local.cfg.ipv6Only ? [{ dst = "::/0" }] : []))}
                }
            },
            {
                "type": "portmap",
                "capabilities": {"portMappings": true}
            }
        ]
    }
  EOT
}

# buildIPMasqueradeRules. The seed writes the script to
# /opt/kops/bin/cni-iptables-setup; the profile holds /etc only.
config "environment.etc.\"nodegen/scripts/cni-iptables-setup\"" {
  when   = local.masquerade
  origin = "services.containerd.nonMasqueradeCIDR"
  mode   = "0755"
  text   = <<-EOT
    #!/bin/bash
    # Built by kOps - do not edit

    iptables -w -t nat -N IP-MASQ
    iptables -w -t nat -A POSTROUTING -m comment --comment "ip-masq: ensure nat POSTROUTING directs all non-LOCAL destination traffic to our custom IP-MASQ chain" -m addrtype ! --dst-type LOCAL -j IP-MASQ
    iptables -w -t nat -A IP-MASQ -d ${local.cfg.nonMasqueradeCIDR} -m comment --comment "ip-masq: pod cidr is not subject to MASQUERADE" -j RETURN
    iptables -w -t nat -A IP-MASQ -m comment --comment "ip-masq: outbound traffic is subject to MASQUERADE (must be last in chain)" -j MASQUERADE
  EOT
}

# The script's iptables: Debian's package, or the image's on Flatcar and
# ContainerOS.
config "environment" {
  when            = local.masquerade
  systemPackages  = mkIf(!local.immutable, ["iptables"])
  providedByImage = mkIf(local.immutable, ["/usr/sbin/iptables"])
}

config "systemd.services.cni-iptables-setup" {
  when          = local.masquerade
  description   = "Configure iptables for kubernetes CNI"
  documentation = ["https://github.com/kubernetes/kops"]
  before        = ["network.target"]
  wantedBy      = ["basic.target"]
  serviceConfig = {
    Type            = "oneshot"
    RemainAfterExit = "yes"
    ExecStart       = "/etc/nodegen/scripts/cni-iptables-setup"
  }
}

# installContainerd: buildSystemdService (after containerd's own
# containerd.service), buildSysconfigFile, addCrictlConfig.
config "systemd.services.containerd" {
  when          = local.install
  description   = "containerd container runtime"
  documentation = ["https://containerd.io"]
  after         = ["network.target", "local-fs.target"]
  wantedBy      = ["multi-user.target"]
  serviceConfig = {
    # concat() hands systemdOption an evaluated list: its check rejects a
    # list constructor, whose elements are still lazy when it looks at
    # them. Plain lists will do once that is fixed.
    EnvironmentFile = concat(["/etc/sysconfig/containerd", "/etc/environment"])
    ExecStartPre    = concat(["-/sbin/modprobe overlay"])
    ExecStart       = "/usr/bin/containerd -c ${local.configFile} \"$CONTAINERD_OPTS\""
    # notify the daemon's readiness to systemd
    Type = "notify"
    # so that systemd does not reset the cgroups of containerd's containers
    Delegate = "yes"
    # kill only the containerd process, not all processes in the cgroup
    KillMode    = "process"
    Restart     = "always"
    RestartSec  = 5
    LimitNPROC  = "infinity"
    LimitCORE   = "infinity"
    LimitNOFILE = "infinity"
    TasksMax    = "infinity"
    # make killing of processes of this unit under memory pressure very unlikely
    OOMScoreAdjust = -999
    Slice          = mkIf(local.slice != null, local.slice)
  }
}

config "environment.etc.\"sysconfig/containerd\"" {
  when   = local.install
  origin = "services.containerd.extraOptions"
  text   = "CONTAINERD_OPTS=${join(" ", local.flags)}"
}

config "environment.etc.\"crictl.yaml\"" {
  when   = local.install
  origin = "services.containerd.runtimeEndpoint"
  text   = "\nruntime-endpoint: ${local.cfg.runtimeEndpoint}\n"
}

# buildSystemdServiceOverrideFlatcar / buildSystemdServiceOverrideContainerOS.
config "systemd.units.\"containerd.service\"" {
  when = local.active && local.immutable
  dropIns = {
    "10-kops" = local.dropIn[local.cfg.distribution]
  }
}

assert {
  condition = !local.install || local.cfg.version != null
  message   = "services.containerd.version must be set to install containerd on ${local.cfg.distribution} (kops: error finding containerd version)."
}
