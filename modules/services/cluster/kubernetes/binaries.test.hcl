run "a node installs the node tarball" {
  config "services.kubernetes" {
    roles         = ["node"]
    masterAddress = "master.example"
  }
  assert {
    condition     = config.environment.assets["kubernetes-node"].url == "https://dl.k8s.io/v1.18.3/kubernetes-node-linux-amd64.tar.gz"
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

run "a master installs the server tarball and the addon manager" {
  config "services.kubernetes" {
    roles         = ["master"]
    masterAddress = "master.example"
  }
  assert {
    condition     = config.environment.assets["kubernetes-server"].files["/opt/kubernetes/bin/kube-apiserver"] == "kubernetes/server/bin/kube-apiserver"
    error_message = "the apiserver from the server tarball"
  }
  assert {
    condition     = config.environment.assets["kubernetes-addon-manager"].files["/opt/kubernetes/bin/kube-addons"] == "cluster/addons/addon-manager/kube-addons.sh"
    error_message = "kube-addons from the source tarball"
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
}
