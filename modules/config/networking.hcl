# The host's name, which other modules read as root.networking.hostName,
# and /etc/hosts: NixOS's networking.hosts and networking.extraHosts
# (nixos/modules/config/networking.nix).

options "networking" {
  option "hostName" {
    type        = strMatching("|[A-Za-z0-9]([A-Za-z0-9_-]{0,61}[A-Za-z0-9])?", "host name (one DNS label, or empty)")
    default     = "nodegen"
    description = "The name of the machine, without domain. Empty leaves /etc/hostname out."
  }
  option "domain" {
    type        = nullOr(host)
    default     = null
    description = "The domain of the machine; with hostName it makes the fully qualified name."
    example     = "cluster.example.com"
  }
  option "fqdn" {
    type         = str
    read_only    = true
    default      = config.networking.domain == null ? config.networking.hostName : "${config.networking.hostName}.${config.networking.domain}"
    default_text = "hostName, with domain appended when it is set"
    description  = "The fully qualified domain name (read-only)."
  }
  option "timeServers" {
    type        = listOf(host)
    default     = ["0.pool.ntp.org", "1.pool.ntp.org", "2.pool.ntp.org", "3.pool.ntp.org"]
    description = "The set of NTP servers from which to synchronise (read by services.chrony and services.timesyncd)."
  }
  option "hosts" {
    type        = attrsOf(listOf(str))
    description = <<-EOT
      Locally defined maps of host names to IP addresses, written to
      /etc/hosts after the lines of localhost, one line per address, the
      addresses sorted. As in NixOS, 127.0.0.2 maps the fully qualified name
      and the host name (so that `hostname -f` works); definitions of one
      address add to each other.
    EOT
    example = {
      "127.0.0.1"   = ["foo.bar.baz"]
      "192.168.0.2" = ["fileserver.local", "nameserver.local"]
    }
  }
  option "extraHosts" {
    type        = lines
    default     = ""
    example     = "192.168.0.1 lanlocalhost"
    description = "Additional verbatim entries to be appended to /etc/hosts."
  }
}

locals {
  # The names of the host itself: the fully qualified name first (it is
  # the canonical one), then the host name.
  ownNames = concat(
    config.networking.hostName != "" && config.networking.domain != null ? [config.networking.fqdn] : [],
    config.networking.hostName != "" ? [config.networking.hostName] : [],
  )
  # Addresses other than the loopback's that map "localhost".
  localhostElsewhere = [
    for ip, names in config.networking.hosts : ip
    if contains(names, "localhost") && !contains(["127.0.0.1", "::1"], ip)
  ]
}

# These entries are needed for "hostname -f" and to resolve both the host
# name and the fully qualified name.
config "networking" {
  hosts = { "127.0.0.2" = local.ownNames }
}

# localhost comes first, so that 127.0.0.1 resolves back to "localhost" (as
# some programs assume) and not to the host's name.
config "environment.etc.hosts" {
  origin = "networking.hosts"
  text = join("", concat(
    ["127.0.0.1 localhost\n", config.networking.enableIPv6 ? "::1 localhost\n" : "\n"],
    [for ip, names in config.networking.hosts : "${ip} ${join(" ", names)}\n" if length(names) > 0],
    [config.networking.extraHosts],
  ))
}

assert {
  condition = length(local.localhostElsewhere) == 0
  message   = "networking.hosts maps \"localhost\" to ${join(", ", local.localhostElsewhere)}, not only to 127.0.0.1 or ::1. This will break some applications. Please use networking.extraHosts if you really want to add such a mapping."
}

config "environment.etc.hostname" {
  when   = config.networking.hostName != ""
  origin = "networking.hostName"
  text   = "${config.networking.hostName}\n"
}
