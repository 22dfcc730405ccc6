# The Kubernetes apiserver: a port of the behaviour of nixpkgs'
# nixos/modules/services/cluster/kubernetes/apiserver.nix (early 2019),
# started under kube-apiserver-online.target.

locals {
  top = config.services.kubernetes
  cfg = config.services.kubernetes.apiserver

  isRBACEnabled = contains(local.cfg.authorizationMode, "RBAC")

  apiserverServiceIP = "${join(".", slice(split(".", local.cfg.serviceClusterIpRange), 0, 3))}.1"

  authorizationPolicyFile = "kubernetes/kube-auth-policy.jsonl"

  apiserverPaths = distinct([for p in [
    local.cfg.clientCaFile,
    local.cfg.etcd.caFile,
    local.cfg.etcd.certFile,
    local.cfg.etcd.keyFile,
    local.cfg.kubeletClientCaFile,
    local.cfg.kubeletClientCertFile,
    local.cfg.kubeletClientKeyFile,
    local.cfg.serviceAccountKeyFile,
    local.cfg.tlsCertFile,
    local.cfg.tlsKeyFile,
  ] : p if p != null])

  etcdPaths = distinct([for p in [
    root.services.etcd.trustedCaFile,
    root.services.etcd.certFile,
    root.services.etcd.keyFile,
  ] : p if p != null])

  featureGates = join(",", [for g, on in local.cfg.featureGates : "${g}=${on}"])

  flags = [
    "--authorization-mode=${join(",", local.cfg.authorizationMode)}",
    contains(local.cfg.authorizationMode, "ABAC") ? "--authorization-policy-file=/etc/${local.authorizationPolicyFile}" : "",
    contains(local.cfg.authorizationMode, "Webhook") ? "--authorization-webhook-config-file=${local.cfg.webhookConfig}" : "",
    "--bind-address=${local.cfg.bindAddress}",
    local.cfg.advertiseAddress != null ? "--advertise-address=${local.cfg.advertiseAddress}" : "",
    local.cfg.clientCaFile != null ? "--client-ca-file=${local.cfg.clientCaFile}" : "",
    length(local.cfg.disableAdmissionPlugins) > 0 ? "--disable-admission-plugins=${join(",", local.cfg.disableAdmissionPlugins)}" : "",
    "--enable-admission-plugins=${join(",", local.cfg.enableAdmissionPlugins)}",
    "--etcd-servers=${join(",", local.cfg.etcd.servers)}",
    local.cfg.etcd.caFile != null ? "--etcd-cafile=${local.cfg.etcd.caFile}" : "",
    local.cfg.etcd.certFile != null ? "--etcd-certfile=${local.cfg.etcd.certFile}" : "",
    local.cfg.etcd.keyFile != null ? "--etcd-keyfile=${local.cfg.etcd.keyFile}" : "",
    length(local.cfg.featureGates) > 0 ? "--feature-gates=${local.featureGates}" : "",
    local.cfg.kubeletClientCaFile != null ? "--kubelet-certificate-authority=${local.cfg.kubeletClientCaFile}" : "",
    local.cfg.kubeletClientCertFile != null ? "--kubelet-client-certificate=${local.cfg.kubeletClientCertFile}" : "",
    local.cfg.kubeletClientKeyFile != null ? "--kubelet-client-key=${local.cfg.kubeletClientKeyFile}" : "",
    length(local.cfg.kubeletPreferredAddressTypes) > 0 ? "--kubelet-preferred-address-types=${join(",", local.cfg.kubeletPreferredAddressTypes)}" : "",
    local.cfg.proxyClientCertFile != null ? "--proxy-client-cert-file=${local.cfg.proxyClientCertFile}" : "",
    local.cfg.proxyClientKeyFile != null ? "--proxy-client-key-file=${local.cfg.proxyClientKeyFile}" : "",
    local.cfg.runtimeConfig != "" ? "--runtime-config=${local.cfg.runtimeConfig}" : "",
    "--secure-port=${local.cfg.securePort}",
    "--service-account-issuer=${local.cfg.serviceAccountIssuer}",
    local.cfg.serviceAccountKeyFile != null ? "--service-account-key-file=${local.cfg.serviceAccountKeyFile}" : "",
    local.cfg.serviceAccountSigningKeyFile != null ? "--service-account-signing-key-file=${local.cfg.serviceAccountSigningKeyFile}" : "",
    "--service-cluster-ip-range=${local.cfg.serviceClusterIpRange}",
    "--storage-backend=${local.cfg.storageBackend}",
    local.cfg.tlsCertFile != null ? "--tls-cert-file=${local.cfg.tlsCertFile}" : "",
    local.cfg.tlsKeyFile != null ? "--tls-private-key-file=${local.cfg.tlsKeyFile}" : "",
    local.cfg.tokenAuthFile != null ? "--token-auth-file=${local.cfg.tokenAuthFile}" : "",
    local.cfg.verbosity != null ? "--v=${local.cfg.verbosity}" : "",
    local.cfg.extraOpts,
  ]
}

options "services.kubernetes.apiserver" {
  # Also enable, extraOpts, featureGates, verbosity: see components.hcl.
  option "advertiseAddress" {
    type        = nullOr(host)
    default     = null
    description = <<-EOT
      Kubernetes apiserver IP address on which to advertise the apiserver
      to members of the cluster. This address must be reachable by the rest
      of the cluster.
    EOT
  }
  option "authorizationMode" {
    type        = listOf(enum(["AlwaysAllow", "AlwaysDeny", "ABAC", "Webhook", "RBAC", "Node"]))
    default     = ["RBAC", "Node"]
    description = <<-EOT
      Kubernetes apiserver authorization mode (AlwaysAllow/AlwaysDeny/ABAC/Webhook/RBAC/Node). See
      <https://kubernetes.io/docs/reference/access-authn-authz/authorization/>
    EOT
  }
  option "authorizationPolicy" {
    type        = listOf(attrs)
    default     = []
    description = <<-EOT
      Kubernetes apiserver authorization policy file. See
      <https://kubernetes.io/docs/reference/access-authn-authz/authorization/>
    EOT
  }
  option "bindAddress" {
    type        = host
    default     = "0.0.0.0"
    description = <<-EOT
      The IP address on which to listen for the --secure-port port.
      The associated interface(s) must be reachable by the rest
      of the cluster, and by CLI/web clients.
    EOT
  }
  option "clientCaFile" {
    type         = nullOr(path)
    default      = root.services.kubernetes.caFile
    default_text = "services.kubernetes.caFile"
    description  = "Kubernetes apiserver CA file for client auth."
  }
  option "disableAdmissionPlugins" {
    type        = listOf(word)
    default     = []
    description = <<-EOT
      Kubernetes admission control plugins to disable. See
      <https://kubernetes.io/docs/admin/admission-controllers/>
    EOT
  }
  option "enableAdmissionPlugins" {
    type = listOf(word)
    default = [
      "NamespaceLifecycle", "LimitRanger", "ServiceAccount",
      "ResourceQuota", "DefaultStorageClass", "DefaultTolerationSeconds",
      "NodeRestriction",
    ]
    example = [
      "NamespaceLifecycle", "NamespaceExists", "LimitRanger",
      "SecurityContextDeny", "ServiceAccount", "ResourceQuota",
      "PodSecurityPolicy", "NodeRestriction", "DefaultStorageClass",
    ]
    description = <<-EOT
      Kubernetes admission control plugins to enable. See
      <https://kubernetes.io/docs/admin/admission-controllers/>
    EOT
  }
  option "etcd.servers" {
    type        = listOf(word)
    default     = ["http://127.0.0.1:2379"]
    description = "List of etcd servers."
  }
  option "etcd.keyFile" {
    type        = nullOr(path)
    default     = null
    description = "Etcd key file."
  }
  option "etcd.certFile" {
    type        = nullOr(path)
    default     = null
    description = "Etcd cert file."
  }
  option "etcd.caFile" {
    type         = nullOr(path)
    default      = root.services.kubernetes.caFile
    default_text = "services.kubernetes.caFile"
    description  = "Etcd ca file."
  }
  option "extraSANs" {
    type        = listOf(host)
    default     = []
    description = "Extra x509 Subject Alternative Names to be added to the kubernetes apiserver tls cert."
  }
  option "kubeletClientCaFile" {
    type         = nullOr(path)
    default      = root.services.kubernetes.caFile
    default_text = "services.kubernetes.caFile"
    description  = "Path to a cert file for connecting to kubelet."
  }
  option "kubeletClientCertFile" {
    type        = nullOr(path)
    default     = null
    description = "Client certificate to use for connections to kubelet."
  }
  option "kubeletClientKeyFile" {
    type        = nullOr(path)
    default     = null
    description = "Key to use for connections to kubelet."
  }
  option "proxyClientCertFile" {
    type        = nullOr(path)
    default     = null
    description = "Client certificate to use for connections to proxy."
  }
  option "proxyClientKeyFile" {
    type        = nullOr(path)
    default     = null
    description = "Key to use for connections to proxy."
  }
  option "runtimeConfig" {
    type        = singleLineStr
    default     = ""
    example     = "api/all=false,api/v1=true"
    description = <<-EOT
      Api runtime configuration. See
      <https://kubernetes.io/docs/tasks/administer-cluster/cluster-management/>
    EOT
  }
  option "storageBackend" {
    type        = enum(["etcd3"])
    default     = "etcd3"
    description = "Kubernetes apiserver storage backend."
  }
  option "securePort" {
    type        = int
    default     = 6443
    description = "Kubernetes apiserver secure port."
  }
  option "serviceAccountKeyFile" {
    type        = nullOr(path)
    default     = null
    description = <<-EOT
      Kubernetes apiserver PEM-encoded x509 RSA private or public key file,
      used to verify ServiceAccount tokens (--service-account-key-file).
      With easyCerts, the service-account certificate.
    EOT
  }
  option "serviceAccountSigningKeyFile" {
    type        = nullOr(path)
    default     = null
    description = <<-EOT
      The private key the apiserver signs ServiceAccount tokens with
      (--service-account-signing-key-file; required since Kubernetes 1.20).
      With easyCerts, the service-account key.
    EOT
  }
  option "serviceAccountIssuer" {
    type        = word
    default     = "https://kubernetes.default.svc"
    description = "The issuer of the ServiceAccount tokens (--service-account-issuer; required since Kubernetes 1.20)."
  }
  option "kubeletPreferredAddressTypes" {
    type        = listOf(enum(["Hostname", "InternalDNS", "InternalIP", "ExternalDNS", "ExternalIP"]))
    default     = ["InternalIP", "ExternalIP", "Hostname"]
    description = "The node address types the apiserver connects to kubelets by, in order (--kubelet-preferred-address-types): the node's IP first, so that logs and exec work without DNS for node names."
  }
  option "serviceClusterIpRange" {
    type        = word
    default     = "10.0.0.0/24"
    description = <<-EOT
      A CIDR notation IP range from which to assign service cluster IPs.
      This must not overlap with any IP ranges assigned to nodes for pods.
    EOT
  }
  option "tlsCertFile" {
    type        = nullOr(path)
    default     = null
    description = "Kubernetes apiserver certificate file."
  }
  option "tlsKeyFile" {
    type        = nullOr(path)
    default     = null
    description = "Kubernetes apiserver private key file."
  }
  option "tokenAuthFile" {
    type        = nullOr(path)
    default     = null
    description = <<-EOT
      Kubernetes apiserver token authentication file. See
      <https://kubernetes.io/docs/reference/access-authn-authz/authentication>
    EOT
  }
  option "webhookConfig" {
    type        = nullOr(path)
    default     = null
    description = <<-EOT
      Kubernetes apiserver Webhook config file. It uses the kubeconfig file format.
      See <https://kubernetes.io/docs/reference/access-authn-authz/webhook/>
    EOT
  }
}

config "systemd.services.kube-apiserver" {
  when        = local.cfg.enable
  description = "Kubernetes APIServer Service"
  wantedBy    = ["kubernetes.target"]
  after       = ["network.target", "etcd.service"]
  serviceConfig = {
    # The apiserver tells systemd when it listens (sd_notify READY=1), so
    # that the units ordered after it (the controller manager, the
    # scheduler) start once it answers.
    Type                = "notify"
    Slice               = "kubernetes.slice"
    ExecStart           = join(" ", concat(["${local.top.package}/bin/kube-apiserver"], [for f in local.flags : f if f != ""]))
    WorkingDirectory    = local.top.dataDir
    User                = "kubernetes"
    Group               = "kubernetes"
    AmbientCapabilities = "cap_net_bind_service"
    Restart             = "on-failure"
    RestartSec          = 5
  }
  # Where it answers: its bind addresses, and the address it advertises to
  # the cluster, which is this host's.
  provides = {
    urls = [for a in compact([local.cfg.bindAddress, local.cfg.advertiseAddress == null ? "" : local.cfg.advertiseAddress]) :
    "https://${strcontains(a, ":") ? "[${a}]" : a}:${local.cfg.securePort}"]
  }
}

config "services.kubernetes.lib.waitFiles" {
  when           = local.cfg.enable
  kube-apiserver = local.apiserverPaths
  # etcd waits for its certificates too. (NixOS adds this whenever the
  # apiserver is enabled, which writes an etcd.service stub on a host with an
  # external etcd; nodegen only when services.etcd is enabled.)
  etcd = mkIf(root.services.etcd.enable, local.etcdPaths)
}

config "environment.etc.\"kubernetes/kube-auth-policy.jsonl\"" {
  when   = local.cfg.enable && contains(local.cfg.authorizationMode, "ABAC")
  text   = join("\n", [for l in local.cfg.authorizationPolicy : jsonencode(l)])
  origin = "services.kubernetes.apiserver.authorizationPolicy"
}

config "services.etcd" {
  when                     = local.cfg.enable
  clientCertAuth           = mkDefault(true)
  peerClientCertAuth       = mkDefault(true)
  listenClientUrls         = mkDefault(["https://0.0.0.0:2379"])
  listenPeerUrls           = mkDefault(["https://0.0.0.0:2380"])
  advertiseClientUrls      = mkDefault(["https://${local.top.masterAddress}:2379"])
  initialCluster           = mkDefault(["${local.top.masterAddress}=https://${local.top.masterAddress}:2380"])
  name                     = mkDefault(local.top.masterAddress)
  initialAdvertisePeerUrls = mkDefault(["https://${local.top.masterAddress}:2380"])
}

config "services.kubernetes.addonManager.bootstrapAddons" {
  when = local.cfg.enable && local.isRBACEnabled
  apiserver-kubelet-api-admin-crb = {
    apiVersion = "rbac.authorization.k8s.io/v1"
    kind       = "ClusterRoleBinding"
    metadata = {
      name = "system:kube-apiserver:kubelet-api-admin"
    }
    roleRef = {
      apiGroup = "rbac.authorization.k8s.io"
      kind     = "ClusterRole"
      name     = "system:kubelet-api-admin"
    }
    subjects = [{
      kind = "User"
      name = "system:kube-apiserver"
    }]
  }
}

config "services.kubernetes.pki.certs" {
  when = local.cfg.enable
  apiServer = {
    name = "kube-apiserver"
    CN   = "kubernetes"
    hosts = distinct(concat([for h in [
      "kubernetes.default.svc",
      "kubernetes.default.svc.${local.top.addons.dns.clusterDomain}",
      local.cfg.advertiseAddress,
      local.top.masterAddress,
      local.apiserverServiceIP,
      "127.0.0.1",
    ] : h if h != null], local.cfg.extraSANs))
    action = "systemctl --no-block restart kube-apiserver.service"
  }
  apiserverProxyClient = {
    name   = "kube-apiserver-proxy-client"
    CN     = "front-proxy-client"
    action = "systemctl --no-block restart kube-apiserver.service"
  }
  # In system:masters, as kubeadm's apiserver-kubelet-client is (in a
  # group bound to cluster-admin): logs, exec and port-forward reach every
  # kubelet without the bootstrap addons' role binding, which needs the
  # addon manager.
  apiserverKubeletClient = {
    name   = "kube-apiserver-kubelet-client"
    CN     = "system:kube-apiserver"
    fields = { O = "system:masters" }
    action = "systemctl --no-block restart kube-apiserver.service"
  }
  apiserverEtcdClient = {
    name   = "kube-apiserver-etcd-client"
    CN     = "etcd-client"
    action = "systemctl --no-block restart kube-apiserver.service"
  }
  clusterAdmin = {
    name            = "cluster-admin"
    CN              = "cluster-admin"
    fields          = { O = "system:masters" }
    privateKeyOwner = "root"
  }
  etcd = {
    name = "etcd"
    CN   = mkDefault(local.top.masterAddress)
    hosts = [for h in [
      "etcd.local",
      "etcd.${local.top.addons.dns.clusterDomain}",
      local.top.masterAddress,
      local.cfg.advertiseAddress,
    ] : h if h != null]
    privateKeyOwner = "etcd"
    action          = "systemctl --no-block restart etcd.service"
  }
}

# The seed's startup ordering (services.kubernetes.onlineTargets).
config "systemd.services.kube-apiserver" {
  when     = local.cfg.enable && local.top.onlineTargets
  wantedBy = ["kube-apiserver-online.target"]
  after    = ["certmgr.service"]
  before   = ["kube-apiserver-online.target"]
}

# easyCerts signs the ServiceAccount tokens with the service-account key.
config "services.kubernetes.apiserver" {
  when                         = local.cfg.enable && local.top.pki.enable && !local.top.controlPlane.enable
  serviceAccountSigningKeyFile = mkDefault(local.top.pki.certs.serviceAccount.key)
}

removed_option "services.kubernetes.apiserver.allowPrivileged" {
  message = "The apiserver's --allow-privileged flag is gone: privileged pods are restricted by Pod Security admission (Kubernetes 1.25 removed PodSecurityPolicy)."
}
removed_option "services.kubernetes.apiserver.basicAuthFile" {
  message = "The apiserver's --basic-auth-file was removed in Kubernetes 1.19: use client certificates (easyCerts) or tokenAuthFile."
}
removed_option "services.kubernetes.apiserver.insecureBindAddress" {
  message = "The apiserver's insecure port was removed in Kubernetes 1.24 (--insecure-bind-address): every client uses the secure port."
}
removed_option "services.kubernetes.apiserver.insecurePort" {
  message = "The apiserver's insecure port was removed in Kubernetes 1.24 (--insecure-port): every client uses the secure port."
}
removed_option "services.kubernetes.apiserver.kubeletHttps" {
  message = "The apiserver's --kubelet-https flag was removed in Kubernetes 1.22: the apiserver always talks HTTPS to kubelets."
}
