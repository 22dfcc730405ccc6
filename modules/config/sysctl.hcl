# sysctl settings (as NixOS's config/sysctl.nix).

options "boot" {
  option "kernel.sysctl" {
    type        = attrsOf(nullOr(oneOf([bool, singleLineStr, int])))
    default     = {}
    description = "Runtime kernel parameters; true and false are written 1 and 0, null leaves a parameter out."
    example     = { "net.ipv4.ip_forward" = 1 }
  }
}

# A key is one word of a sysctl.d line, before "=": a line break or an "="
# in it would write another parameter.
assert {
  condition = alltrue([for k, v in config.boot.kernel.sysctl : can(regex("^-?[A-Za-z0-9_.*/:@+-]+$", k))])
  message   = "boot.kernel.sysctl: ${join(", ", [for k, v in config.boot.kernel.sysctl : jsonencode(k) if !can(regex("^-?[A-Za-z0-9_.*/:@+-]+$", k))])} cannot be a sysctl.d key: a key is letters, digits and _.*/:@+- (a leading - ignores a failure)."
}

config "environment.etc.\"sysctl.d/60-nodegen.conf\"" {
  when   = length([for k, v in config.boot.kernel.sysctl : k if v != null]) > 0
  origin = "boot.kernel.sysctl"
  text = join("", [
    for k, v in config.boot.kernel.sysctl :
    "${k}=${v == true ? "1" : v == false ? "0" : v}\n" if v != null
  ])
}
