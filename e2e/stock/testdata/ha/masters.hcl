# masters.hcl
# What the three masters share: the master role, the ServiceAccount key
# every apiserver checks tokens with, and etcdctl for the operator.
imports = ["common.hcl"]

config "services.kubernetes" {
  roles = ["master"]
}

config "deployment" {
  keys = {
    "service-account-key.pem" = {
      keyFile     = "./secrets/service-account-key.pem"
      destDir     = "/var/lib/kubernetes/secrets"
      permissions = "0400"
    }
  }
}

config "environment.packages.etcd-client" {
  provides = ["/usr/bin/etcdctl"]
}
