# hosts/master01.hcl
# A control-plane member, the CA host (cfssl: caHost in common.hcl).
imports = ["../masters.hcl"]

config "deployment" {
  targetHost = "10.88.0.21"
}

config "networking" {
  hostName = "master01"
}

config "services.kubernetes" {
  kubelet = { nodeIp = "10.88.0.21" }
}

config "cluster" {
  podSubnet = "10.1.1.0/24"
}
