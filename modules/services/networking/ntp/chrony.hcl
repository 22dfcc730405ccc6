# chrony, ported from NixOS's services/networking/ntp/chrony.nix to
# Debian's chrony package (/usr/sbin/chronyd). As in NixOS, timesyncd is
# turned off when chrony is on; since the distribution ships and enables
# systemd-timesyncd, nodegen masks its unit.

locals {
  chrony          = config.services.chrony
  chronyd         = "/usr/sbin/chronyd"
  chronyConfFile  = "/etc/chrony/chrony.conf"
  chronyDriftFile = "${local.chrony.directory}/chrony.drift"
  chronyKeyFile   = "${local.chrony.directory}/chrony.keys"
  chronyRtcFile   = "${local.chrony.directory}/chrony.rtc"
}

options "services.chrony" {
  option "enable" {
    type        = bool
    default     = false
    description = "Whether to synchronise your machine's time using chrony. Make sure you disable NTP if you enable this service."
  }
  option "servers" {
    type         = listOf(host)
    default      = config.networking.timeServers
    default_text = "config.networking.timeServers"
    description  = "The set of NTP servers from which to synchronise."
  }
  option "serverOption" {
    type        = enum(["server", "pool"])
    default     = "server"
    description = "Set option for server directives. Use \"server\" to treat all servers as single NTP sources, \"pool\" for pools of servers."
  }
  option "enableMemoryLocking" {
    type        = bool
    default     = true
    description = "Whether to add the -m flag to lock memory."
  }
  option "enableRTCTrimming" {
    type        = bool
    default     = true
    description = "Enable tracking of the RTC offset to the system clock and automatic trimming. See also services.chrony.autotrimThreshold."
  }
  option "autotrimThreshold" {
    type        = ints.positive
    default     = 30
    description = "Maximum estimated error threshold for the rtcautotrim command. When reached, the RTC will be trimmed. Only used when services.chrony.enableRTCTrimming is enabled."
  }
  option "enableNTS" {
    type        = bool
    default     = false
    description = "Whether to enable Network Time Security authentication. Make sure it is supported by your selected NTP server(s)."
  }
  option "initstepslew.enabled" {
    type        = bool
    default     = true
    description = "Allow chronyd to make a rapid (step) adjustment of the system clock at startup (initstepslew)."
  }
  option "initstepslew.threshold" {
    type        = either(float, int)
    default     = 1000
    description = "The threshold of system clock error (in seconds) above which the clock will be stepped. If the correction required is less than the threshold, a slew is used instead."
  }
  option "directory" {
    type        = pathWord
    default     = "/var/lib/chrony"
    description = "Directory where chrony state is stored."
  }
  option "extraConfig" {
    type        = lines
    default     = ""
    description = "Extra configuration directives that should be added to chrony.conf."
  }
  option "extraFlags" {
    type        = listOf(word)
    default     = []
    description = "Extra flags passed to the chronyd command. With -x chronyd does not control the system clock (as in a container without CAP_SYS_TIME), and its unit then runs without the CAP_SYS_TIME condition it has otherwise."
  }
}

locals {
  chronyConfig = join("", concat(
    [for s in local.chrony.servers : "${local.chrony.serverOption} ${s} iburst${local.chrony.enableNTS ? " nts" : ""}\n"],
    local.chrony.initstepslew.enabled && length(local.chrony.servers) > 0 ? ["initstepslew ${local.chrony.initstepslew.threshold} ${join(" ", local.chrony.servers)}\n"] : [],
    [
      "driftfile ${local.chronyDriftFile}\n",
      "keyfile ${local.chronyKeyFile}\n",
    ],
    local.chrony.enableRTCTrimming ? ["rtcfile ${local.chronyRtcFile}\n"] : [],
    local.chrony.enableNTS ? ["ntsdumpdir ${local.chrony.directory}\n"] : [],
    local.chrony.enableRTCTrimming ? ["rtcautotrim ${local.chrony.autotrimThreshold}\n"] : [],
    config.time.hardwareClockInLocalTime ? [] : ["rtconutc\n"],
    local.chrony.extraConfig == "" ? [] : ["${chomp(local.chrony.extraConfig)}\n"],
  ))
  chronyFlags = concat(
    ["-n", "-u", "chrony", "-f", local.chronyConfFile],
    local.chrony.enableMemoryLocking ? ["-m"] : [],
    local.chrony.extraFlags,
  )
}

config "services.timesyncd" {
  when   = local.chrony.enable
  enable = mkForce(false)
}

config "environment.etc.\"systemd/system/systemd-timesyncd.service\"" {
  when   = local.chrony.enable
  origin = "services.chrony.enable"
  mode   = "symlink"
  source = "/dev/null"
}

config "users.users.chrony" {
  when         = local.chrony.enable
  isSystemUser = true
  group        = "chrony"
  description  = "chrony daemon user"
  home         = local.chrony.directory
}
config "users.groups.chrony" {
  when = local.chrony.enable
}

config "environment.etc.\"chrony/chrony.conf\"" {
  when   = local.chrony.enable
  origin = "services.chrony"
  text   = local.chronyConfig
  # chronyd -p parses the file and prints it; an unknown directive or a
  # bad argument is an error.
  checks = [{
    programs = [local.chronyd]
    script   = "${local.chronyd} -p -f \"$1\" > /dev/null"
  }]
}

config "systemd.tmpfiles" {
  when = local.chrony.enable
  rules = concat(
    [
      "d ${local.chrony.directory} 0750 chrony chrony - -",
      "f ${local.chronyDriftFile} 0640 chrony chrony - -",
      "f ${local.chronyKeyFile} 0640 chrony chrony - -",
    ],
    local.chrony.enableRTCTrimming ? ["f ${local.chronyRtcFile} 0640 chrony chrony - -"] : [],
  )
}

config "systemd.services.chronyd" {
  when            = local.chrony.enable
  description     = "chrony NTP daemon"
  wantedBy        = ["multi-user.target"]
  wants           = ["time-sync.target"]
  before          = ["time-sync.target"]
  after           = ["network.target", "nss-lookup.target"]
  conflicts       = ["ntpd.service", "systemd-timesyncd.service", "chrony.service"]
  restartTriggers = [local.chronyConfig]
  # chronyd needs CAP_SYS_TIME to set the clock, which a container lacks;
  # with -x it leaves the clock alone (and serves and reports time), so
  # the condition goes with the clock control.
  unitConfig = contains(local.chrony.extraFlags, "-x") ? {} : {
    ConditionCapability = "CAP_SYS_TIME"
  }
  serviceConfig = {
    Type      = "simple"
    ExecStart = "${local.chronyd} ${join(" ", [for f in local.chronyFlags : systemdexecarg(f)])}"

    # Proc filesystem
    ProcSubset  = "pid"
    ProtectProc = "invisible"
    # Access write directories
    ReadWritePaths = [local.chrony.directory]
    UMask          = "0027"
    # Capabilities
    CapabilityBoundingSet = ["CAP_CHOWN", "CAP_DAC_OVERRIDE", "CAP_NET_BIND_SERVICE", "CAP_SETGID", "CAP_SETUID", "CAP_SYS_RESOURCE", "CAP_SYS_TIME"]
    # Device Access
    DeviceAllow  = ["char-pps rw", "char-ptp rw", "char-rtc rw"]
    DevicePolicy = "closed"
    # Security
    NoNewPrivileges = true
    # Sandboxing
    ProtectSystem           = "full"
    ProtectHome             = true
    PrivateTmp              = true
    PrivateDevices          = false
    PrivateUsers            = false
    ProtectHostname         = true
    ProtectClock            = false
    ProtectKernelTunables   = true
    ProtectKernelModules    = true
    ProtectKernelLogs       = true
    ProtectControlGroups    = true
    RestrictAddressFamilies = ["AF_INET", "AF_INET6", "AF_NETLINK", "AF_UNIX"]
    RestrictNamespaces      = true
    LockPersonality         = true
    MemoryDenyWriteExecute  = true
    RestrictRealtime        = true
    RestrictSUIDSGID        = true
    RemoveIPC               = true
    PrivateMounts           = true
    # System Call Filtering
    SystemCallArchitectures = "native"
    SystemCallFilter        = ["~@cpu-emulation @debug @keyring @mount @obsolete @privileged @resources", "@clock", "@setuid", "capset", "@chown"]
  }
}

# What NixOS takes from pkgs.chrony: Debian's package, installed by nodegen
# switch.
config "environment.packages.chrony" {
  when     = local.chrony.enable
  provides = [local.chronyd]
}
