# Network interface options, with NixOS's names
# (tasks/network-interfaces.nix): enableIPv6, nameservers and search.

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

option "networking.nameservers" {
  type        = listOf(str)
  default     = []
  example     = ["130.161.158.4", "130.161.33.17"]
  description = "The list of nameservers. It can be left empty if it is auto-detected through DHCP."
}

option "networking.search" {
  type        = listOf(str)
  default     = []
  example     = ["example.com", "home.arpa"]
  description = "The list of search paths used when resolving domain names."
}
