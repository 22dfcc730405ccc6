# systemd-timesyncd, with NixOS's option names (system/boot/timesyncd.nix).
# The distribution ships the unit; nodegen writes its configuration and a
# drop-in for the unit. Unlike NixOS it is off unless a host enables it, so
# that a host that does not use it keeps the distribution's setup.

options "services.timesyncd" {
  option "enable" {
    type        = bool
    default     = false
    description = "Whether to configure systemd-timesyncd as a simple time-sync client: nodegen writes its servers and enables the distribution's unit."
  }
  option "servers" {
    type         = listOf(host)
    default      = config.networking.timeServers
    default_text = "config.networking.timeServers"
    description  = "The set of NTP servers from which to synchronise."
  }
  option "fallbackServers" {
    type        = nullOr(listOf(host))
    default     = null
    description = "The set of fallback NTP servers from which to synchronise; null keeps systemd's built-in list."
  }
  option "extraConfig" {
    type        = lines
    default     = ""
    description = "Extra config options for systemd-timesyncd, in its [Time] section. See timesyncd.conf(5)."
    example     = "PollIntervalMaxSec=180"
  }
}

locals {
  timesyncdConf = join("", concat(
    ["[Time]\n", "NTP=${join(" ", config.services.timesyncd.servers)}\n"],
    config.services.timesyncd.fallbackServers == null ? [] : ["FallbackNTP=${join(" ", config.services.timesyncd.fallbackServers)}\n"],
    config.services.timesyncd.extraConfig == "" ? [] : ["${chomp(config.services.timesyncd.extraConfig)}\n"],
  ))
}

config "environment.etc.\"systemd/timesyncd.conf\"" {
  when   = config.services.timesyncd.enable
  origin = "services.timesyncd"
  text   = local.timesyncdConf
}

# The distribution's unit, with a drop-in: enabled, aliased as NixOS
# does, and restarted when its configuration changes.
config "systemd.services.systemd-timesyncd" {
  when             = config.services.timesyncd.enable
  overrideStrategy = "asDropin"
  wantedBy         = ["sysinit.target"]
  aliases          = ["dbus-org.freedesktop.timesync1.service"]
  restartTriggers  = [local.timesyncdConf]
}
