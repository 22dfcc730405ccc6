# services.kubernetes.pki: certificates for every component, requested by
# certmgr from a cfssl CA on the master ("easyCerts"). A port of the
# behaviour of nixpkgs' nixos/modules/services/cluster/kubernetes/pki.nix
# (early 2019).

options "services.kubernetes.pki" {
  option "certs" {
    type        = attrsOf(submodule.kubernetesCert)
    default     = {}
    description = "List of certificate specs to feed to cert generator."
  }
}
