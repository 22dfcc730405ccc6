# flannel's binary: the release's flanneld-amd64, installed where the unit
# runs it when flannel runs from /usr, unless the image has it
# (skipInstall). flannel publishes no hashes in its
# release notes: the library knows the sha256 of the releases in
# local.flannelSha256; any other release's hash comes from the host
# (services.flannel.release.sha256) or from nodegen.lock.hcl, which
# `nodegen lock HOST.hcl` writes.

locals {
  flannelSha256 = {
    "0.14.0" = "47f039b97f2f1879fbb5aae972fb0f2e01124f55b29ade088976f34cd948c240"
  }
}

options "services.flannel.release" {
  option "version" {
    type        = str
    default     = "0.28.10"
    description = "The flannel release whose flanneld-amd64 is installed as services.flannel.package/bin/flannel."
  }
  option "sha256" {
    type         = nullOr(strMatching("[0-9a-f]{64}", "sha256 as 64 lower-case hex digits"))
    default      = try(local.flannelSha256[config.services.flannel.release.version], null)
    default_text = "the release's, when the library knows it; else null: nodegen.lock.hcl gives its sha512"
    description  = "The sha256 of flanneld-amd64 of that release."
  }
  option "skipInstall" {
    type        = bool
    default     = false
    description = "Leave flanneld to the image: install no release binary (the unit still runs services.flannel.package/bin/flannel, which the image provides)."
  }
}

config "environment.assets.flannel" {
  when       = config.services.flannel.enable && config.services.flannel.package == "/usr" && !config.services.flannel.release.skipInstall
  url        = "https://github.com/flannel-io/flannel/releases/download/v${config.services.flannel.release.version}/flanneld-amd64"
  sha256     = config.services.flannel.release.sha256
  executable = "/usr/bin/flannel"
}

config "environment" {
  when            = config.services.flannel.enable && config.services.flannel.release.skipInstall
  providedByImage = ["${config.services.flannel.package}/bin/flannel"]
}
