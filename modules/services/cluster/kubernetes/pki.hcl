# services.kubernetes.pki: certificates for every component, issued by a
# cfssl CA on the master ("easyCerts"). A port of the behaviour of nixpkgs'
# nixos/modules/services/cluster/kubernetes/pki.nix (2019-03, with
# "Stabilize services startup across machines"): cfssl-online.target is
# reached once the CA answers, from this host or across the network, and
# the components wait for their certificates.
#
# Where NixOS runs certmgr, which no distribution ships, every host runs
# nodegen itself: kube-certs.service runs "nodegen pki fetch" over one spec
# file per certificate (/etc/kubernetes/pki/specs/NAME.json), and
# kube-certs.timer runs it again every day to renew them. See
# docs/kubernetes-pki.md.

locals {
  top = config.services.kubernetes
  cfg = config.services.kubernetes.pki

  cfsslDataDir      = root.services.cfssl.dataDir
  cfsslAPITokenPath = "${local.cfsslDataDir}/apitoken.secret"
  # cfssl reads its auth key from the environment: Debian's cfssl 1.2.0 has
  # no "file:" auth keys. cfssl's preStart writes the file from the token.
  cfsslAPITokenEnv    = "${local.cfsslDataDir}/apitoken.env"
  certsAPITokenPath   = "${local.top.secretsPath}/apitoken.secret"
  cfsslAPITokenLength = 32
  cfsslCertPathPrefix = "${local.cfsslDataDir}/cfssl"
  cfsslCert           = "${local.cfsslCertPathPrefix}.pem"
  cfsslKey            = "${local.cfsslCertPathPrefix}-key.pem"
  cfsslBin            = "${root.services.cfssl.package}/bin"

  remote = "https://${local.top.masterAddress}:${root.services.cfssl.port}"

  csrCA    = "/etc/kubernetes/pki/ca-csr.json"
  csrCfssl = "/etc/kubernetes/pki/cfssl-csr.json"

  # nodegen pki fetch's specs, relative to /etc.
  specDir    = "kubernetes/pki/specs"
  specFields = ["C", "ST", "L", "O", "OU"]
  # The spec of each certificate, as nodegen pki fetch reads it.
  specs = {
    for n, c in local.cfg.certs : n => jsonencode({
      authority = {
        remote             = local.remote
        auth_key_file      = local.certsAPITokenPath
        profile            = "default"
        root_ca            = c.caCert
        trust_on_bootstrap = local.cfg.pkiTrustOnBootstrap
      }
      request = {
        CN    = c.CN
        names = length(c.fields) > 0 ? [c.fields] : []
        hosts = c.hosts
        key   = { algo = "rsa", size = 2048 }
      }
      certificate = { path = c.cert, mode = "0644" }
      private_key = {
        path  = c.key
        owner = c.privateKeyOwner
        group = "nogroup"
        mode  = "0600"
      }
      action = c.action
    })
  }
  badFields = {
    for n, c in local.cfg.certs : n => [for f, v in c.fields : f if !contains(local.specFields, f)]
    if length([for f, v in c.fields : f if !contains(local.specFields, f)]) > 0
  }
  addonManagerPaths = [
    local.cfg.certs.addonManager.cert,
    local.cfg.certs.addonManager.key,
    local.cfg.certs.clusterAdmin.cert,
    local.cfg.certs.clusterAdmin.key,
  ]
  flannelPaths   = [local.cfg.certs.flannelClient.cert, local.cfg.certs.flannelClient.key]
  proxyPaths     = [local.cfg.certs.kubeProxyClient.cert, local.cfg.certs.kubeProxyClient.key]
  schedulerPaths = [local.cfg.certs.schedulerClient.cert, local.cfg.certs.schedulerClient.key]

  withApiserver = local.cfg.enable && local.top.apiserver.enable
  # The CA runs on the master, or on the control plane's caHost
  # (control-plane.hcl); the other masters ask it, as the workers do.
  isCA = local.withApiserver && local.top.controlPlane.isCAHost
  ha   = local.top.controlPlane.enable
}

options "services.kubernetes.pki" {
  option "enable" {
    type        = bool
    default     = false
    example     = true
    description = "Whether to enable easyCert issuer service."
  }
  option "certs" {
    type        = attrsOf(submodule.kubernetesCert)
    default     = {}
    description = "List of certificate specs to feed to cert generator."
  }
  option "genCfsslCACert" {
    type        = bool
    default     = true
    description = <<-EOT
      Whether to automatically generate cfssl CA certificate and key,
      if they don't exist.
    EOT
  }
  option "genCfsslAPICerts" {
    type        = bool
    default     = true
    description = <<-EOT
      Whether to automatically generate cfssl API webserver TLS cert and key,
      if they don't exist.
    EOT
  }
  option "genCfsslAPIToken" {
    type        = bool
    default     = true
    description = <<-EOT
      Whether to automatically generate cfssl API-token secret,
      if they doesn't exist.
    EOT
  }
  option "pkiTrustOnBootstrap" {
    type        = bool
    default     = true
    description = "Whether to always trust remote cfssl server upon initial PKI bootstrap."
  }
  option "caCertPathPrefix" {
    type         = str
    default      = "${config.services.cfssl.dataDir}/ca"
    default_text = "services.cfssl.dataDir + \"/ca\""
    description  = <<-EOT
      Path-prefrix for the CA-certificate to be used for cfssl signing.
      Suffixes ".pem" and "-key.pem" will be automatically appended for
      the public and private keys respectively.
    EOT
  }
  option "caSpec" {
    type = attrs
    default = {
      CN = "kubernetes-cluster-ca"
      O  = "NixOS"
      OU = "services.kubernetes.pki.caSpec"
      L  = "auto-generated"
    }
    description = "Certificate specification for the auto-generated CAcert."
  }
  option "cfsslAPIExtraSANs" {
    type        = listOf(str)
    default     = []
    example     = ["master.example.com", "10.0.0.10"]
    description = <<-EOT
      Extra x509 Subject Alternative Names to be added to the cfssl API
      webserver TLS cert, besides services.kubernetes.masterAddress (the
      hosts verify the CA's server by the name they reach it at).
    EOT
  }
  option "etcClusterAdminKubeconfig" {
    type        = nullOr(str)
    default     = null
    description = <<-EOT
      Symlink a kubeconfig with cluster-admin privileges to environment path
      (/etc/<path>).
    EOT
  }
}

# The CA: cfssl on the master.
config "services.cfssl" {
  when    = local.isCA
  enable  = true
  address = "0.0.0.0"
  tlsCert = local.cfsslCert
  tlsKey  = local.cfsslKey
  # Holds no secret: the API token is a reference to a file.
  configFile = "/etc/kubernetes/pki/cfssl-config.json"
}

config "environment" {
  when = local.isCA
  etc = {
    "kubernetes/pki/ca-csr.json" = {
      origin = "services.kubernetes.pki.caSpec"
      text   = jsonencode({ key = { algo = "rsa", size = 2048 }, names = [local.cfg.caSpec] })
    }
    "kubernetes/pki/cfssl-csr.json" = {
      origin = "services.kubernetes.pki"
      text = jsonencode({
        key   = { algo = "rsa", size = 2048 }
        CN    = local.top.masterAddress
        hosts = concat([local.top.masterAddress], local.cfg.cfsslAPIExtraSANs)
      })
    }
    "kubernetes/pki/cfssl-config.json" = {
      origin = "services.kubernetes.pki"
      text = jsonencode({
        signing = {
          profiles = {
            default = {
              usages   = ["digital signature"]
              auth_key = "default"
              expiry   = "720h"
            }
          }
        }
        auth_keys = {
          default = {
            type = "standard"
            key  = "env:CFSSL_API_TOKEN"
          }
        }
      })
    }
  }
}

config "systemd.services.cfssl" {
  when = local.isCA
  preStart = join("\n", [
    "set -e",
    !local.cfg.genCfsslCACert ? "" : <<-EOT
      if [ ! -f "${local.cfg.caCertPathPrefix}.pem" ]; then
        ${local.cfsslBin}/cfssl genkey -initca ${local.csrCA} | \
          ${local.cfsslBin}/cfssljson -bare ${local.cfg.caCertPathPrefix}
      fi
    EOT
    ,
    !local.cfg.genCfsslAPICerts ? "" : <<-EOT
      if [ ! -f "${local.cfsslDataDir}/cfssl.pem" ]; then
        ${local.cfsslBin}/cfssl gencert -ca "${local.cfg.caCertPathPrefix}.pem" -ca-key "${local.cfg.caCertPathPrefix}-key.pem" ${local.csrCfssl} | \
          ${local.cfsslBin}/cfssljson -bare ${local.cfsslCertPathPrefix}
      fi
    EOT
    ,
    !local.cfg.genCfsslAPIToken ? "" : <<-EOT
      if [ ! -f "${local.cfsslAPITokenPath}" ]; then
        head -c ${local.cfsslAPITokenLength / 2} /dev/urandom | od -An -t x | tr -d ' ' >"${local.cfsslAPITokenPath}"
      fi
      chown cfssl "${local.cfsslAPITokenPath}" && chmod 400 "${local.cfsslAPITokenPath}"
    EOT
    ,
    # (Never an empty token: an empty HMAC key is anyone's.)
    <<-EOT
      token=$(cat "${local.cfsslAPITokenPath}")
      test -n "$token"
      (umask 077 && printf 'CFSSL_API_TOKEN=%s\n' "$token" >"${local.cfsslAPITokenEnv}")
    EOT
  ])
  # Read before ExecStart, after the preStart wrote it.
  serviceConfig = {
    EnvironmentFile = "-${local.cfsslAPITokenEnv}"
  }
}

# cfssl-online.target: the CA answers (here or on the master).
config "systemd.targets.cfssl-online" {
  when     = local.cfg.enable
  wantedBy = ["network-online.target"]
  after    = ["cfssl.service", "network-online.target", "cfssl-online.service"]
}

config "systemd.services.cfssl-online" {
  when        = local.cfg.enable
  description = "Wait for ${local.remote} to be reachable."
  wantedBy    = ["cfssl-online.target"]
  before      = ["cfssl-online.target"]
  path        = [local.top.toolsPackage]
  script      = "echo Ok"
  serviceConfig = {
    TimeoutSec = "300"
  }
}

config "services.kubernetes.lib.waitCurl.cfssl-online" {
  when    = local.cfg.enable
  address = local.remote
  path    = "/api/v1/cfssl/info"
  args    = "-kd '{}' -o /dev/null"
}

config "systemd.services.cfssl-online" {
  when     = local.cfg.enable
  preStart = local.top.lib.waitCurl.cfssl-online.script
}

# kube-certs.service keeps every certificate of this host: it runs nodegen
# pki fetch over the specs, retries while the CA cannot be reached (or the
# API token is not there yet), and runs again every day to renew what is
# in the last third of its validity. The components are not ordered after
# it: the actions of the specs restart them, and a restart that waited for
# the oneshot running it would never end; they wait for their files
# (services.kubernetes.lib.waitFiles) instead.
config "systemd.services.kube-certs" {
  when        = local.cfg.enable
  description = "Kubernetes certificates from the cfssl CA at ${local.remote}"
  wantedBy    = ["multi-user.target", "cfssl-online.target"]
  wants       = ["network-online.target"]
  after       = ["network-online.target", "cfssl-online.target"]
  serviceConfig = {
    Type            = "oneshot"
    ExecStart       = "${root.system.nodegen.path} pki fetch --spec-dir /etc/${local.specDir}"
    Restart         = "on-failure"
    RestartSec      = "5s"
    TimeoutStartSec = "10min"
  }
  # A switch that changes a spec runs it again.
  restartTriggers = [for n, t in local.specs : t]
  provides = {
    files = concat([local.top.caFile], flatten([for n, c in local.cfg.certs : [c.cert, c.key]]))
  }
}

config "systemd.timers.kube-certs" {
  when     = local.cfg.enable
  wantedBy = ["timers.target"]
  timerConfig = {
    OnCalendar         = "daily"
    Persistent         = true
    RandomizedDelaySec = "1h"
  }
}

# On the master, the API token is cfssl's own, and the CA certificate is
# the one cfssl signs with: neither needs the network.
config "systemd.services.kube-certs" {
  when     = local.isCA
  after    = ["cfssl.service"]
  path     = [local.top.toolsPackage]
  preStart = <<-EOT
    set -e
    mkdir -p "$(dirname "${local.certsAPITokenPath}")"
    ln -fs "${local.cfsslAPITokenPath}" "${local.certsAPITokenPath}"
    if [ ! -s "${local.top.caFile}" ]; then
      install -D -m 0644 "${local.cfg.caCertPathPrefix}.pem" "${local.top.caFile}"
    fi
  EOT
}

config "environment" {
  when = local.cfg.enable
  etc = {
    for n, c in local.cfg.certs : "${local.specDir}/${n}.json" => {
      origin = "services.kubernetes.pki.certs.${n}"
      text   = local.specs[n]
    }
  }
}

assert {
  condition = !local.cfg.enable || length(local.badFields) == 0
  message   = "services.kubernetes.pki.certs: a certificate's fields are subject fields among ${join(", ", local.specFields)}: ${join("; ", [for n, fs in local.badFields : "${n} has ${join(", ", fs)}"])}."
}

# The services start once their certificates are there.
config "services.kubernetes.lib.waitFiles" {
  when               = local.cfg.enable
  kube-addon-manager = mkIf(local.top.addonManager.enable, local.addonManagerPaths)
  flannel            = mkIf(local.top.flannel.enable, local.flannelPaths)
  kube-proxy         = mkIf(local.top.proxy.enable, local.proxyPaths)
  kube-scheduler     = mkIf(local.top.scheduler.enable, local.schedulerPaths)
}

# The cluster-admin kubeconfig: the bootstrap addons and flannel's RBAC
# bootstrap are applied with it.
config "services.kubernetes.kubeconfigs.cluster-admin" {
  when     = local.withApiserver
  server   = local.top.apiserverAddress
  certFile = local.cfg.certs.clusterAdmin.cert
  keyFile  = local.cfg.certs.clusterAdmin.key
  target   = local.cfg.etcClusterAdminKubeconfig != null ? local.cfg.etcClusterAdminKubeconfig : "kubernetes/pki/cluster-admin.kubeconfig"
}

# The addon manager applies the bootstrap addons with cluster-admin rights
# before it starts, and waits for the service account of kube-system.
config "systemd.services.kube-addon-manager" {
  when = local.cfg.enable && local.top.addonManager.enable && length(local.top.addonManager.bootstrapAddons) > 0
  preStart = join("", [
    "export KUBECONFIG=${local.top.kubeconfigs.cluster-admin.path}\n",
    # (until the apiserver answers: the components start together)
    "until ${local.top.package}/bin/kubectl apply ${join(" ", [for n, a in local.top.addonManager.bootstrapAddons : "-f /etc/kubernetes/bootstrap-addons/${n}.json"])}; do\n",
    "  echo 'applying the bootstrap addons, again in 2 s'; sleep 2\n",
    "done\n",
    # (The seed's ordering waits for kube-system's service account too.)
    local.top.onlineTargets ? "\n${local.top.lib.waitCurl.addon-manager.script}" : "",
  ])
}

config "services.kubernetes.lib.waitCurl.addon-manager" {
  when   = local.cfg.enable && local.top.addonManager.enable && local.top.onlineTargets
  path   = "/api/v1/namespaces/kube-system/serviceaccounts/default"
  cacert = local.top.caFile
  cert   = local.cfg.certs.addonManager.cert
  key    = local.cfg.certs.addonManager.key
}

config "systemd.services.kube-addon-manager" {
  when = local.cfg.enable && local.top.addonManager.enable
  serviceConfig = {
    PermissionsStartOnly = mkIf(length(local.top.addonManager.bootstrapAddons) > 0, true)
  }
}

# etcd of the master, on the loopback. (NixOS sets these on every host with
# easyCerts; nodegen only with the apiserver, which requests etcd's
# certificate.) The apiserver dials etcd.local, a name etcd's certificate
# covers: /etc/hosts maps it to the loopback, as NixOS does.
# easyCerts doesn't support multimaster clusters anyway atm.
config "services.etcd" {
  when                     = local.withApiserver && !local.ha
  listenClientUrls         = ["https://127.0.0.1:2379"]
  listenPeerUrls           = ["https://127.0.0.1:2380"]
  advertiseClientUrls      = ["https://etcd.local:2379"]
  initialCluster           = ["${local.top.masterAddress}=https://etcd.local:2380"]
  initialAdvertisePeerUrls = ["https://etcd.local:2380"]
  certFile                 = mkDefault(local.cfg.certs.etcd.cert)
  keyFile                  = mkDefault(local.cfg.certs.etcd.key)
  trustedCaFile            = mkDefault(local.cfg.certs.etcd.caCert)
}

config "networking" {
  when       = local.cfg.enable && config.services.etcd.enable
  extraHosts = "127.0.0.1 etcd.${local.top.addons.dns.clusterDomain} etcd.local\n"
}

# flannel: its kubeconfig, and it waits until a node has a pod CIDR.
config "services.kubernetes.kubeconfigs.flannel" {
  when     = local.cfg.enable && local.top.flannel.enable
  server   = local.top.apiserverAddress
  certFile = local.cfg.certs.flannelClient.cert
  keyFile  = local.cfg.certs.flannelClient.key
}

config "services.flannel" {
  when       = local.cfg.enable && local.top.flannel.enable
  kubeconfig = local.top.kubeconfigs.flannel.path
}

config "systemd.services.flannel" {
  when     = local.cfg.enable && local.top.flannel.enable
  preStart = local.top.lib.waitCurl.flannel.script
}

config "services.kubernetes.lib.waitCurl.flannel" {
  when   = local.cfg.enable && local.top.flannel.enable
  path   = "/api/v1/nodes"
  cacert = local.top.caFile
  cert   = local.cfg.certs.flannelClient.cert
  key    = local.cfg.certs.flannelClient.key
  args   = "-o - | grep podCIDR >/dev/null"
}

# Every component takes its certificates from here (its kubeconfig's client
# certificate: components.hcl).
config "services.kubernetes.apiserver" {
  when = local.withApiserver
  etcd = {
    servers  = mkIf(!local.ha, ["https://etcd.local:2379"])
    certFile = mkDefault(local.cfg.certs.apiserverEtcdClient.cert)
    keyFile  = mkDefault(local.cfg.certs.apiserverEtcdClient.key)
    caFile   = mkDefault(local.cfg.certs.apiserverEtcdClient.caCert)
  }
  clientCaFile          = mkDefault(local.cfg.certs.apiServer.caCert)
  tlsCertFile           = mkDefault(local.cfg.certs.apiServer.cert)
  tlsKeyFile            = mkDefault(local.cfg.certs.apiServer.key)
  serviceAccountKeyFile = mkIf(!local.ha, mkDefault(local.ha ? null : local.cfg.certs.serviceAccount.cert))
  kubeletClientCaFile   = mkDefault(local.cfg.certs.apiServer.caCert)
  kubeletClientCertFile = mkDefault(local.cfg.certs.apiserverKubeletClient.cert)
  kubeletClientKeyFile  = mkDefault(local.cfg.certs.apiserverKubeletClient.key)
}

config "services.kubernetes.controllerManager" {
  when                  = local.cfg.enable && local.top.controllerManager.enable
  serviceAccountKeyFile = mkIf(!local.ha, mkDefault(local.ha ? null : local.cfg.certs.serviceAccount.key))
  rootCaFile            = local.cfg.certs.controllerManagerClient.caCert
}

config "services.kubernetes.kubelet" {
  when         = local.cfg.enable && local.top.kubelet.enable
  clientCaFile = mkDefault(local.cfg.certs.kubelet.caCert)
  tlsCertFile  = mkDefault(local.cfg.certs.kubelet.cert)
  tlsKeyFile   = mkDefault(local.cfg.certs.kubelet.key)
}
