# environment.etc: the one way into the system profile. Every other core
# module (systemd, boot, networking) writes its files through it.

submodule "etcFile" {
  option "enable" {
    type        = bool
    default     = true
    description = "Whether this file is part of the profile."
  }
  option "target" {
    type         = str
    default      = name
    default_text = "the attribute name"
    description  = "Path of the file relative to /etc."
  }
  option "text" {
    type        = nullOr(lines)
    default     = null
    description = "Content of the file."
  }
  option "source" {
    type        = nullOr(str)
    default     = null
    description = <<-EOT
      Where the content comes from instead of `text`: a path relative to the
      module that defines it (a file next to the module), or an absolute path
      on the host. With `mode = "symlink"`, the absolute path the link points
      to.
    EOT
  }
  option "mode" {
    type        = strMatching("symlink|0?[0-7]{3}", "file mode (such as \"0644\") or \"symlink\"")
    default     = "0644"
    description = "The file's mode, such as \"0644\" or \"0755\", or \"symlink\" for a symbolic link to `source`."
  }
  option "user" {
    type        = str
    default     = "root"
    description = "Owner of the file."
  }
  option "group" {
    type        = str
    default     = "root"
    description = "Group of the file."
  }
  option "checks" {
    type        = listOf(submodule.etcFileCheck)
    default     = []
    description = <<-EOT
      Checks of the file by the programs that read it (NixOS's checkConfig):
      `nodegen eval` runs those whose programs the build machine has, and
      reports a failing one as an error at the definitions of the option
      the file comes from; `nodegen switch` runs every one on the target
      before anything changes.
    EOT
    example     = [{ programs = ["/usr/sbin/chronyd"], script = "/usr/sbin/chronyd -p -f \"$1\" > /dev/null" }]
  }
  option "origin" {
    type        = nullOr(str)
    default     = null
    internal    = true
    description = "The option this file is generated from, as the profile's manifest names it; null names the environment.etc entry itself."
  }

  assert {
    condition = !config.enable || (config.text == null) != (config.source == null)
    message   = "environment.etc.\"${name}\": set exactly one of text and source."
  }
  assert {
    condition = !config.enable || config.mode != "symlink" || (config.source != null && startswith(coalesce(config.source, "x"), "/"))
    message   = "environment.etc.\"${name}\": a symlink needs an absolute source."
  }
}

# A check of a generated file (see etcFile's checks).
submodule "etcFileCheck" {
  option "programs" {
    type        = listOf(pathWord)
    description = "The programs the script runs, by absolute path: where one is missing, the check cannot run (at eval, a note; at switch, an error)."
  }
  option "script" {
    type        = lines
    description = "A shell script (sh -e) that exits 0 when the file is good: the path of a copy of the file is $1; it runs in an empty temporary directory, where it may write what it needs."
  }
  option "root" {
    type        = bool
    default     = false
    description = "Whether the check needs root (nft -c does): run by another user, it cannot run."
  }
}

option "environment.etc" {
  type        = attrsOf(submodule.etcFile)
  default     = {}
  description = "Files in /etc: what the system profile holds."
  example     = { "hosts.allow" = { text = "ALL: 10.0.0.0/8" } }
}
