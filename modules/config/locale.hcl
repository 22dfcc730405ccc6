# The time zone and the hardware clock, with NixOS's option names
# (config/locale.nix).

options "time" {
  option "timeZone" {
    type        = nullOr(strMatching("[^ ]+", "time zone name without spaces"))
    default     = null
    description = "The time zone used when displaying times and dates, as a name from /usr/share/zoneinfo. null leaves the system's time zone as it is."
    example     = "America/New_York"
  }
  option "hardwareClockInLocalTime" {
    type        = bool
    default     = false
    description = "If set, keep the hardware clock in local time instead of UTC (written to /etc/adjtime)."
  }
}

config "environment.etc.localtime" {
  when   = config.time.timeZone != null
  origin = "time.timeZone"
  mode   = "symlink"
  source = "/usr/share/zoneinfo/${config.time.timeZone}"
}

# Debian's tools read the zone's name from /etc/timezone.
config "environment.etc.timezone" {
  when   = config.time.timeZone != null
  origin = "time.timeZone"
  text   = "${config.time.timeZone}\n"
}

# The format systemd-timedated and hwclock read: drift, last adjustment,
# calibration, then LOCAL or UTC.
config "environment.etc.adjtime" {
  when   = config.time.hardwareClockInLocalTime
  origin = "time.hardwareClockInLocalTime"
  text   = "0.0 0 0.0\n0\nLOCAL\n"
}
