# Tests of easyCerts (pki.hcl): the specs nodegen pki fetch reads, and the
# unit and timer that run it.

run "a node's certificates" {
  # flanneld from a release whose hash the library knows
  config "services.flannel.release" { version = "0.14.0" }
  config "services.kubernetes.release" { skipInstall = true }
  config "services.kubernetes" {
    roles         = ["node"]
    masterAddress = "master.example.com"
  }

  assert {
    condition     = join(" ", sort(keys(config.services.kubernetes.pki.certs))) == "flannelClient kubeProxyClient kubelet kubeletClient"
    error_message = "a node keeps the certificates of its kubelet, proxy and flannel"
  }
  assert {
    condition = jsondecode(config.environment.etc["kubernetes/pki/specs/kubeletClient.json"].text) == {
      authority = {
        remote             = "https://master.example.com:8888"
        auth_key_file      = "/var/lib/kubernetes/secrets/apitoken.secret"
        profile            = "default"
        root_ca            = "/var/lib/kubernetes/secrets/ca.pem"
        trust_on_bootstrap = true
      }
      request = {
        CN    = "system:node:${config.networking.hostName}"
        names = [{ O = "system:nodes" }]
        hosts = []
        key   = { algo = "rsa", size = 2048 }
      }
      certificate = { path = "/var/lib/kubernetes/secrets/kubelet-client.pem", mode = "0644" }
      private_key = { path = "/var/lib/kubernetes/secrets/kubelet-client-key.pem", owner = "kubernetes", group = "nogroup", mode = "0600" }
      action      = "systemctl --no-block restart kubelet.service"
    }
    error_message = "each certificate is a spec file for nodegen pki fetch"
  }
  assert {
    condition     = config.systemd.services.kube-certs.serviceConfig.ExecStart == "/var/lib/nodegen/bin/nodegen pki fetch --spec-dir /etc/kubernetes/pki/specs" && config.systemd.services.kube-certs.serviceConfig.Restart == "on-failure"
    error_message = "kube-certs.service runs nodegen over the specs (the copy nodegen switch keeps of itself), and retries"
  }
  assert {
    condition     = contains(config.environment.basePrograms, "/var/lib/nodegen/bin/nodegen") && !contains(config.environment.providedByImage, "/var/lib/nodegen/bin/nodegen")
    error_message = "every switch brings that copy: it is not the image's"
  }
  assert {
    condition     = contains(config.environment.systemPackages, "curl")
    error_message = "the wait loop for the CA runs curl, from Debian's package"
  }
  assert {
    condition     = !strcontains(config.environment.etc.hosts.text, "etcd.local")
    error_message = "a node runs no etcd: etcd.local is the master's"
  }
  assert {
    condition     = config.systemd.timers.kube-certs.timerConfig.OnCalendar == "daily" && config.systemd.timers.kube-certs.wantedBy == ["timers.target"]
    error_message = "kube-certs.timer renews them daily"
  }
  assert {
    condition     = !contains(keys(config.systemd.services), "cfssl") && !contains(keys(config.environment.packages), "golang-cfssl")
    error_message = "a node needs neither the CA nor its tools"
  }
}

run "nodegen elsewhere" {
  # flanneld from a release whose hash the library knows
  config "services.flannel.release" { version = "0.14.0" }
  config "services.kubernetes.release" { skipInstall = true }
  config "services.kubernetes" {
    roles         = ["node"]
    masterAddress = "master.example.com"
  }
  config "system.nodegen" {
    path = "/opt/bin/nodegen"
  }

  assert {
    condition     = startswith(config.systemd.services.kube-certs.serviceConfig.ExecStart, "/opt/bin/nodegen pki fetch ") && contains(config.environment.providedByImage, "/opt/bin/nodegen")
    error_message = "the unit runs nodegen from system.nodegen.path, which the image provides (and switch checks)"
  }
  assert {
    condition     = !contains(config.environment.basePrograms, "/var/lib/nodegen/bin/nodegen")
    error_message = "nodegen's own copy is not what the unit runs"
  }
}

run "the master's CA" {
  # flanneld from a release whose hash the library knows
  config "services.flannel.release" { version = "0.14.0" }
  config "services.kubernetes.release" { skipInstall = true }
  config "services.kubernetes" {
    roles         = ["master"]
    masterAddress = "master.example.com"
  }
  config "services.kubernetes.pki" {
    cfsslAPIExtraSANs = ["10.0.0.10"]
  }

  assert {
    condition     = jsondecode(config.environment.etc["kubernetes/pki/cfssl-csr.json"].text).hosts == ["master.example.com", "10.0.0.10"]
    error_message = "cfssl's TLS certificate names the master's address and the extra SANs"
  }
  assert {
    condition     = jsondecode(config.environment.etc["kubernetes/pki/cfssl-config.json"].text).auth_keys.default == { type = "standard", key = "env:CFSSL_API_TOKEN" }
    error_message = "cfssl 1.2.0 reads its auth key from the environment"
  }
  assert {
    condition     = config.systemd.services.cfssl.serviceConfig.EnvironmentFile == "-/var/lib/cfssl/apitoken.env" && config.services.cfssl.caKey == "/var/lib/cfssl/ca-key.pem"
    error_message = "which its preStart writes, and its CA key is a plain file name"
  }
  assert {
    condition     = strcontains(config.systemd.services.kube-certs.preStart, "ln -fs \"/var/lib/cfssl/apitoken.secret\" \"/var/lib/kubernetes/secrets/apitoken.secret\"")
    error_message = "the master's own hosts use cfssl's token"
  }
}

run "the master resolves etcd's name" {
  # flanneld from a release whose hash the library knows
  config "services.flannel.release" { version = "0.14.0" }
  config "services.kubernetes.release" { skipInstall = true }
  config "services.kubernetes" {
    roles         = ["master"]
    masterAddress = "master.example.com"
  }

  assert {
    condition     = config.services.kubernetes.apiserver.etcd.servers == ["https://etcd.local:2379"] && contains(config.services.kubernetes.pki.certs.etcd.hosts, "etcd.local")
    error_message = "the apiserver dials etcd.local, which etcd's certificate names"
  }
  assert {
    condition     = endswith(config.environment.etc.hosts.text, "\n127.0.0.1 etcd.cluster.local etcd.local\n")
    error_message = "/etc/hosts maps etcd's names to the loopback etcd listens on, as NixOS's networking.extraHosts"
  }
}

run "a subject field certificates cannot have" {
  config "services.kubernetes.release" { skipInstall = true }
  config "services.kubernetes" {
    roles         = ["node"]
    masterAddress = "master.example.com"
  }
  config "services.kubernetes.pki.certs.extra" {
    CN     = "extra"
    fields = { O = "ok", CommonName = "no" }
  }
  expect_error = "extra has CommonName"
}

run "certmgr is retired" {
  config "services.kubernetes.release" { skipInstall = true }
  config "services.certmgr" {
    enable = true
  }
  expect_error = "nodegen keeps the certificates of services.kubernetes.pki.certs itself"
}
