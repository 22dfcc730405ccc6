# services.certmgr: retired. NixOS's certmgr.nix runs cloudflare/certmgr,
# which no distribution ships and whose Go module cannot be fetched; the
# certificates of easyCerts are kept by nodegen itself (nodegen pki fetch,
# kube-certs.service: docs/kubernetes-pki.md). A definition of one of
# these options is an error that says so.

locals {
  certmgrGone = "certmgr is not available on any distribution; nodegen keeps the certificates of services.kubernetes.pki.certs itself (nodegen pki fetch, run by kube-certs.service from spec files in /etc/kubernetes/pki/specs; see docs/kubernetes-pki.md). Declare certificates in services.kubernetes.pki.certs instead."
}

removed_option "services.certmgr.enable" { message = local.certmgrGone }
removed_option "services.certmgr.package" { message = local.certmgrGone }
removed_option "services.certmgr.defaultRemote" { message = local.certmgrGone }
removed_option "services.certmgr.validMin" { message = "Certificates are renewed in the last third of their validity. ${local.certmgrGone}" }
removed_option "services.certmgr.renewInterval" { message = "kube-certs.timer renews certificates daily. ${local.certmgrGone}" }
removed_option "services.certmgr.metricsAddress" { message = local.certmgrGone }
removed_option "services.certmgr.metricsPort" { message = local.certmgrGone }
removed_option "services.certmgr.specs" { message = local.certmgrGone }
removed_option "services.certmgr.svcManager" { message = "The action of each certificate (services.kubernetes.pki.certs.NAME.action) is a shell command. ${local.certmgrGone}" }
