# hosts/worker01.hcl
# A worker: the kubelet and kube-proxy, with certificates from the
# master's CA, which the CA's API token (fetched from the master after its
# first deploy) lets it ask for.
imports = ["../common.hcl"]

config "deployment" {
  targetHost = "10.88.0.11"
  keys = {
    "apitoken.secret" = {
      keyFile = "./secrets/apitoken.secret"
      destDir = "/var/lib/kubernetes/secrets"
    }
  }
}

config "networking" {
  hostName = "worker01"
}

config "services.kubernetes" {
  roles   = ["node"]
  kubelet = { nodeIp = "10.88.0.11" }
}

config "cluster" {
  podSubnet = "10.1.1.0/24"
}
