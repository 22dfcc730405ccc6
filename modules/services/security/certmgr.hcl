# services.certmgr: keeps certificates issued by a cfssl CA up to date. A
# port of the behaviour of nixpkgs' nixos/modules/services/security/
# certmgr.nix (early 2019). Its configuration is /etc/certmgr/certmgr.yaml,
# its specs /etc/certmgr/specs/NAME.json.

locals {
  certmgr  = config.services.certmgr
  yamlPath = "/etc/certmgr/certmgr.yaml"
  specDir  = "certmgr/specs"
  # The directories of every file a spec writes, created before certmgr runs.
  specPaths = distinct(flatten([
    for n, s in local.certmgr.specs : s.inline == null ? [] : [
      for p in [
        try(s.inline.authority.file.path, null),
        try(s.inline.certificate.path, null),
        try(s.inline.private_key.path, null),
      ] : dirname(p) if p != null
    ]
  ]))
}

options "services.certmgr" {
  option "enable" {
    type        = bool
    default     = false
    example     = true
    description = "Whether to enable certmgr."
  }
  option "package" {
    type        = package
    default     = "/usr"
    description = "The certmgr package: bin/certmgr."
  }
  option "defaultRemote" {
    type        = str
    default     = "127.0.0.1:8888"
    description = "The default CA host:port to use."
  }
  option "validMin" {
    type        = str
    default     = "72h"
    description = "The interval before a certificate expires to start attempting to renew it."
  }
  option "renewInterval" {
    type        = str
    default     = "30m"
    description = "How often to check certificate expirations and how often to update the cert_next_expires metric."
  }
  option "metricsAddress" {
    type        = str
    default     = "127.0.0.1"
    description = "The address for the Prometheus HTTP endpoint."
  }
  option "metricsPort" {
    type        = port
    default     = 9488
    description = "The port for the Prometheus HTTP endpoint."
  }
  option "specs" {
    type        = attrsOf(submodule.certmgrSpec)
    default     = {}
    description = <<-EOT
      Certificate specs as described by
      <https://github.com/cloudflare/certmgr#certificate-specs>: each is a
      spec file (file) or a spec written inline (service, action, authority,
      certificate, private_key, request). The specs are written to /etc,
      so they are world readable.
    EOT
  }
  option "svcManager" {
    type        = enum(["circus", "command", "dummy", "openrc", "systemd", "sysv"])
    default     = "systemd"
    description = <<-EOT
      This specifies the service manager to use for restarting or reloading services.
      See: <https://github.com/cloudflare/certmgr#certmgryaml>.
      For how to use the "command" service manager in particular,
      see: <https://github.com/cloudflare/certmgr#command-svcmgr-and-how-to-use-it>.
    EOT
  }
}

# A certmgr spec: a file, or its content inline. (NixOS's type is
# either path (submodule ...); nodegen names the two forms.)
submodule "certmgrSpec" {
  option "file" {
    type        = nullOr(path)
    default     = null
    description = "A spec file on the host; the spec directory links to it."
  }
  option "service" {
    type        = nullOr(str)
    default     = null
    description = "The service on which to perform <action> after fetching."
  }
  option "action" {
    type        = str
    default     = "nop"
    description = "The action to take after fetching."
  }
  option "authority" {
    type        = attrs
    default     = {}
    description = "certmgr spec authority object."
  }
  option "certificate" {
    type        = nullOr(attrs)
    default     = null
    description = "certmgr spec certificate object."
  }
  option "private_key" {
    type        = nullOr(attrs)
    default     = null
    description = "certmgr spec private_key object."
  }
  option "request" {
    type        = nullOr(attrs)
    default     = null
    description = "certmgr spec request object."
  }
  option "inline" {
    type     = nullOr(attrs)
    internal = true
    default = config.file != null ? null : merge(
      { action = config.action, authority = config.authority },
      config.service != null ? { service = config.service } : {},
      config.certificate != null ? { certificate = config.certificate } : {},
      config.private_key != null ? { private_key = config.private_key } : {},
      config.request != null ? { request = config.request } : {},
    )
    description = "The spec as it is written, when it is inline."
  }
}

assert {
  condition = !local.certmgr.enable || length(local.certmgr.specs) > 0
  message   = "Certmgr specs cannot be empty."
}

assert {
  condition = !local.certmgr.enable || alltrue([for n, s in local.certmgr.specs : s.inline == null || !can(s.inline.authority.auth_key)])
  message   = "Inline services.certmgr.specs are written to /etc, world readable. Specify spec files, if you want to use include auth_key - or use the auth_key_file option."
}

config "environment" {
  when = local.certmgr.enable
  etc = merge(
    {
      "certmgr/certmgr.yaml" = {
        origin = "services.certmgr"
        text = yamlencode({
          dir             = "/etc/${local.specDir}"
          default_remote  = local.certmgr.defaultRemote
          svcmgr          = local.certmgr.svcManager
          before          = local.certmgr.validMin
          interval        = local.certmgr.renewInterval
          metrics_address = local.certmgr.metricsAddress
          metrics_port    = "${local.certmgr.metricsPort}"
        })
      }
    },
    {
      for n, s in local.certmgr.specs : "${local.specDir}/${n}.json" => s.file != null ? {
        mode   = "symlink"
        source = s.file
        origin = "services.certmgr.specs.${n}"
      } : {
        text   = jsonencode(s.inline)
        origin = "services.certmgr.specs.${n}"
      }
    },
  )
}

config "systemd.services.certmgr" {
  when        = local.certmgr.enable
  description = "certmgr"
  path        = local.certmgr.svcManager == "command" ? [root.services.kubernetes.toolsPackage] : []
  wants       = ["network-online.target"]
  after       = ["network-online.target"]
  wantedBy    = ["multi-user.target"]
  serviceConfig = {
    Restart    = "always"
    RestartSec = "10s"
    ExecStart  = "${local.certmgr.package}/bin/certmgr -f ${local.yamlPath}"
  }
}

config "systemd.services.certmgr" {
  when     = local.certmgr.enable
  preStart = <<-EOT
    ${length(local.specPaths) > 0 ? "mkdir -p ${join(" ", local.specPaths)}" : ""}
    ${local.certmgr.package}/bin/certmgr -f ${local.yamlPath} check
  EOT
}
