# containerd's config.toml version follows the containerd release: 2 for
# 1.x, 3 for 2.x.

run "containerd 1.x reads config version 2" {
  config "services.containerd" {
    enable       = true
    version      = "1.7.13"
    sandboxImage = "registry.k8s.io/pause:3.9"
  }
  assert {
    condition     = config.services.containerd.configVersion == 2 && config.services.containerd.settings.plugins["io.containerd.grpc.v1.cri"].sandbox_image == "registry.k8s.io/pause:3.9"
    error_message = "version 2, the sandbox image in the CRI plugin"
  }
}

run "containerd 2.x reads config version 3" {
  config "services.containerd" {
    enable          = true
    version         = "v2.1.0"
    sandboxImage    = "registry.k8s.io/pause:3.10"
    registryMirrors = { "docker.io" = ["https://a.example.com", "https://b.example.com"], "*" = ["https://c.example.com"] }
    binaries        = { sha256 = "0000000000000000000000000000000000000000000000000000000000000000" }
  }
  assert {
    condition     = config.services.containerd.settings.version == 3 && config.services.containerd.criPlugins == { images = "io.containerd.cri.v1.images", runtime = "io.containerd.cri.v1.runtime" }
    error_message = "version 3, with the CRI plugin split in two"
  }
  assert {
    condition     = config.services.containerd.settings.plugins["io.containerd.cri.v1.images"].pinned_images.sandbox == "registry.k8s.io/pause:3.10"
    error_message = "the sandbox image is the images plugin's pinned sandbox"
  }
  assert {
    condition     = config.services.containerd.settings.plugins["io.containerd.cri.v1.runtime"].containerd.runtimes.runc.options.SystemdCgroup
    error_message = "runc with systemd cgroups, in the runtime plugin"
  }
  assert {
    condition     = config.services.containerd.settings.plugins["io.containerd.cri.v1.images"].registry.config_path == "/etc/containerd/certs.d" && !contains(keys(config.services.containerd.settings.plugins), "io.containerd.grpc.v1.cri")
    error_message = "mirrors come from hosts.toml files, and no v2 table is written"
  }
  assert {
    condition     = config.environment.etc["containerd/certs.d/docker.io/hosts.toml"].text == "[host.\"https://a.example.com\"]\n  capabilities = [\"pull\", \"resolve\"]\n\n[host.\"https://b.example.com\"]\n  capabilities = [\"pull\", \"resolve\"]\n" && contains(keys(config.environment.etc), "containerd/certs.d/_default/hosts.toml")
    error_message = "one hosts.toml per registry, mirrors in order; * is _default"
  }
}

run "a kubelet on containerd 2.1 gets bin_dirs" {
  # flanneld from a release whose hash the library knows
  config "services.flannel.release" { version = "0.14.0" }
  config "services.kubernetes.release" { skipInstall = true }
  config "services.kubernetes" {
    roles         = ["node"]
    masterAddress = "m.example.com"
  }
  config "services.containerd" {
    version  = "2.1.4"
    binaries = { fromPackages = false, sha256 = "0000000000000000000000000000000000000000000000000000000000000000" }
  }
  assert {
    condition     = config.services.containerd.settings.plugins["io.containerd.cri.v1.runtime"].cni == { bin_dirs = ["/opt/cni/bin"], conf_dir = "/etc/cni/net.d" }
    error_message = "containerd 2.1 takes a list of plugin directories"
  }
}

run "the masquerade rules' iptables comes from Debian's package" {
  config "services.containerd" {
    enable            = true
    version           = "1.6.20"
    usesKubenet       = true
    nonMasqueradeCIDR = "100.64.0.0/10"
  }
  assert {
    condition     = contains(config.environment.systemPackages, "iptables") && !contains(config.environment.providedByImage, "/usr/sbin/iptables")
    error_message = "cni-iptables-setup runs iptables: Debian's package"
  }
}

run "or from Flatcar's image" {
  config "services.containerd" {
    enable            = true
    distribution      = "flatcar"
    usesKubenet       = true
    nonMasqueradeCIDR = "100.64.0.0/10"
  }
  assert {
    condition     = !contains(config.environment.systemPackages, "iptables") && contains(config.environment.providedByImage, "/usr/sbin/iptables")
    error_message = "Flatcar ships iptables: the image's, which switch checks"
  }
}
