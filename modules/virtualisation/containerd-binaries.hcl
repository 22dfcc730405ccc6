# containerd's binaries, as kops' nodeup installs them where the
# distribution does not ship containerd (every one but Flatcar and
# ContainerOS): the release tarball of services.containerd.version, runc,
# and with kubenet the CNI plugins. The sha256s are the published ones
# (kubespray's checksum lists); a version not listed here needs its hash
# set.

locals {
  ctr        = config.services.containerd
  ctrBin     = config.services.containerd.binaries
  ctrVersion = config.services.containerd.version == null ? "" : trimprefix(trimspace(config.services.containerd.version), "v")
  ctrEnabled = config.services.containerd.enable && !config.services.containerd.skipInstall && !contains(["flatcar", "containeros"], config.services.containerd.distribution)
  ctrInstall = local.ctrEnabled && !config.services.containerd.binaries.fromPackages
  # sha256 of containerd-VERSION-linux-amd64.tar.gz.
  containerdSums = {
    "1.6.20" = "bb9a9ccd6517e2a54da748a9f60dc9aa9d79d19d4724663f2386812f083968e2"
    "1.7.13" = "c2371c009dd8b7738663333d91e5ab50d204f8bcae24201f45d59060d12c3a23"
  }
}

options "services.containerd.binaries" {
  option "fromPackages" {
    type        = bool
    default     = false
    description = <<-EOT
      Whether containerd and runc come from the distribution's packages
      (Debian's `containerd` and `runc`, which put /usr/bin/containerd and
      /usr/sbin/runc where the unit runs them) instead of the release
      tarballs; services.containerd.version should then be the package's
      (1.6.20 on Debian 12). The Kubernetes library sets it for its nodes.
    EOT
  }
  option "sha256" {
    type         = nullOr(strMatching("[0-9a-f]{64}", "sha256 as 64 lower-case hex digits"))
    default      = contains(keys(local.containerdSums), local.ctrVersion) ? local.containerdSums[local.ctrVersion] : null
    default_text = "the published sha256 of containerd 1.6.20 or 1.7.13"
    description  = "The sha256 of containerd-VERSION-linux-amd64.tar.gz for services.containerd.version (its release's .sha256sum)."
  }
  option "runcVersion" {
    type        = str
    default     = "1.1.9"
    description = "The runc release installed next to containerd (its runc.amd64)."
  }
  option "runcSha256" {
    type        = strMatching("[0-9a-f]{64}", "sha256 as 64 lower-case hex digits")
    default     = "b9bfdd4cb27cddbb6172a442df165a80bfc0538a676fbca1a6a6c8f4c6933b43"
    description = "The sha256 of runc.amd64 of runcVersion."
  }
  option "cniVersion" {
    type        = str
    default     = "1.3.0"
    description = "The CNI plugins release installed in /opt/cni/bin for kubenet."
  }
  option "cniSha256" {
    type        = strMatching("[0-9a-f]{64}", "sha256 as 64 lower-case hex digits")
    default     = "754a71ed60a4bd08726c3af705a7d55ee3df03122b12e389fdba4bea35d7dd7e"
    description = "The sha256 of cni-plugins-linux-amd64-vVERSION.tgz of cniVersion."
  }
}

config "environment.assets" {
  containerd = mkIf(local.ctrInstall, {
    url     = "https://github.com/containerd/containerd/releases/download/v${local.ctrVersion}/containerd-${local.ctrVersion}-linux-amd64.tar.gz"
    sha256  = local.ctrBin.sha256
    archive = "tar.gz"
    files = {
      "/usr/bin/containerd"              = "bin/containerd"
      "/usr/bin/containerd-shim-runc-v2" = "bin/containerd-shim-runc-v2"
      "/usr/bin/ctr"                     = "bin/ctr"
    }
  })
  runc = mkIf(local.ctrInstall, {
    url        = "https://github.com/opencontainers/runc/releases/download/v${local.ctrBin.runcVersion}/runc.amd64"
    sha256     = local.ctrBin.runcSha256
    executable = "/usr/sbin/runc"
  })
  cni-plugins = mkIf(local.ctrInstall && local.ctr.usesKubenet, {
    url     = "https://github.com/containernetworking/plugins/releases/download/v${local.ctrBin.cniVersion}/cni-plugins-linux-amd64-v${local.ctrBin.cniVersion}.tgz"
    sha256  = local.ctrBin.cniSha256
    archive = "tar.gz"
    files   = { for p in ["bridge", "host-local", "loopback", "portmap"] : "/opt/cni/bin/${p}" => p }
  })
}

config "environment" {
  when           = local.ctrEnabled && local.ctrBin.fromPackages
  systemPackages = ["containerd", "runc"]
}

# Debian's containerd package has ctr too (the kubelet's image seeding runs it).
config "environment.packages.containerd" {
  when     = local.ctrEnabled && local.ctrBin.fromPackages
  provides = ["/usr/bin/containerd", "/usr/bin/containerd-shim-runc-v2", "/usr/bin/ctr"]
}

# Flatcar and ContainerOS ship containerd in their images.
config "environment" {
  when            = local.ctr.enable && !local.ctr.skipInstall && contains(["flatcar", "containeros"], local.ctr.distribution)
  providedByImage = ["/usr/bin/containerd"]
}

assert {
  condition = !local.ctrInstall || local.ctr.version == null || local.ctrBin.sha256 != null
  message   = "services.containerd.version ${local.ctrVersion}: nodegen knows no sha256 of its release tarball; set services.containerd.binaries.sha256 (the release's .sha256sum), or skipInstall to leave containerd to the image."
}
