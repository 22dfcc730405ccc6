# The host's name, which other modules read as root.networking.hostName.

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
}

config "environment.etc.hostname" {
  when   = config.networking.hostName != ""
  origin = "networking.hostName"
  text   = "${config.networking.hostName}\n"
}
