# system.nodegen: nodegen on the host it configures. Every `nodegen switch`
# keeps a copy of its own executable at /var/lib/nodegen/bin/nodegen (by
# hash, replaced atomically), where the units that run nodegen itself
# (kube-certs.service of easyCerts) find it by default.

locals {
  # Where nodegen switch installs itself (activate/self.go).
  switchedPath = "/var/lib/nodegen/bin/nodegen"
}

option "system.nodegen.path" {
  type         = str
  default      = local.switchedPath
  default_text = "\"/var/lib/nodegen/bin/nodegen\", where nodegen switch keeps a copy of itself"
  description  = <<-EOT
    Where the nodegen executable is on the host: the units that run nodegen
    itself (kube-certs.service, which keeps the certificates of easyCerts)
    run it from there. `nodegen switch` (also when `nodegen deploy` runs
    it) keeps a copy of the nodegen that switched at the default path; set
    another path only where the image has nodegen and no switch runs on
    the host (an Ignition config), and nodegen switch then checks that it
    is there.
  EOT
}

# Every switched system has nodegen's copy; another path is the image's.
config "environment" {
  basePrograms    = mkIf(config.system.nodegen.path == local.switchedPath, [local.switchedPath])
  providedByImage = mkIf(config.system.nodegen.path != local.switchedPath, [config.system.nodegen.path])
}
