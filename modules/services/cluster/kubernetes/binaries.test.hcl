# The release tarballs: downloaded only with a hash (the library's, the
# host's, or nodegen.lock.hcl's through environment.assetLock), from
# dl.k8s.io or a mirror. flannel is off where it is not the subject: its
# binary is another asset.

run "the default release has no known hash: the error says to run nodegen lock" {
  config "services.kubernetes" {
    roles         = ["node"]
    masterAddress = "master.example"
    flannel       = { enable = false }
  }
  expect_error = "environment.assets.\"kubernetes-node\": no hash of https://dl.k8s.io/v1.37.2/kubernetes-node-linux-amd64.tar.gz: neither the library nor the host pins one, and no nodegen.lock.hcl beside the host files has an entry for it. Run `nodegen lock HOST.hcl`"
}

run "another version without a known hash is an error, never the old hash" {
  config "services.kubernetes" {
    roles         = ["master"]
    masterAddress = "master.example"
    flannel       = { enable = false }
  }
  config "services.kubernetes.release" { version = "1.31.4" }
  expect_error = "no hash of https://dl.k8s.io/v1.31.4/kubernetes-server-linux-amd64.tar.gz"
}

run "a lock entry gives the tarball its sha512" {
  config "services.kubernetes" {
    roles         = ["node"]
    masterAddress = "master.example"
    flannel       = { enable = false }
  }
  config "environment" {
    assetLock = {
      "https://dl.k8s.io/v1.37.2/kubernetes-node-linux-amd64.tar.gz" = {
        size   = 123
        sha512 = "44444444444444444444444444444444444444444444444444444444444444444444444444444444444444444444444444444444444444444444444444444444"
      }
    }
  }
  assert {
    condition     = config.environment.assets["kubernetes-node"].sha512 == "44444444444444444444444444444444444444444444444444444444444444444444444444444444444444444444444444444444444444444444444444444444" && config.environment.assets["kubernetes-node"].sha256 == null
    error_message = "the lock's sha512 of the node tarball's URL"
  }
  assert {
    condition     = config.services.kubernetes.release.nodeSha512 == null
    error_message = "the release's option keeps what the library or the host says"
  }
}

run "a lock entry of another release is never used" {
  config "services.kubernetes" {
    roles         = ["node"]
    masterAddress = "master.example"
    flannel       = { enable = false }
  }
  config "environment" {
    assetLock = {
      "https://dl.k8s.io/v1.37.1/kubernetes-node-linux-amd64.tar.gz" = {
        size   = 123
        sha512 = "44444444444444444444444444444444444444444444444444444444444444444444444444444444444444444444444444444444444444444444444444444444"
      }
    }
  }
  expect_error = "no hash of https://dl.k8s.io/v1.37.2/kubernetes-node-linux-amd64.tar.gz"
}

run "the host's hash wins over the lock's" {
  config "services.kubernetes" {
    roles         = ["node"]
    masterAddress = "master.example"
    flannel       = { enable = false }
  }
  config "services.kubernetes.release" {
    nodeSha512 = "11111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111"
  }
  config "environment" {
    assetLock = {
      "https://dl.k8s.io/v1.37.2/kubernetes-node-linux-amd64.tar.gz" = {
        size   = 123
        sha512 = "44444444444444444444444444444444444444444444444444444444444444444444444444444444444444444444444444444444444444444444444444444444"
      }
    }
  }
  assert {
    condition     = startswith(config.environment.assets["kubernetes-node"].sha512, "1111")
    error_message = "the host's nodeSha512"
  }
}

run "a node installs the node tarball" {
  config "services.kubernetes" {
    roles         = ["node"]
    masterAddress = "master.example"
    flannel       = { enable = false }
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
    flannel       = { enable = false }
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

run "the library's known releases keep their hashes" {
  config "services.kubernetes" {
    roles         = ["node"]
    masterAddress = "master.example"
    flannel       = { enable = false }
  }
  config "services.kubernetes.release" { version = "1.18.3" }
  assert {
    condition     = startswith(config.environment.assets["kubernetes-node"].sha512, "1027a6fc")
    error_message = "1.18.3's published hash"
  }
}

run "1.36.0's published hashes" {
  config "services.kubernetes" {
    roles         = ["master"]
    masterAddress = "master.example"
    flannel       = { enable = false }
  }
  config "services.kubernetes.release" { version = "1.36.0" }
  assert {
    condition     = startswith(config.environment.assets["kubernetes-server"].sha512, "1c64da92") && startswith(config.environment.assets["kubernetes-addon-manager"].sha512, "0b2c28c5")
    error_message = "the server and source tarballs of CHANGELOG-1.36.md"
  }
}

run "1.35.4's published hashes" {
  config "services.kubernetes" {
    roles         = ["node"]
    masterAddress = "master.example"
    flannel       = { enable = false }
  }
  config "services.kubernetes.release" { version = "1.35.4" }
  assert {
    condition     = startswith(config.environment.assets["kubernetes-node"].sha512, "bfdde7cb")
    error_message = "the node tarball of CHANGELOG-1.35.md"
  }
}

run "skipInstall leaves the binaries to the image" {
  config "services.kubernetes" {
    roles         = ["node"]
    masterAddress = "master.example"
    flannel       = { enable = false }
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

run "iproute2 provides ip" {
  config "services.flannel.release" { version = "0.14.0" }
  config "services.kubernetes.release" { skipInstall = true }
  config "services.kubernetes" {
    roles         = ["node"]
    masterAddress = "master.example.com"
  }
  assert {
    condition     = contains(config.environment.packages.iproute2.provides, "/usr/sbin/ip") && contains(config.environment.packages.iproute2.provides, "/bin/ip")
    error_message = "the node's host tools: ip is iproute2's"
  }
}
