# The Kubernetes binaries, from the official release tarballs, as kops'
# nodeup downloads them: the server tarball where a control-plane component
# runs (it holds every component), the node tarball on a node with only the
# kubelet and kube-proxy, and the addon manager's script from the source
# tarball. They are installed below services.kubernetes.package, where the
# units run them, and checked against the sha512s of the release notes
# (CHANGELOG-1.NN.md, "Downloads"). The library knows the hashes of the
# releases in local.knownSha512; for any other release, the host gives
# them, or `nodegen lock HOST.hcl` downloads the tarballs once and records
# their sha512s in nodegen.lock.hcl beside the host file (a release
# without a hash is an error, never a download checked against another
# release's hash), or the host sets `skipInstall` when the image has the
# binaries. `baseUrl`, or environment.assetMirrors, points the downloads
# at a mirror.

options "services.kubernetes.release" {
  option "version" {
    type        = strMatching("[0-9]+\\.[0-9]+\\.[0-9]+(-[0-9A-Za-z.-]+)?", "a Kubernetes release without the v, as 1.37.2")
    default     = "1.37.2"
    description = "The Kubernetes release whose binaries are installed (without the v)."
  }
  option "baseUrl" {
    type         = str
    default      = "https://dl.k8s.io/v${config.services.kubernetes.release.version}"
    default_text = "https://dl.k8s.io/vVERSION"
    example      = "https://mirror.example.com/kubernetes/v1.37.2"
    description  = <<-EOT
      Where the release's tarballs are downloaded from: a directory URL
      holding kubernetes-server-linux-amd64.tar.gz,
      kubernetes-node-linux-amd64.tar.gz and kubernetes-src.tar.gz, as
      dl.k8s.io lays them out (https://, or file:// for a local copy). The
      hashes are checked whatever the mirror.
    EOT
  }
  option "serverSha512" {
    type         = nullOr(strMatching("[0-9a-f]{128}", "sha512 as 128 lower-case hex digits"))
    default      = try(local.knownSha512[config.services.kubernetes.release.version].server, null)
    default_text = "the release's, when the library knows it; else null: nodegen.lock.hcl gives it"
    description  = "The sha512 of the release's kubernetes-server-linux-amd64.tar.gz, as its release notes list it."
  }
  option "nodeSha512" {
    type         = nullOr(strMatching("[0-9a-f]{128}", "sha512 as 128 lower-case hex digits"))
    default      = try(local.knownSha512[config.services.kubernetes.release.version].node, null)
    default_text = "the release's, when the library knows it; else null: nodegen.lock.hcl gives it"
    description  = "The sha512 of the release's kubernetes-node-linux-amd64.tar.gz, as its release notes list it."
  }
  option "srcSha512" {
    type         = nullOr(strMatching("[0-9a-f]{128}", "sha512 as 128 lower-case hex digits"))
    default      = try(local.knownSha512[config.services.kubernetes.release.version].src, null)
    default_text = "the release's, when the library knows it; else null: nodegen.lock.hcl gives it"
    description  = "The sha512 of the release's kubernetes-src.tar.gz (the addon manager's kube-addons script), as its release notes list it."
  }
  option "skipInstall" {
    type        = bool
    default     = false
    description = "Leave the Kubernetes binaries to the image: install no release tarball (the units still run them from services.kubernetes.package)."
  }
}

locals {
  k8s = config.services.kubernetes
  rel = config.services.kubernetes.release
  bin = "${config.services.kubernetes.package}/bin"
  dl  = trimsuffix(config.services.kubernetes.release.baseUrl, "/")

  # The sha512s of the release tarballs the library knows, from each
  # release's notes (CHANGELOG-1.NN.md, "Downloads for vVERSION"): the
  # newest patch release of each minor release whose notes were at hand
  # when the library was written. (The 1.37 notes it could read list only
  # v1.37.0-alpha.1: a host on 1.37 takes the hashes from nodegen.lock.hcl.)
  knownSha512 = {
    "1.18.3" = {
      server = "5561483d796b124b8fe0e1cf5778ea03fec1e244ebc29f4b1b6c5ac93ab6bd10808d05da81b5f26426d51a3784c93ddf8b375ff971a78aebfd0ec7acac161365"
      node   = "1027a6fccadd320f123894dc624db31539333deef0b3d51b4bd3efc9214f2d74a0a50c53dc28e5801426d3c9556f82f4e06042c824151fea9112df795976d158"
      src    = "93b83acf5d15cab94e1d2866b2613d1aeed67c00a9eed064988c3bc4c700e34bd854fffac730c5ed6d8e138f15ce7750c17952f33bd4918771c7da358fbf5b53"
    }
    "1.35.4" = {
      server = "7454c2d9023de3230972e965e1e2a587a291e2a1abee703bb0737057e1646b23ebac538b93dd778e93579e3c293dc1fa8d002e6848ad5ebc01598bc47358fe44"
      node   = "bfdde7cb0eb382d28b37a499d041a210a10afc86280b1d0eefeec179e8563b8848f744ad0302a239662e3b5219622cdc2925a69c9d8098d7cd6237c659d78932"
      src    = "3812dcf80e29384f01aa6636a01f0ab10f5e4b5a3e0f8c66ac00266897b893558e388a5de8ee4a5f4787a8125957a8e9a805978f78d907e3ce5b030ae053f033"
    }
    "1.36.0" = {
      server = "1c64da92575451c2c7ff97c79b772e603995f8e76da1371a6b0746aaa27b65dce81c4d734cbb50f40e71486a8e08df36f14e12974f97d4d29e41f23a172a6a25"
      node   = "8bba5bd0cb77997ad965739caff3c8839fd16f284cf28a0e46c44538ce0b6fd83c5f3c608dd86c4831c3de9306bbfd02ce26bbe9a426754b6253efa1d5cc030f"
      src    = "0b2c28c5b9f58c3ac6286e892f0bfeb1dbf8bcb9a76dc6128c080ab4f39d861af9b0ae50bf4a819d6ec376b4e8d2a55122d51d5fb26a69dc8af29bcd2406fb48"
    }
  }
  control = config.services.kubernetes.apiserver.enable || config.services.kubernetes.controllerManager.enable || config.services.kubernetes.scheduler.enable
  # The components whose binaries this host runs, by binary name.
  binaries = {
    kube-apiserver          = config.services.kubernetes.apiserver.enable
    kube-controller-manager = config.services.kubernetes.controllerManager.enable
    kube-scheduler          = config.services.kubernetes.scheduler.enable
    kube-proxy              = config.services.kubernetes.proxy.enable
    kubelet                 = config.services.kubernetes.kubelet.enable && !config.services.kubernetes.kubelet.wrapper.enable
    kubectl                 = config.services.kubernetes.kubelet.enable || config.services.kubernetes.addonManager.enable || local.control
  }
  wanted = [for b, on in local.binaries : b if on]

  # The tarballs this host downloads. An asset's sha512 is defined only
  # when the library or the host gives it: without one, the asset's own
  # default takes the url's entry of nodegen.lock.hcl, and without that,
  # the asset's assertion says to run `nodegen lock`.
  needServer = !local.rel.skipInstall && local.control
  needNode   = !local.rel.skipInstall && !local.control && length(local.wanted) > 0
  needSrc    = !local.rel.skipInstall && local.k8s.addonManager.enable
}

config "environment.assets" {
  kubernetes-server = mkIf(local.needServer, {
    url     = "${local.dl}/kubernetes-server-linux-amd64.tar.gz"
    sha512  = mkIf(local.rel.serverSha512 != null, local.rel.serverSha512)
    archive = "tar.gz"
    files   = { for b in local.wanted : "${local.bin}/${b}" => "kubernetes/server/bin/${b}" }
  })
  kubernetes-node = mkIf(local.needNode, {
    url     = "${local.dl}/kubernetes-node-linux-amd64.tar.gz"
    sha512  = mkIf(local.rel.nodeSha512 != null, local.rel.nodeSha512)
    archive = "tar.gz"
    files   = { for b in local.wanted : "${local.bin}/${b}" => "kubernetes/node/bin/${b}" }
  })
  kubernetes-addon-manager = mkIf(local.needSrc, {
    url     = "${local.dl}/kubernetes-src.tar.gz"
    sha512  = mkIf(local.rel.srcSha512 != null, local.rel.srcSha512)
    archive = "tar.gz"
    # The addon manager's loop (kube-addons-main.sh), and the functions it
    # sources from its working directory (kube-addons.sh).
    files = {
      "${local.bin}/kube-addons"    = "cluster/addons/addon-manager/kube-addons-main.sh"
      "${local.bin}/kube-addons.sh" = "cluster/addons/addon-manager/kube-addons.sh"
    }
  })
}

# The host tools the services call, from the distribution (NixOS puts them
# on the units' path from nixpkgs): curl for the startup targets' wait
# loops, and what the kubelet and kube-proxy need on the node.
# With skipInstall, the image has the binaries where the units run them.
config "environment" {
  when = local.rel.skipInstall
  providedByImage = concat(
    [for b in local.wanted : "${local.bin}/${b}"],
    local.k8s.addonManager.enable ? ["${local.bin}/kube-addons"] : [],
  )
}

config "environment" {
  systemPackages = concat(
    length(local.wanted) > 0 && local.k8s.onlineTargets ? ["curl"] : [],
    local.k8s.kubelet.enable || local.k8s.proxy.enable ? ["conntrack", "ethtool", "iproute2", "iptables", "socat"] : [],
  )
}

# iproute2's programs are not named after it (the check of what units and
# scripts run looks them up); merged /usr has them at both places.
config "environment.packages.iproute2" {
  when     = local.k8s.kubelet.enable || local.k8s.proxy.enable
  provides = flatten([for p in ["bin/ip", "sbin/ip", "bin/ss", "sbin/bridge", "sbin/tc"] : ["/${p}", "/usr/${p}"]])
}
