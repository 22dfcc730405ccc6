run "containerd, runc and the CNI plugins are assets on Debian" {
  config "services.containerd" {
    enable      = true
    version     = "v1.7.13"
    usesKubenet = true
  }
  assert {
    condition     = config.environment.assets.containerd.url == "https://github.com/containerd/containerd/releases/download/v1.7.13/containerd-1.7.13-linux-amd64.tar.gz"
    error_message = "the release tarball of the version, without its v"
  }
  assert {
    condition     = config.environment.assets.containerd.files["/usr/bin/containerd"] == "bin/containerd"
    error_message = "containerd is installed where its unit runs it"
  }
  assert {
    condition     = config.environment.assets.runc.executable == "/usr/sbin/runc" && config.environment.assets["cni-plugins"].files["/opt/cni/bin/bridge"] == "bridge"
    error_message = "runc and the kubenet CNI plugins go where kops puts them"
  }
}

run "a version without a known hash needs one" {
  config "services.containerd" {
    enable  = true
    version = "1.6.99"
  }
  expect_error = "nodegen knows no sha256 of its release tarball"
}

run "Flatcar ships containerd" {
  config "services.containerd" {
    enable       = true
    distribution = "flatcar"
  }
  assert {
    condition     = !contains(keys(config.environment.assets), "containerd") && contains(config.environment.providedByImage, "/usr/bin/containerd")
    error_message = "no asset on Flatcar; the image's containerd is what runs"
  }
}

run "Debian's containerd package provides ctr" {
  config "services.containerd" {
    enable   = true
    version  = "1.6.20"
    binaries = { fromPackages = true }
  }
  assert {
    condition     = contains(config.environment.packages.containerd.provides, "/usr/bin/ctr") && contains(keys(config.environment.packages), "runc")
    error_message = "the check of what scripts run finds ctr in the containerd package"
  }
}
