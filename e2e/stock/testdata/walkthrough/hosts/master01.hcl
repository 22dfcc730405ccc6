# hosts/master01.hcl
# The control plane: etcd, the apiserver, the controller manager, the
# scheduler, the addon manager, the CA (cfssl), and a kubelet that takes
# no pods.
imports = ["../common.hcl"]

config "deployment" {
  targetHost = "10.88.0.10"
}

config "networking" {
  hostName = "master01"
}

config "services.kubernetes" {
  roles     = ["master"]
  apiserver = { advertiseAddress = "10.88.0.10" }
  kubelet   = { nodeIp = "10.88.0.10" }
}

config "cluster" {
  podSubnet = "10.1.0.0/24"
}
