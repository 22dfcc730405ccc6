# The DNS addon (CoreDNS, applied by the addon manager) in the two-host
# test: CoreDNS from scripts/build-coredns.sh, in an image the test makes
# and binds into each machine, imported by the kubelet. Pods whose DNS is
# the node's (CoreDNS's own) get a resolv.conf that points at nothing
# outside: the machines have no network beyond each other.

config "services.kubernetes.addons.dns" {
  enable = mkForce(true)
  coredns = {
    imageName     = "k8s-e2e.local/coredns"
    finalImageTag = "1"
    archive       = "/opt/k8s-e2e/coredns.tar"
  }
}

config "services.kubernetes.kubelet.settings" {
  resolvConf = "/etc/kubernetes/e2e-resolv.conf"
}

config "environment.etc.\"kubernetes/e2e-resolv.conf\"" {
  text = "nameserver 127.0.0.1\n"
}
