# The cluster DNS addon (CoreDNS): a port of the behaviour of nixpkgs'
# nixos/modules/services/cluster/kubernetes/addons/dns.nix, with a current
# CoreDNS (1.12: EndpointSlices, `forward` instead of `proxy`) and apps/v1.
# The CoreDNS image comes from its registry, or, with coredns.archive set,
# from an image archive the kubelet imports into containerd (NixOS builds
# one with dockerTools.pullImage).

locals {
  dns   = config.services.kubernetes.addons.dns
  ports = { dns = 10053, health = 10054, metrics = 10055 }
  labels = {
    "addonmanager.kubernetes.io/mode" = "Reconcile"
    k8s-app                           = "kube-dns"
    "kubernetes.io/cluster-service"   = "true"
  }
}

options "services.kubernetes.addons.dns" {
  option "enable" {
    type        = bool
    default     = false
    example     = true
    description = "Whether to enable kubernetes dns addon."
  }
  option "clusterIp" {
    type = str
    # this default is also what kubernetes uses
    default      = "${join(".", slice(split(".", config.services.kubernetes.apiserver.serviceClusterIpRange), 0, 3))}.254"
    default_text = "the x.y.z.254 address of services.kubernetes.apiserver.serviceClusterIpRange"
    description  = "Dns addon clusterIP"
  }
  option "clusterDomain" {
    type        = str
    default     = "cluster.local"
    description = "Dns cluster domain"
  }
  option "replicas" {
    type        = int
    default     = 2
    description = "Number of DNS pod replicas to deploy in the cluster."
  }
  option "coredns" {
    type        = submodule.kubernetesDockerImage
    default     = {}
    description = "Docker image to seed for the CoreDNS container."
  }
}

config "services.kubernetes.addons.dns.coredns" {
  imageName     = mkDefault("registry.k8s.io/coredns/coredns")
  finalImageTag = mkDefault("v1.12.1")
}

# A container image: its name and tag, and optionally the archive (docker
# save or OCI format) the kubelet imports it from before it starts; without
# one, containerd pulls it.
submodule "kubernetesDockerImage" {
  option "imageName" {
    type        = str
    description = "Name of the image, as pods refer to it."
  }
  option "finalImageTag" {
    type        = str
    default     = "latest"
    description = "Tag of the image."
  }
  option "archive" {
    type        = nullOr(package)
    default     = null
    example     = "/opt/kubernetes/images/coredns-v1.12.1.tar"
    description = "An image archive (docker save or OCI format) the kubelet imports into containerd before it starts; null pulls the image from its registry."
  }
}

config "services.kubernetes.kubelet" {
  when             = local.dns.enable
  seedDockerImages = local.dns.coredns.archive == null ? [] : [local.dns.coredns.archive]
  clusterDns       = mkDefault([local.dns.clusterIp])
}

config "services.kubernetes.addonManager.bootstrapAddons" {
  when = local.dns.enable
  coredns-cr = {
    apiVersion = "rbac.authorization.k8s.io/v1"
    kind       = "ClusterRole"
    metadata = {
      labels = merge(local.labels, { "kubernetes.io/bootstrapping" = "rbac-defaults" })
      name   = "system:coredns"
    }
    rules = [
      {
        apiGroups = [""]
        resources = ["endpoints", "services", "pods", "namespaces"]
        verbs     = ["list", "watch"]
      },
      {
        apiGroups = [""]
        resources = ["nodes"]
        verbs     = ["get"]
      },
      {
        apiGroups = ["discovery.k8s.io"]
        resources = ["endpointslices"]
        verbs     = ["list", "watch"]
      },
    ]
  }
  coredns-crb = {
    apiVersion = "rbac.authorization.k8s.io/v1"
    kind       = "ClusterRoleBinding"
    metadata = {
      annotations = { "rbac.authorization.kubernetes.io/autoupdate" = "true" }
      labels      = merge(local.labels, { "kubernetes.io/bootstrapping" = "rbac-defaults" })
      name        = "system:coredns"
    }
    roleRef = {
      apiGroup = "rbac.authorization.k8s.io"
      kind     = "ClusterRole"
      name     = "system:coredns"
    }
    subjects = [{
      kind      = "ServiceAccount"
      name      = "coredns"
      namespace = "kube-system"
    }]
  }
}

config "services.kubernetes.addonManager.addons" {
  when = local.dns.enable
  coredns-sa = {
    apiVersion = "v1"
    kind       = "ServiceAccount"
    metadata = {
      labels    = local.labels
      name      = "coredns"
      namespace = "kube-system"
    }
  }
  coredns-cm = {
    apiVersion = "v1"
    kind       = "ConfigMap"
    metadata = {
      labels    = local.labels
      name      = "coredns"
      namespace = "kube-system"
    }
    data = {
      Corefile = <<-EOT
        .:${local.ports.dns} {
          errors
          health :${local.ports.health}
          kubernetes ${local.dns.clusterDomain} in-addr.arpa ip6.arpa {
            pods insecure
            fallthrough in-addr.arpa ip6.arpa
          }
          prometheus :${local.ports.metrics}
          forward . /etc/resolv.conf
          cache 30
          loop
          reload
          loadbalance
        }
      EOT
    }
  }
  coredns-deploy = {
    apiVersion = "apps/v1"
    kind       = "Deployment"
    metadata = {
      labels    = merge(local.labels, { "kubernetes.io/name" = "CoreDNS" })
      name      = "coredns"
      namespace = "kube-system"
    }
    spec = {
      replicas = local.dns.replicas
      selector = { matchLabels = { k8s-app = "kube-dns" } }
      strategy = {
        rollingUpdate = { maxUnavailable = 1 }
        type          = "RollingUpdate"
      }
      template = {
        metadata = { labels = { k8s-app = "kube-dns" } }
        spec = {
          containers = [{
            args            = ["-conf", "/etc/coredns/Corefile"]
            image           = "${local.dns.coredns.imageName}:${local.dns.coredns.finalImageTag}"
            imagePullPolicy = local.dns.coredns.archive == null ? "IfNotPresent" : "Never"
            livenessProbe = {
              failureThreshold    = 5
              httpGet             = { path = "/health", port = local.ports.health, scheme = "HTTP" }
              initialDelaySeconds = 60
              successThreshold    = 1
              timeoutSeconds      = 5
            }
            name = "coredns"
            ports = [
              { containerPort = local.ports.dns, name = "dns", protocol = "UDP" },
              { containerPort = local.ports.dns, name = "dns-tcp", protocol = "TCP" },
              { containerPort = local.ports.metrics, name = "metrics", protocol = "TCP" },
            ]
            resources = {
              limits   = { memory = "170Mi" }
              requests = { cpu = "100m", memory = "70Mi" }
            }
            securityContext = {
              allowPrivilegeEscalation = false
              capabilities             = { add = ["NET_BIND_SERVICE"], drop = ["ALL"] }
              readOnlyRootFilesystem   = true
            }
            volumeMounts = [{ mountPath = "/etc/coredns", name = "config-volume", readOnly = true }]
          }]
          dnsPolicy          = "Default"
          nodeSelector       = { "kubernetes.io/os" = "linux" }
          serviceAccountName = "coredns"
          tolerations = [
            { effect = "NoSchedule", key = "node-role.kubernetes.io/control-plane" },
            { key = "CriticalAddonsOnly", operator = "Exists" },
          ]
          volumes = [{
            configMap = {
              items = [{ key = "Corefile", path = "Corefile" }]
              name  = "coredns"
            }
            name = "config-volume"
          }]
        }
      }
    }
  }
  coredns-svc = {
    apiVersion = "v1"
    kind       = "Service"
    metadata = {
      annotations = {
        "prometheus.io/port"   = "${local.ports.metrics}"
        "prometheus.io/scrape" = "true"
      }
      labels    = merge(local.labels, { "kubernetes.io/name" = "CoreDNS" })
      name      = "kube-dns"
      namespace = "kube-system"
    }
    spec = {
      clusterIP = local.dns.clusterIp
      ports = [
        { name = "dns", port = 53, targetPort = local.ports.dns, protocol = "UDP" },
        { name = "dns-tcp", port = 53, targetPort = local.ports.dns, protocol = "TCP" },
      ]
      selector = { k8s-app = "kube-dns" }
    }
  }
}
