# Tests of the highly available control plane (control-plane.hcl).

run "the CA host: cfssl, an etcd member of three, the load balancer" {
  config "services.flannel.release" { version = "0.14.0" }
  config "services.kubernetes.release" { skipInstall = true }
  config "networking" { hostName = "m1" }
  config "services.kubernetes" {
    roles = ["master"]
    controlPlane = {
      members = [
        { name = "m1", address = "10.9.0.1" },
        { name = "m2", address = "10.9.0.2" },
        { name = "m3", address = "10.9.0.3" },
      ]
    }
  }

  assert {
    condition     = config.services.kubernetes.controlPlane.caHost == "m1" && config.services.kubernetes.masterAddress == "10.9.0.1" && config.services.cfssl.enable
    error_message = "the first member is the CA's host by default, and runs cfssl"
  }
  assert {
    condition     = config.services.etcd.initialCluster == ["m1=https://10.9.0.1:2380", "m2=https://10.9.0.2:2380", "m3=https://10.9.0.3:2380"] && config.services.etcd.name == "m1"
    error_message = "the initial cluster is the members"
  }
  assert {
    condition     = config.services.etcd.listenPeerUrls == ["https://10.9.0.1:2380"] && config.services.etcd.peerClientCertAuth && config.services.etcd.peerCertFile == "/var/lib/kubernetes/secrets/etcd.pem"
    error_message = "the peers talk TLS with easyCerts' certificates, on the member's address"
  }
  assert {
    condition     = config.services.kubernetes.apiserver.etcd.servers == ["https://10.9.0.1:2379", "https://10.9.0.2:2379", "https://10.9.0.3:2379"]
    error_message = "the apiserver talks to every etcd member"
  }
  assert {
    condition     = config.services.kubernetes.apiserverAddress == "https://127.0.0.1:6444" && config.services.kubernetes.kubelet.kubeconfig.server == "https://127.0.0.1:6444"
    error_message = "the components reach the apiservers through the local load balancer"
  }
  assert {
    condition     = strcontains(config.environment.etc["kubernetes/apiserver-lb.conf"].text, "    server 10.9.0.2:6443 max_fails=1 fail_timeout=10s;\n") && strcontains(config.environment.etc["kubernetes/apiserver-lb.conf"].text, "listen 127.0.0.1:6444;")
    error_message = "nginx balances over every member's apiserver"
  }
  assert {
    condition     = length(setsubtract(["m1", "m2", "m3", "10.9.0.1", "10.9.0.2", "10.9.0.3", "127.0.0.1"], config.services.kubernetes.pki.certs.apiServer.hosts)) == 0
    error_message = "the apiserver's certificate covers every member and the loopback"
  }
  assert {
    condition     = !contains(keys(config.services.kubernetes.pki.certs), "serviceAccount") && config.services.kubernetes.apiserver.serviceAccountSigningKeyFile == "/var/lib/kubernetes/secrets/service-account-signing-key.pem"
    error_message = "the masters share one ServiceAccount key, which no CA issues"
  }
  assert {
    condition     = config.environment.packages["libnginx-mod-stream"].enable && config.systemd.services.kube-apiserver-lb.enable
    error_message = "the load balancer is Debian's nginx with its stream module"
  }
}

run "another member asks the CA host" {
  config "services.flannel.release" { version = "0.14.0" }
  config "services.kubernetes.release" { skipInstall = true }
  config "networking" { hostName = "m2" }
  config "services.kubernetes" {
    roles = ["master"]
    controlPlane = {
      members = [{ name = "m1", address = "10.9.0.1" }, { name = "m2", address = "10.9.0.2" }, { name = "m3", address = "10.9.0.3" }]
      caHost  = "m1"
    }
  }

  assert {
    condition     = !config.services.cfssl.enable && config.services.etcd.enable && config.services.kubernetes.apiserver.advertiseAddress == "10.9.0.2"
    error_message = "no CA here: an etcd member and an apiserver on the member's address"
  }
  assert {
    condition     = jsondecode(config.environment.etc["kubernetes/pki/specs/etcd.json"].text).authority.remote == "https://10.9.0.1:8888"
    error_message = "certificates come from the CA host"
  }
}

run "a worker reaches the control plane through the load balancer" {
  config "services.flannel.release" { version = "0.14.0" }
  config "services.kubernetes.release" { skipInstall = true }
  config "networking" { hostName = "w1" }
  config "services.kubernetes" {
    roles = ["node"]
    controlPlane = {
      members = [{ name = "m1", address = "10.9.0.1" }, { name = "m2", address = "10.9.0.2" }, { name = "m3", address = "10.9.0.3" }]
    }
  }

  assert {
    condition     = !config.services.etcd.enable && config.services.kubernetes.kubelet.kubeconfig.server == "https://127.0.0.1:6444" && config.systemd.services.kube-apiserver-lb.enable
    error_message = "a worker runs the load balancer, and no etcd"
  }
}

run "a master that is not a member" {
  config "services.flannel.release" { version = "0.14.0" }
  config "services.kubernetes.release" { skipInstall = true }
  config "networking" { hostName = "m4" }
  config "services.kubernetes" {
    roles = ["master"]
    controlPlane = {
      members = [{ name = "m1", address = "10.9.0.1" }, { name = "m2", address = "10.9.0.2" }, { name = "m3", address = "10.9.0.3" }]
    }
  }
  expect_error = "this master's networking.hostName \"m4\" is not a member's name (the members: m1, m2, m3)"
}

run "a caHost that is not a member" {
  config "services.flannel.release" { version = "0.14.0" }
  config "services.kubernetes.release" { skipInstall = true }
  config "networking" { hostName = "w1" }
  config "services.kubernetes" {
    roles = ["node"]
    controlPlane = {
      members = [{ name = "m1", address = "10.9.0.1" }]
      caHost  = "ca"
    }
  }
  expect_error = "services.kubernetes.controlPlane.caHost: \"ca\" is not a member's name"
}

run "kube-proxy's modes" {
  config "services.flannel.release" { version = "0.14.0" }
  config "services.kubernetes.release" { skipInstall = true }
  config "services.kubernetes" {
    roles         = ["node"]
    masterAddress = "master.example.com"
    proxy         = { mode = "ipvs" }
  }

  assert {
    condition     = jsondecode(config.environment.etc["kubernetes/kube-proxy-config.json"].text).mode == "ipvs"
    error_message = "the mode goes to the configuration file"
  }
  assert {
    condition     = length([for w in config.warnings : w if startswith(w, "services.kubernetes.proxy.mode: the ipvs mode is deprecated since Kubernetes 1.35")]) == 1
    error_message = "ipvs is accepted with a warning"
  }
}

run "nftables mode brings nft" {
  config "services.flannel.release" { version = "0.14.0" }
  config "services.kubernetes.release" { skipInstall = true }
  config "services.kubernetes" {
    roles         = ["node"]
    masterAddress = "master.example.com"
    proxy         = { mode = "nftables" }
  }

  assert {
    condition     = jsondecode(config.environment.etc["kubernetes/kube-proxy-config.json"].text).mode == "nftables" && config.environment.packages.nftables.enable && length([for w in config.warnings : w if startswith(w, "services.kubernetes.proxy.mode")]) == 0
    error_message = "nftables, with Debian's nft, without a warning"
  }
}
