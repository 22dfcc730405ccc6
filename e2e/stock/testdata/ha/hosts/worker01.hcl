# hosts/worker01.hcl
# A worker: the kubelet and kube-proxy, reaching the three apiservers
# through its load balancer, with certificates from master01's CA.
imports = ["../common.hcl"]

config "deployment" {
  targetHost = "10.88.0.31"
}

config "networking" {
  hostName = "worker01"
}

config "services.kubernetes" {
  roles   = ["node"]
  kubelet = { nodeIp = "10.88.0.31" }
}

config "cluster" {
  podSubnet = "10.1.4.0/24"
}
