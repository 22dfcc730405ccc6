# The kubelet on containerd, the library's container runtime (as NixOS's
# since nixpkgs#114737). When services.containerd is enabled (the
# Kubernetes module enables it for a kubelet), the kubelet talks CRI to
# containerd and starts after it, with the systemd cgroup driver when
# containerd's runc uses systemd cgroups; containerd runs the CNI plugins
# from /opt/cni/bin (where the kubelet links them) with the configs in
# /etc/cni/net.d, or the kubelet's cni.configDir. The values are at
# mkDefault priority, so a host can say otherwise.

locals {
  containerd = config.services.containerd
  kubelet    = config.services.kubernetes.kubelet
}

config "services.kubernetes.kubelet" {
  when                     = local.containerd.enable
  containerRuntimeEndpoint = mkDefault(local.containerd.runtimeEndpoint)
  settings = {
    cgroupDriver = mkDefault(local.containerd.cgroupDriver)
  }
}

config "systemd.services.kubelet" {
  when  = local.containerd.enable && local.kubelet.enable
  wants = ["containerd.service"]
  after = ["containerd.service"]
}

config "services.containerd" {
  when = local.containerd.enable && local.kubelet.enable
  settings = {
    plugins = {
      (local.containerd.criPlugins.runtime) = {
        cni = {
          bin_dir  = mkIf(!local.containerd.cniBinDirs, mkDefault("/opt/cni/bin"))
          bin_dirs = mkIf(local.containerd.cniBinDirs, mkDefault(["/opt/cni/bin"]))
          conf_dir = mkDefault(local.kubelet.cni.configDir != null ? local.kubelet.cni.configDir : "/etc/cni/net.d")
        }
      }
    }
  }
}
