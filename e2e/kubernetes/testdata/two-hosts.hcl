# The network of the two-host test (fixtures/k8s-master and k8s-worker):
# one veth pair between the two machines, each end k8s0.

config "e2e" {
  hosts = {
    "10.88.0.10" = ["master01.cluster.example.com", "master01"]
    "10.88.0.11" = ["worker01.cluster.example.com", "worker01"]
  }
}
