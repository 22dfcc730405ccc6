# common.hcl
# What the hosts of the highly available cluster share: the control
# plane's members (every host reaches their apiservers through its own
# load balancer on 127.0.0.1:6444), the CA's API token, the mirror the
# nodes download from, the images they import, and the pod network.
# (docs/kubernetes.md, "A highly available control plane".)

options "cluster" {
  option "podSubnet" {
    type        = str
    description = "The addresses of this node's pods: a part of services.kubernetes.clusterCidr of its own."
  }
}

# The names the units use, in every host's /etc/hosts.
config "networking" {
  hosts = {
    "10.88.0.21" = ["master01"]
    "10.88.0.22" = ["master02"]
    "10.88.0.23" = ["master03"]
    "10.88.0.31" = ["worker01"]
  }
}

# The CA's API token, made by the operator (openssl rand -hex 16): the
# CA host's cfssl serves with it, and every other host asks with it, so
# that the whole fleet is deployed at once.
config "deployment" {
  keys = {
    "apitoken.secret" = {
      keyFile = "./secrets/apitoken.secret"
      destDir = config.services.kubernetes.controlPlane.isCAHost ? "/var/lib/cfssl" : "/var/lib/kubernetes/secrets"
    }
  }
}

config "environment" {
  assetMirrors = { "https://dl.k8s.io" = "http://10.88.0.1/k8s" }
  packageProxy = "http://10.88.0.1:3142"
}

config "environment.assets" {
  images = {
    url     = "http://10.88.0.1/images/images.tar.gz"
    archive = "tar.gz"
    files   = { "/var/lib/images/images.tar" = "images.tar" }
  }
}

config "services.containerd" {
  sandboxImage = "k8s-e2e.local/pause:1"
}

config "services.kubernetes" {
  controlPlane = {
    members = [
      { name = "master01", address = "10.88.0.21" },
      { name = "master02", address = "10.88.0.22" },
      { name = "master03", address = "10.88.0.23" },
    ]
    caHost = "master01"
  }
  # A bridge network on each node instead of flannel, and no DNS addon
  # (its image is not in the archive).
  flannel = { enable = false }
  addons  = { dns = { enable = false } }
  kubelet = {
    seedDockerImages = ["/var/lib/images/images.tar"]
    cni = {
      config = [{
        cniVersion = "1.0.0"
        name       = "pods"
        plugins = [{
          type      = "bridge"
          bridge    = "cni0"
          isGateway = true
          ipMasq    = true
          ipam = {
            type   = "host-local"
            ranges = [[{ subnet = config.cluster.podSubnet }]]
            routes = [{ dst = "0.0.0.0/0" }]
          }
        }]
      }]
    }
  }
}
