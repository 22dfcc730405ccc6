# hosts/master03.hcl
# A control-plane member, a member that asks master01's CA for its certificates.
imports = ["../masters.hcl"]

config "deployment" {
  targetHost = "10.88.0.23"
}

config "networking" {
  hostName = "master03"
}

config "services.kubernetes" {
  kubelet = { nodeIp = "10.88.0.23" }
}

config "cluster" {
  podSubnet = "10.1.3.0/24"
}
