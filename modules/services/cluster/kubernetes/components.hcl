# The wiring every Kubernetes component with a kubeconfig of its own
# shares, written once for the table below. (NixOS repeats it in each
# component's module and in pki.nix.) For each component that is enabled:
#
#   - its kubeconfig talks to services.kubernetes.kubeconfig.server as its
#     user, and is written to /etc (kubernetes/USER.kubeconfig);
#   - it has a client certificate in services.kubernetes.pki.certs, which
#     its kubeconfig uses when the pki module (easyCerts) is enabled;
#   - with a wait path, its service's preStart waits until the apiserver
#     answers there to the component's own credentials.
#
# The options the components declare alike (enable, kubeconfig, and for
# those with a command line of their own extraOpts, featureGates and
# verbosity) are declared here too, from the table componentOptions below;
# NixOS's modules write them out in each component's module.
#
# A new component declares its other options and its service in a module
# of its own, and adds a row to each table here.

locals {
  top = config.services.kubernetes

  # By the component's option under services.kubernetes:
  #   service   its systemd service
  #   user      its kubeconfig's user name
  #   cert      its client certificate: the key in services.kubernetes.pki.certs,
  #             then the certificate's name, CN and further subject fields
  #   waitPath  the path its preStart waits for; null waits for nothing
  components = {
    addonManager = {
      service  = "kube-addon-manager"
      user     = "addon-manager"
      cert     = { key = "addonManager", name = "kube-addon-manager", CN = "system:kube-addon-manager", fields = {} }
      waitPath = null
    }
    controllerManager = {
      service  = "kube-controller-manager"
      user     = "kube-controller-manager"
      cert     = { key = "controllerManagerClient", name = "kube-controller-manager-client", CN = "system:kube-controller-manager", fields = {} }
      waitPath = "/api"
    }
    kubelet = {
      service  = "kubelet"
      user     = "kubelet"
      cert     = { key = "kubeletClient", name = "kubelet-client", CN = "system:node:${local.top.kubelet.hostname}", fields = { O = "system:nodes" } }
      waitPath = null
    }
    proxy = {
      service = "kube-proxy"
      user    = "kube-proxy"
      cert    = { key = "kubeProxyClient", name = "kube-proxy-client", CN = "system:kube-proxy", fields = {} }
      # With a kubelet here, until the apiserver knows this node, so that
      # the proxy finds its node's address when it starts.
      waitPath = local.top.kubelet.enable ? "/api/v1/nodes/${local.top.kubelet.hostname}" : "/api"
    }
    scheduler = {
      service  = "kube-scheduler"
      user     = "kube-scheduler"
      cert     = { key = "schedulerClient", name = "kube-scheduler-client", CN = "system:kube-scheduler", fields = {} }
      waitPath = "/api"
    }
  }

  enabled = { for n, c in local.components : n => c if local.top[n].enable }
}

# The options below read nothing of the configuration: they are declared
# before any option has a value.
locals {
  # By the component's option under services.kubernetes:
  #   title       its name in descriptions
  #   enable      what its enable option enables (NixOS's mkEnableOption
  #               argument, whose own final dot some components keep)
  #   kubeconfig  the description of its kubeconfig option; null: none
  #   flags       whether it takes extraOpts, featureGates and verbosity
  componentOptions = {
    addonManager = {
      title      = "Kubernetes addon manager"
      enable     = "Kubernetes addon manager"
      kubeconfig = "Kubernetes addon manager kubeconfig."
      flags      = false
    }
    apiserver = {
      title      = "Kubernetes apiserver"
      enable     = "Kubernetes apiserver"
      kubeconfig = null
      flags      = true
    }
    controllerManager = {
      title      = "Kubernetes controller manager"
      enable     = "Kubernetes controller manager."
      kubeconfig = "Kubernetes controller manager kubeconfig."
      flags      = true
    }
    kubelet = {
      title      = "Kubernetes kubelet"
      enable     = "Kubernetes kubelet."
      kubeconfig = "Kubelet kubeconfig: the apiserver, CA and client certificate the kubelet connects with."
      flags      = true
    }
    proxy = {
      title      = "Kubernetes proxy"
      enable     = "Kubernetes proxy"
      kubeconfig = "Kubernetes proxy kubeconfig."
      flags      = true
    }
    scheduler = {
      title      = "Kubernetes scheduler"
      enable     = "Kubernetes scheduler"
      kubeconfig = "Kubernetes scheduler kubeconfig."
      flags      = true
    }
  }
}

dynamic "option" {
  for_each = local.componentOptions
  iterator = component
  labels   = ["services.kubernetes.${component.key}.enable"]
  content {
    type        = bool
    default     = false
    example     = true
    description = "Whether to enable ${component.value.enable}."
  }
}

dynamic "option" {
  for_each = { for n, c in local.componentOptions : n => c.kubeconfig if c.kubeconfig != null }
  iterator = component
  labels   = ["services.kubernetes.${component.key}.kubeconfig"]
  content {
    type        = submodule.kubernetesKubeconfig
    default     = {}
    description = component.value
  }
}

dynamic "options" {
  for_each = { for n, c in local.componentOptions : n => c.title if c.flags }
  iterator = component
  labels   = ["services.kubernetes.${component.key}"]
  content {
    option "extraOpts" {
      type        = singleLineStr
      default     = ""
      description = "${component.value} extra command line options."
    }
    option "featureGates" {
      type         = attrsOf(bool)
      default      = root.services.kubernetes.featureGates
      default_text = "services.kubernetes.featureGates"
      example      = { InPlacePodVerticalScaling = true }
      description  = "${component.value} feature gates: each gate on or off (--feature-gates)."
    }
    option "verbosity" {
      type        = nullOr(int)
      default     = null
      description = <<-EOT
        Optional glog verbosity level for logging statements. See
        <https://github.com/kubernetes/community/blob/master/contributors/devel/logging.md>
      EOT
    }
  }
}

# The kubeconfig of each component: its server and user, and with easyCerts
# its client certificate.
config "services" {
  kubernetes = {
    for n, c in local.components : n => {
      kubeconfig = mkMerge([
        mkIf(local.top[n].enable, {
          server   = mkDefault(local.top.kubeconfig.server)
          userName = mkDefault(c.user)
        }),
        mkIf(local.top.pki.enable && local.top[n].enable, {
          certFile = mkDefault(local.top.pki.certs[c.cert.key].cert)
          keyFile  = mkDefault(local.top.pki.certs[c.cert.key].key)
        }),
      ])
    }
  }
}

# (A definition for each, so that two kubeconfigs with one target conflict
# as two definitions of that file.)
config "environment" {
  etc = mkMerge([
    for n, c in local.enabled : {
      (local.top[n].kubeconfig.target) = {
        text   = local.top[n].kubeconfig.text
        mode   = local.top[n].kubeconfig.mode
        origin = "services.kubernetes.${n}.kubeconfig"
      }
    }
  ])
}

config "services.kubernetes.pki" {
  certs = {
    for n, c in local.enabled : c.cert.key => {
      name   = c.cert.name
      CN     = c.cert.CN
      fields = c.cert.fields
      action = "systemctl --no-block restart ${c.service}.service"
    }
  }
}

# Wait until the apiserver answers to the component's credentials: the
# seed's curl wait loops (services.kubernetes.onlineTargets).
config "services.kubernetes.lib" {
  waitCurl = {
    for n, c in local.enabled : n => {
      address = local.top[n].kubeconfig.server
      path    = c.waitPath
      cacert  = local.top[n].kubeconfig.caFile
      cert    = local.top[n].kubeconfig.certFile
      key     = local.top[n].kubeconfig.keyFile
    } if c.waitPath != null && local.top.onlineTargets
  }
}

config "systemd" {
  services = {
    for n, c in local.enabled : c.service => {
      preStart = local.top.lib.waitCurl[n].script
    } if c.waitPath != null && local.top.onlineTargets
  }
}

# Every component restarts until what it needs answers (the apiserver, its
# certificates' CA): systemd's start rate limit must never make it give up.
config "systemd" {
  services = {
    for n, c in merge(local.enabled, local.top.apiserver.enable ? { apiserver = { service = "kube-apiserver" } } : {}) : c.service => {
      unitConfig = { StartLimitIntervalSec = 0 }
    }
  }
}
