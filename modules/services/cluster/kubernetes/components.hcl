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
# A new component declares its options (with a kubeconfig option of type
# submodule.kubernetesKubeconfig) and its service in a module of its own,
# and adds a row here.

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
      action = "systemctl restart ${c.service}.service"
    }
  }
}

# Wait until the apiserver answers to the component's credentials.
config "services.kubernetes.lib" {
  waitCurl = {
    for n, c in local.enabled : n => {
      address = local.top[n].kubeconfig.server
      path    = c.waitPath
      cacert  = local.top[n].kubeconfig.caFile
      cert    = local.top[n].kubeconfig.certFile
      key     = local.top[n].kubeconfig.keyFile
    } if c.waitPath != null
  }
}

config "systemd" {
  services = {
    for n, c in local.enabled : c.service => {
      preStart = local.top.lib.waitCurl[n].script
    } if c.waitPath != null
  }
}
