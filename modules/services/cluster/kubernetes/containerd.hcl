# The kubelet on a containerd node. When services.containerd is enabled,
# the kubelet talks CRI to containerd and starts after it, and containerd
# does the pod networking the kubelet is configured for: with kubenet it
# writes the pod network from its CNI template (kops' usesKubenet), and it
# reads CNI configs where the kubelet's --cni-conf-dir points; the images
# the kubelet seeds are imported into containerd rather than loaded into
# docker, and containerd's sandbox image is the kubelet's pod-infra image.
# The values are at mkDefault priority, so a host can say otherwise.

locals {
  containerd = config.services.containerd
  kubelet    = config.services.kubernetes.kubelet
}

config "services.kubernetes.kubelet" {
  when                     = local.containerd.enable
  containerRuntimeEndpoint = mkDefault(local.containerd.runtimeEndpoint)
  # There is no docker to load the seeded images into.
  seedImagesWith = mkDefault("containerd")
}

config "systemd.services.kubelet" {
  when  = local.containerd.enable && local.kubelet.enable
  wants = ["containerd.service"]
  after = ["containerd.service"]
}

config "services.containerd" {
  when        = local.containerd.enable && local.kubelet.enable
  usesKubenet = mkDefault(local.kubelet.networkPlugin == "kubenet")
  # The pods' sandbox is the kubelet's pod-infra image: "pause", the
  # seed's, is the archive the kubelet imports (tagged pause:latest, which
  # containerd names docker.io/library/pause:latest).
  sandboxImage = mkIf(local.kubelet.podInfraContainerImage != null, mkDefault(
    local.kubelet.podInfraContainerImage == "pause" ? "docker.io/library/pause:latest" : local.kubelet.podInfraContainerImage
  ))
  settings = {
    plugins = {
      "io.containerd.grpc.v1.cri" = {
        cni = mkIf(local.kubelet.cni.configDir != null, {
          conf_dir = mkDefault(local.kubelet.cni.configDir)
        })
      }
    }
  }
}
