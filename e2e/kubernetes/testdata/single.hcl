# The single host (fixtures/k8s-single, master and node) in the test's
# network.

config "services.kubernetes.kubelet" {
  nodeIp = "10.88.0.10"
}

config "e2e" {
  hosts     = { "10.88.0.10" = ["kube"] }
  podSubnet = "10.1.0.0/24"
}
