# The release tarballs: downloaded only with a hash, from dl.k8s.io or a
# mirror.

run "the default release has no known hash: an error says how to give one" {
  config "services.kubernetes" {
    roles         = ["node"]
    masterAddress = "master.example"
  }
  expect_error = "Set services.kubernetes.release.nodeSha512 (kubernetes-node-linux-amd64.tar.gz) from the release notes (CHANGELOG-1.37.md, section Downloads for v1.37.2)"
}

run "another version without a known hash is an error, never the old hash" {
  config "services.kubernetes" {
    roles         = ["master"]
    masterAddress = "master.example"
  }
  config "services.kubernetes.release" { version = "1.31.4" }
  expect_error = "Set services.kubernetes.release.serverSha512 (kubernetes-server-linux-amd64.tar.gz) and srcSha512 (kubernetes-src.tar.gz) from the release notes (CHANGELOG-1.31.md"
}

run "a node installs the node tarball" {
  config "services.kubernetes" {
    roles         = ["node"]
    masterAddress = "master.example"
  }
  config "services.kubernetes.release" {
    nodeSha512 = "11111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111"
  }
  assert {
    condition     = config.environment.assets["kubernetes-node"].url == "https://dl.k8s.io/v1.37.2/kubernetes-node-linux-amd64.tar.gz"
    error_message = "the node tarball of the release"
  }
  assert {
    condition     = config.environment.assets["kubernetes-node"].files["/opt/kubernetes/bin/kubelet"] == "kubernetes/node/bin/kubelet"
    error_message = "the kubelet is installed where its unit runs it"
  }
  assert {
    condition     = !contains(keys(config.environment.assets), "kubernetes-server") && contains(config.environment.systemPackages, "socat")
    error_message = "no server tarball on a node, and the kubelet's host tools as packages"
  }
}

run "a master installs the server tarball and the addon manager, from a mirror" {
  config "services.kubernetes" {
    roles         = ["master"]
    masterAddress = "master.example"
  }
  config "services.kubernetes.release" {
    baseUrl      = "file:///srv/mirror/kubernetes/v1.37.2/"
    serverSha512 = "22222222222222222222222222222222222222222222222222222222222222222222222222222222222222222222222222222222222222222222222222222222"
    srcSha512    = "33333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333333"
  }
  assert {
    condition     = config.environment.assets["kubernetes-server"].files["/opt/kubernetes/bin/kube-apiserver"] == "kubernetes/server/bin/kube-apiserver"
    error_message = "the apiserver from the server tarball"
  }
  assert {
    condition     = config.environment.assets["kubernetes-server"].url == "file:///srv/mirror/kubernetes/v1.37.2/kubernetes-server-linux-amd64.tar.gz"
    error_message = "the tarball from the mirror"
  }
  assert {
    condition     = config.environment.assets["kubernetes-addon-manager"].files == { "/opt/kubernetes/bin/kube-addons" = "cluster/addons/addon-manager/kube-addons-main.sh", "/opt/kubernetes/bin/kube-addons.sh" = "cluster/addons/addon-manager/kube-addons.sh" }
    error_message = "the addon manager's loop and the functions it sources, from the source tarball"
  }
}

run "the library's known release keeps its hashes" {
  config "services.kubernetes" {
    roles         = ["node"]
    masterAddress = "master.example"
  }
  config "services.kubernetes.release" { version = "1.18.3" }
  assert {
    condition     = startswith(config.environment.assets["kubernetes-node"].sha512, "1027a6fc")
    error_message = "1.18.3's published hash"
  }
}

run "skipInstall leaves the binaries to the image" {
  config "services.kubernetes" {
    roles         = ["node"]
    masterAddress = "master.example"
  }
  config "services.kubernetes.release" { skipInstall = true }
  assert {
    condition     = !contains(keys(config.environment.assets), "kubernetes-node")
    error_message = "no tarball with skipInstall"
  }
  assert {
    condition     = contains(config.environment.providedByImage, "/opt/kubernetes/bin/kubelet")
    error_message = "the image provides the kubelet"
  }
}
