# The Kubernetes binaries, from the official release tarballs, as kops'
# nodeup downloads them: the server tarball where a control-plane component
# runs (it holds every component), the node tarball on a node with only the
# kubelet and kube-proxy, and the addon manager's script from the source
# tarball. They are installed below services.kubernetes.package, where the
# units run them. The hashes are the sha512s of Kubernetes' release notes;
# set `release` for another version, or `skipInstall` when the image has
# the binaries.

options "services.kubernetes.release" {
  option "version" {
    type        = str
    default     = "1.18.3"
    description = "The Kubernetes release whose binaries are installed (without the v)."
  }
  option "serverSha512" {
    type        = strMatching("[0-9a-f]{128}", "sha512 as 128 lower-case hex digits")
    default     = "5561483d796b124b8fe0e1cf5778ea03fec1e244ebc29f4b1b6c5ac93ab6bd10808d05da81b5f26426d51a3784c93ddf8b375ff971a78aebfd0ec7acac161365"
    description = "The sha512 of the release's kubernetes-server-linux-amd64.tar.gz, as its release notes list it."
  }
  option "nodeSha512" {
    type        = strMatching("[0-9a-f]{128}", "sha512 as 128 lower-case hex digits")
    default     = "1027a6fccadd320f123894dc624db31539333deef0b3d51b4bd3efc9214f2d74a0a50c53dc28e5801426d3c9556f82f4e06042c824151fea9112df795976d158"
    description = "The sha512 of the release's kubernetes-node-linux-amd64.tar.gz, as its release notes list it."
  }
  option "srcSha512" {
    type        = strMatching("[0-9a-f]{128}", "sha512 as 128 lower-case hex digits")
    default     = "93b83acf5d15cab94e1d2866b2613d1aeed67c00a9eed064988c3bc4c700e34bd854fffac730c5ed6d8e138f15ce7750c17952f33bd4918771c7da358fbf5b53"
    description = "The sha512 of the release's kubernetes-src.tar.gz (the addon manager's kube-addons script), as its release notes list it."
  }
  option "skipInstall" {
    type        = bool
    default     = false
    description = "Leave the Kubernetes binaries to the image: install no release tarball (the units still run them from services.kubernetes.package)."
  }
}

locals {
  k8s     = config.services.kubernetes
  rel     = config.services.kubernetes.release
  bin     = "${config.services.kubernetes.package}/bin"
  dl      = "https://dl.k8s.io/v${config.services.kubernetes.release.version}"
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
}

config "environment.assets" {
  kubernetes-server = mkIf(!local.rel.skipInstall && local.control, {
    url     = "${local.dl}/kubernetes-server-linux-amd64.tar.gz"
    sha512  = local.rel.serverSha512
    archive = "tar.gz"
    files   = { for b in local.wanted : "${local.bin}/${b}" => "kubernetes/server/bin/${b}" }
  })
  kubernetes-node = mkIf(!local.rel.skipInstall && !local.control && length(local.wanted) > 0, {
    url     = "${local.dl}/kubernetes-node-linux-amd64.tar.gz"
    sha512  = local.rel.nodeSha512
    archive = "tar.gz"
    files   = { for b in local.wanted : "${local.bin}/${b}" => "kubernetes/node/bin/${b}" }
  })
  kubernetes-addon-manager = mkIf(!local.rel.skipInstall && local.k8s.addonManager.enable, {
    url     = "${local.dl}/kubernetes-src.tar.gz"
    sha512  = local.rel.srcSha512
    archive = "tar.gz"
    files   = { "${local.bin}/kube-addons" = "cluster/addons/addon-manager/kube-addons.sh" }
  })
}

# The host tools the services call, from the distribution (NixOS puts them
# on the units' path from nixpkgs): curl for the startup targets' wait
# loops, and what the kubelet and kube-proxy need on the node.
config "environment" {
  systemPackages = concat(
    length(local.wanted) > 0 ? ["curl"] : [],
    local.k8s.kubelet.enable || local.k8s.proxy.enable ? ["conntrack", "ethtool", "iproute2", "iptables", "socat"] : [],
  )
}
