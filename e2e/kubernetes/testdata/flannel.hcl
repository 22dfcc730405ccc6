# flannel across the two-host test's machines: flanneld (the Kubernetes
# subnet manager, vxlan over k8s0) and its CNI plugin, built by
# scripts/build-flannel.sh and bound read-only into each machine, instead
# of a bridge network per node.

config "services.kubernetes.flannel" {
  enable     = mkForce(true)
  cniPackage = "/opt/flannel-cni"
}

config "services.flannel" {
  package = "/opt/flanneld"
  iface   = "k8s0"
}

config "environment" {
  providedByImage = ["/opt/flanneld/bin/flannel"]
}
