# The master (fixtures/k8s-master) in the two-host test's network; the
# fixture's addresses are of another network.

config "services.kubernetes" {
  kubelet   = { nodeIp = "10.88.0.10" }
  apiserver = { advertiseAddress = mkForce("10.88.0.10") }
}

config "e2e" {
  podSubnet = "10.1.0.0/24"
}
