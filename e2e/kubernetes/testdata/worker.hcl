# The worker (fixtures/k8s-worker) in the two-host test's network; the
# fixture's address is of another network.

config "services.kubernetes.kubelet" {
  nodeIp = mkForce("10.88.0.11")
}

config "e2e" {
  podSubnet = "10.1.1.0/24"
}
