# systemd-tmpfiles rules, with NixOS's option names
# (system/boot/systemd/tmpfiles.nix). They are written under
# /etc/tmpfiles.d, which systemd-tmpfiles reads at boot and `nodegen
# switch` applies (--create) on every switch.

submodule "tmpfilesRule" {
  option "type" {
    type         = word
    default      = name
    default_text = "the attribute name"
    description  = "The type of operation to perform on the file (d, f, L, z, ...): see tmpfiles.d(5)."
    example      = "d"
  }
  option "mode" {
    type        = word
    default     = "-"
    description = "The file access mode to use when creating this file or directory."
  }
  option "user" {
    type        = word
    default     = "-"
    description = "The user of the file."
  }
  option "group" {
    type        = word
    default     = "-"
    description = "The group of the file."
  }
  option "age" {
    type        = word
    default     = "-"
    description = "Delete a file when it is older than this age."
  }
  option "argument" {
    type        = singleLineStr
    default     = ""
    description = "An argument whose meaning depends on the type of operation (the link target of L, the content of f)."
  }
}

options "systemd.tmpfiles" {
  option "rules" {
    type        = listOf(singleLineStr)
    default     = []
    description = "Rules for creation, deletion and cleaning of volatile and temporary files automatically, as tmpfiles.d(5) lines."
    example     = ["d /tmp 1777 root root 10d"]
  }
  option "settings" {
    type        = attrsOf(attrsOf(attrsOf(submodule.tmpfilesRule)))
    default     = {}
    description = "Declare systemd-tmpfiles rules to create, delete, and clean up volatile and temporary files and directories: settings.CONFIG.PATH.TYPE, written to /etc/tmpfiles.d/CONFIG.conf."
    example     = { "10-mypackage" = { "/var/lib/my-service/statefolder" = { d = { mode = "0755", user = "root" } } } }
  }
}

locals {
  # A path is written the way tmpfiles.d reads it back: quoted when it holds
  # white space or a quote, with \ and " escaped (a backslash escapes the
  # next character; tmpfiles reads no C escapes in a path). A line break
  # cannot be written: the assertion below refuses it.
  tmpfilesPath = {
    for conf, paths in config.systemd.tmpfiles.settings : conf => {
      for p, _ in paths : p => (
        length(regexall("[\\s\"'\\\\]", p)) == 0 ? p : "\"${replace(replace(p, "\\", "\\\\"), "\"", "\\\"")}\""
      )
    }
  }
  tmpfilesBadPaths = flatten([
    for conf, paths in config.systemd.tmpfiles.settings : [for p, _ in paths : "${conf}: ${jsonencode(p)}" if length(regexall("[\\r\\n\\x00]", p)) > 0]
  ])
}

assert {
  condition = length(local.tmpfilesBadPaths) == 0
  message   = "systemd.tmpfiles.settings: a path cannot hold a line break, which would end its tmpfiles.d line: ${join(", ", local.tmpfilesBadPaths)}."
}

config "environment" {
  etc = merge(
    length(config.systemd.tmpfiles.rules) == 0 ? {} : {
      "tmpfiles.d/00-nodegen.conf" = {
        origin = "systemd.tmpfiles.rules"
        text   = join("", [for r in config.systemd.tmpfiles.rules : "${r}\n"])
      }
    },
    {
      for conf, paths in config.systemd.tmpfiles.settings : "tmpfiles.d/${conf}.conf" => {
        origin = "systemd.tmpfiles.settings.\"${conf}\""
        text = join("", flatten([
          for p, types in paths : [
            for t, r in types : "${trimspace(join(" ", [r.type, local.tmpfilesPath[conf][p], r.mode, r.user, r.group, r.age, r.argument]))}\n"
          ]
        ]))
      }
    },
  )
}
