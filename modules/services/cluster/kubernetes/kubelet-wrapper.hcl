# The CoreOS kubelet-wrapper: the kubelet runs in a rkt pod of the
# hyperkube image, started by /usr/lib/coreos/kubelet-wrapper (CoreOS
# 962.0.0 and later; see coreos-kubernetes' Documentation/kubelet-wrapper.md).
#
#   Environment=KUBELET_IMAGE_TAG=v1.5.4_coreos.0
#   Environment="RKT_RUN_ARGS=--volume resolv,kind=host,source=/etc/resolv.conf ... --uuid-file-save=/var/run/kubelet-pod.uuid"
#   ExecStartPre=-/usr/bin/rkt rm --uuid-file=/var/run/kubelet-pod.uuid
#   ExecStart=/usr/lib/coreos/kubelet-wrapper --pod-manifest-path=/etc/kubernetes/manifests ...
#   ExecStop=-/usr/bin/rkt stop --uuid-file=/var/run/kubelet-pod.uuid
#
# The host's files the kubelet needs are typed volumes, mounted into the
# pod; the documented ones have a switch each.

locals {
  kubelet = config.services.kubernetes.kubelet
  wrapper = config.services.kubernetes.kubelet.wrapper

  rktRunArgs = join(" ", concat(
    flatten([
      for n, v in local.wrapper.volumes : [
        "--volume ${n},kind=host,source=${v.source}${v.readOnly ? ",readOnly=true" : ""}",
        "--mount volume=${n},target=${v.target}",
      ]
    ]),
    local.wrapper.extraRunArgs,
    ["--uuid-file-save=${local.wrapper.uuidFile}"],
  ))
}

options "services.kubernetes.kubelet.wrapper" {
  option "enable" {
    type        = bool
    default     = false
    example     = true
    description = <<-EOT
      Whether to run the kubelet through CoreOS's kubelet-wrapper, in a rkt
      pod of the hyperkube image, instead of services.kubernetes.package's
      kubelet. The kubelet then needs no CNI plugins or images from the
      host: cni.pluginDirs defaults to none,
      the static pods' directory is passed (podManifestPath), and the
      kubelet's root directory is /var/lib/kubelet (services.kubernetes.dataDir),
      which the wrapper mounts.
    EOT
  }
  option "path" {
    type        = path
    default     = "/usr/lib/coreos/kubelet-wrapper"
    example     = "/opt/bin/kubelet-wrapper"
    description = "The kubelet-wrapper script (a copy in /opt/bin on CoreOS releases before 962.0.0)."
  }
  option "imageTag" {
    type        = str
    example     = "v1.5.4_coreos.0"
    description = "The hyperkube image's tag: the kubelet's version (KUBELET_IMAGE_TAG)."
  }
  option "imageUrl" {
    type        = nullOr(str)
    default     = null
    example     = "quay.io/coreos/hyperkube"
    description = "The hyperkube image (KUBELET_IMAGE_URL); null keeps the wrapper's."
  }
  option "rkt" {
    type        = path
    default     = "/usr/bin/rkt"
    description = "The rkt binary that removes and stops the kubelet's pod."
  }
  option "uuidFile" {
    type        = path
    default     = "/var/run/kubelet-pod.uuid"
    description = "Where rkt saves the pod's UUID (--uuid-file-save), for rkt rm before the start and rkt stop."
  }
  option "volumes" {
    type        = attrsOf(submodule.kubeletWrapperVolume)
    default     = {}
    example     = { var-log = { source = "/var/log" } }
    description = "Host paths mounted into the kubelet's pod, by volume name (--volume NAME,kind=host,source=... --mount volume=NAME,target=...), in the order of their names."
  }
  option "extraRunArgs" {
    type        = listOf(str)
    default     = []
    description = "Further rkt run arguments (RKT_RUN_ARGS), after the volumes."
  }
  option "hostResolvConf" {
    type        = bool
    default     = false
    description = "Whether to mount the host's /etc/resolv.conf into the pod, so that the kubelet inherits the host's DNS settings and reaches workers by host name (volume resolv)."
  }
  option "iscsi" {
    type        = bool
    default     = false
    description = "Whether to give the kubelet the host's iscsiadm, so that pods can use iSCSI volumes (volume iscsiadm)."
  }
  option "rbd" {
    type        = bool
    default     = false
    description = "Whether to give the kubelet the host's modprobe and kernel modules, so that pods can use rbd (Ceph) volumes (volumes modprobe and lib-modules; hyperkube v1.3.6_coreos.0 or later has the rbd tool)."
  }
}

submodule "kubeletWrapperVolume" {
  option "source" {
    type        = path
    description = "The path on the host."
  }
  option "target" {
    type         = path
    default      = config.source
    default_text = "source"
    description  = "Where it is mounted in the pod."
  }
  option "readOnly" {
    type        = bool
    default     = false
    description = "Whether the pod may only read it."
  }
}

config "services.kubernetes.kubelet.wrapper.volumes" {
  when   = local.wrapper.hostResolvConf
  resolv = { source = "/etc/resolv.conf" }
}

config "services.kubernetes.kubelet.wrapper.volumes" {
  when     = local.wrapper.iscsi
  iscsiadm = { source = "/usr/sbin/iscsiadm" }
}

config "services.kubernetes.kubelet.wrapper.volumes" {
  when        = local.wrapper.rbd
  modprobe    = { source = "/usr/sbin/modprobe" }
  lib-modules = { source = "/lib/modules" }
}

# The wrapper mounts the host's /var/lib/kubelet into the pod, and the
# kubelet's root directory (services.kubernetes.dataDir) must be there.
config "services.kubernetes" {
  when    = local.wrapper.enable
  dataDir = mkDefault("/var/lib/kubelet")
}

config "services.kubernetes.kubelet" {
  when            = local.wrapper.enable
  podManifestPath = mkDefault("/etc/kubernetes/manifests")
  cni = {
    pluginDirs = mkDefault([])
  }
}

config "systemd.services.kubelet" {
  when = local.kubelet.enable && local.wrapper.enable
  environment = {
    KUBELET_IMAGE_TAG = local.wrapper.imageTag
    KUBELET_IMAGE_URL = local.wrapper.imageUrl
    RKT_RUN_ARGS      = local.rktRunArgs
  }
  serviceConfig = {
    ExecStartPre = ["-${local.wrapper.rkt} rm --uuid-file=${local.wrapper.uuidFile}"]
    ExecStop     = "-${local.wrapper.rkt} stop --uuid-file=${local.wrapper.uuidFile}"
  }
}

# CoreOS Container Linux ships the wrapper and rkt in its image.
config "environment" {
  when            = local.wrapper.enable
  providedByImage = [local.wrapper.path, local.wrapper.rkt]
}
