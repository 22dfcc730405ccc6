# hosts/master02.hcl
# A control-plane member, a member that asks master01's CA for its certificates.
imports = ["../masters.hcl"]

config "deployment" {
  targetHost = "10.88.0.22"
}

config "networking" {
  hostName = "master02"
}

config "services.kubernetes" {
  kubelet = { nodeIp = "10.88.0.22" }
}

config "cluster" {
  podSubnet = "10.1.2.0/24"
}
