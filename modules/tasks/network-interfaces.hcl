# Network interface options, with NixOS's names
# (tasks/network-interfaces.nix). Only enableIPv6 for now.

option "networking.enableIPv6" {
  type        = bool
  default     = true
  description = "Whether to enable support for IPv6. When false, the kernel's IPv6 is switched off with sysctl, and services that read this option (sshd's AddressFamily, the firewall) use IPv4 only."
}

config "boot.kernel" {
  when = !config.networking.enableIPv6
  sysctl = {
    "net.ipv6.conf.all.disable_ipv6"     = 1
    "net.ipv6.conf.default.disable_ipv6" = 1
  }
}
