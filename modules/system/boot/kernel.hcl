# Kernel modules to load at boot and sysctl settings.

options "boot" {
  option "kernelModules" {
    type        = listOf(str)
    default     = []
    description = "Kernel modules loaded at boot, by systemd-modules-load."
    example     = ["br_netfilter", "overlay"]
  }
  option "kernel.sysctl" {
    type        = attrsOf(nullOr(oneOf([bool, str, int])))
    default     = {}
    description = "Runtime kernel parameters; true and false are written 1 and 0, null leaves a parameter out."
    example     = { "net.ipv4.ip_forward" = 1 }
  }
}

config "environment.etc.\"modules-load.d/nodegen.conf\"" {
  when   = length(config.boot.kernelModules) > 0
  origin = "boot.kernelModules"
  text   = "${join("\n", distinct(config.boot.kernelModules))}\n"
}

config "environment.etc.\"sysctl.d/60-nodegen.conf\"" {
  when   = length([for k, v in config.boot.kernel.sysctl : k if v != null]) > 0
  origin = "boot.kernel.sysctl"
  text = join("", [
    for k, v in config.boot.kernel.sysctl :
    "${k}=${v == true ? "1" : v == false ? "0" : v}\n" if v != null
  ])
}
