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

option "environment.etc" {
  type        = attrsOf(submodule.etcFile)
  default     = {}
  description = "Files in /etc: what the system profile holds."
  example     = { "hosts.allow" = { text = "ALL: 10.0.0.0/8" } }
}
