# common.hcl
# What the hosts of the cluster share: their names, the mirror and the
# package proxy the nodes download from, the images they import, and the
# pod network.

options "cluster" {
  option "podSubnet" {
    type        = str
    description = "The addresses of this node's pods: a part of services.kubernetes.clusterCidr of its own."
  }
}

# The names the units use, in every host's /etc/hosts.
config "networking" {
  hosts = {
    "10.88.0.10" = ["master01"]
    "10.88.0.11" = ["worker01"]
  }
}

# The nodes download the Kubernetes release from the mirror, with the
# hashes that nodegen lock wrote to nodegen.lock.hcl, and the Debian
# packages the profiles list through the network's package proxy.
config "environment" {
  assetMirrors = { "https://dl.k8s.io" = "http://10.88.0.1/k8s" }
  packageProxy = "http://10.88.0.1:3142"
}

# The nodes reach no registry: the pod sandbox (pause) image and the
# workloads' images are in an archive on the mirror, which the kubelet
# imports before it starts.
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
  masterAddress = "master01"
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
