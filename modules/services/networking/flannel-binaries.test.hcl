# flanneld: the current release by default, its hash from the lock file.

run "the current flannel release takes its hash from the lock file" {
  config "services.flannel" {
    enable  = true
    network = "10.1.0.0/16"
  }
  config "environment" {
    assetLock = {
      "https://github.com/flannel-io/flannel/releases/download/v0.28.10/flanneld-amd64" = {
        size   = 1
        sha512 = "55555555555555555555555555555555555555555555555555555555555555555555555555555555555555555555555555555555555555555555555555555555"
      }
    }
  }
  assert {
    condition     = config.environment.assets.flannel.sha512 == "55555555555555555555555555555555555555555555555555555555555555555555555555555555555555555555555555555555555555555555555555555555" && config.environment.assets.flannel.sha256 == null
    error_message = "flanneld v0.28.10, checked against the lock's sha512"
  }
}

run "without a lock entry the current release is an error naming nodegen lock" {
  config "services.flannel" {
    enable  = true
    network = "10.1.0.0/16"
  }
  expect_error = "no hash of https://github.com/flannel-io/flannel/releases/download/v0.28.10/flanneld-amd64"
}

run "a release the library knows keeps its sha256" {
  config "services.flannel" {
    enable  = true
    network = "10.1.0.0/16"
  }
  config "services.flannel.release" { version = "0.14.0" }
  assert {
    condition     = config.environment.assets.flannel.sha256 == "47f039b97f2f1879fbb5aae972fb0f2e01124f55b29ade088976f34cd948c240" && config.environment.assets.flannel.sha512 == null
    error_message = "0.14.0's sha256, and no sha512 from anywhere"
  }
}

run "a host's hash and the lock's together are one hash too many" {
  config "services.flannel" {
    enable  = true
    network = "10.1.0.0/16"
  }
  config "environment.assets.flannel" {
    sha512 = "55555555555555555555555555555555555555555555555555555555555555555555555555555555555555555555555555555555555555555555555555555555"
  }
  config "services.flannel.release" { version = "0.14.0" }
  expect_error = "environment.assets.\"flannel\": give one hash, sha256 or sha512, not both."
}

run "assetMirrors takes URL prefixes" {
  config "environment" {
    assetMirrors = { "dl.k8s.io" = "http://mirror.lan/k8s" }
  }
  expect_error = "environment.assetMirrors: every prefix is an https://, http:// or file:/// URL; these are not: \"dl.k8s.io\"."
}

run "skipInstall leaves flanneld to the image" {
  config "services.flannel" {
    enable  = true
    network = "10.1.0.0/16"
  }
  config "services.flannel.release" { skipInstall = true }
  assert {
    condition     = !contains(keys(config.environment.assets), "flannel") && contains(config.environment.providedByImage, "/usr/bin/flannel")
    error_message = "no download, and the image provides the program the unit runs"
  }
}
