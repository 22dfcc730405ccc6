# Kernel modules to load at boot (as NixOS's system/boot/kernel.nix).

options "boot" {
  option "kernelModules" {
    type        = listOf(word)
    default     = []
    description = "Kernel modules loaded at boot, by systemd-modules-load."
    example     = ["br_netfilter", "overlay"]
  }
}

config "environment.etc.\"modules-load.d/nodegen.conf\"" {
  when   = length(config.boot.kernelModules) > 0
  origin = "boot.kernelModules"
  text   = "${join("\n", distinct(config.boot.kernelModules))}\n"
}
