# systemd units, with NixOS's option names. Typed units (services,
# targets, sockets, timers, paths, slices, mounts) become systemd.units,
# which become files under /etc/systemd/system, .wants/.requires links and
# job scripts under /etc/nodegen/scripts.

locals {
  scriptDir     = "/etc/nodegen/scripts"
  unitDir       = "/etc/systemd/system"
  vendorUnitDir = "/usr/lib/systemd/system"
}

# What every unit has.
submodule "systemdUnit" {
  option "name" {
    type        = unitName
    read_only   = true
    description = "The name of this unit, with its type (sshd.service): the attribute name and the suffix of the option (systemd.services, .sockets, ...). A name that systemd would refuse is an error here."
  }
  option "enable" {
    type        = bool
    default     = true
    description = "Whether to write this unit. A disabled unit is left out of the profile."
  }
  option "description" {
    type        = singleLineStr
    default     = ""
    description = "Description of this unit used in systemd messages and progress indicators."
  }
  option "documentation" {
    type        = listOf(word)
    default     = []
    description = "A list of URIs referencing documentation for this unit or its configuration."
  }
  option "wantedBy" {
    type        = listOf(unitName)
    default     = []
    description = "Units that want this unit: each gets a symlink in its .wants directory."
  }
  option "requiredBy" {
    type        = listOf(unitName)
    default     = []
    description = "Units that require this unit: each gets a symlink in its .requires directory."
  }
  option "wants" {
    type        = listOf(unitName)
    default     = []
    description = "Start the specified units when this unit is started."
  }
  option "requires" {
    type        = listOf(unitName)
    default     = []
    description = "Start the specified units when this unit is started, and stop this unit when they fail."
  }
  option "after" {
    type        = listOf(unitName)
    default     = []
    description = "If the specified units are started at the same time as this unit, delay this unit until they have started."
  }
  option "before" {
    type        = listOf(unitName)
    default     = []
    description = "If the specified units are started at the same time as this unit, delay them until this unit has started."
  }
  option "bindsTo" {
    type        = listOf(unitName)
    default     = []
    description = "Like requires, but in addition, if the specified units unexpectedly disappear, this unit will be stopped as well."
  }
  option "partOf" {
    type        = listOf(unitName)
    default     = []
    description = "If the specified units are stopped or restarted, then this unit is stopped or restarted as well."
  }
  option "conflicts" {
    type        = listOf(unitName)
    default     = []
    description = "If the specified units are started, then this unit is stopped and vice versa."
  }
  option "requisite" {
    type        = listOf(unitName)
    default     = []
    description = "Similar to requires. However if the units listed are not started, they will not be started and the transaction will fail."
  }
  option "onFailure" {
    type        = listOf(unitName)
    default     = []
    description = "A list of one or more units that are activated when this unit enters the \"failed\" state."
  }
  option "unitConfig" {
    type        = attrsOf(systemdOption)
    default     = {}
    description = "Each attribute in this set specifies an option in the [Unit] section of the unit file."
    example     = { RequiresMountsFor = "/data" }
  }
  option "restartIfChanged" {
    type        = bool
    default     = true
    description = "Whether the unit should be restarted during a switch when its definition changed."
  }
  option "restartTriggers" {
    type        = listOf(anything)
    default     = []
    description = "An arbitrary list of items such as the text of configuration files; if any of them change between switches, the unit is restarted (written as an X-Restart-Triggers= digest in the unit)."
  }
  option "reloadTriggers" {
    type        = listOf(anything)
    default     = []
    description = "An arbitrary list of items such as the text of configuration files; if any of them change between switches, the unit is reloaded (written as an X-Reload-Triggers= digest in the unit). If anything else about the unit changed, it is restarted instead."
  }
  option "aliases" {
    type        = listOf(unitName)
    default     = []
    description = "Aliases of this unit: each is a symlink in /etc/systemd/system to the unit."
    example     = ["dbus-org.freedesktop.timesync1.service"]
  }
  option "overrideStrategy" {
    type        = enum(["asDropinIfExists", "asDropin"])
    default     = "asDropinIfExists"
    description = <<-EOT
      How the unit's definition is written. "asDropin": as a drop-in,
      /etc/systemd/system/NAME.d/overrides.conf, that overrides the settings
      it sets in a unit shipped by the distribution, which is left in place.
      "asDropinIfExists": as a drop-in if the unit is listed in
      systemd.packageUnits (the distribution ships it), else as a whole unit
      file in /etc/systemd/system.
    EOT
  }
  option "provides" {
    type        = submodule.systemdProvides
    default     = {}
    description = "What the unit makes available on this host once it runs, for the check of the profile's wait loops (see docs/startup-check.md)."
  }

  config "unitConfig" {
    Description        = mkIf(config.description != "", config.description)
    Documentation      = mkIf(length(config.documentation) > 0, config.documentation)
    Wants              = mkIf(length(config.wants) > 0, config.wants)
    Requires           = mkIf(length(config.requires) > 0, config.requires)
    After              = mkIf(length(config.after) > 0, config.after)
    Before             = mkIf(length(config.before) > 0, config.before)
    BindsTo            = mkIf(length(config.bindsTo) > 0, config.bindsTo)
    PartOf             = mkIf(length(config.partOf) > 0, config.partOf)
    Conflicts          = mkIf(length(config.conflicts) > 0, config.conflicts)
    Requisite          = mkIf(length(config.requisite) > 0, config.requisite)
    OnFailure          = mkIf(length(config.onFailure) > 0, config.onFailure)
    X-RestartIfChanged = mkIf(!config.restartIfChanged, false)
    X-Restart-Triggers = mkIf(length(config.restartTriggers) > 0, sha256(jsonencode(config.restartTriggers)))
    X-Reload-Triggers  = mkIf(length(config.reloadTriggers) > 0, sha256(jsonencode(config.reloadTriggers)))
  }
}

submodule "systemdService" {
  config { name = "${name}.service" }
  option "serviceConfig" {
    type        = attrsOf(systemdOption)
    default     = {}
    description = "Each attribute in this set specifies an option in the [Service] section of the unit file."
    example     = { RestartSec = 5, Restart = "always" }
  }
  option "environment" {
    type        = attrsOf(nullOr(str))
    default     = {}
    description = "Environment variables passed to the service's processes."
    example     = { HTTP_PROXY = "http://proxy:3128" }
  }
  option "path" {
    type        = listOf(str)
    default     = []
    description = "Packages added to the service's PATH: their bin and sbin directories."
  }
  option "preStart" {
    type        = lines
    default     = ""
    description = "Shell commands executed before the service's main process is started."
  }
  option "script" {
    type        = lines
    default     = ""
    description = "Shell commands executed as the service's main process."
  }
  option "scriptArgs" {
    type        = str
    default     = ""
    description = "Arguments passed to the main process script."
  }
  option "reload" {
    type        = lines
    default     = ""
    description = "Shell commands executed when the service's main process is reloaded."
  }
  option "postStart" {
    type        = lines
    default     = ""
    description = "Shell commands executed after the service's main process is started."
  }
  option "preStop" {
    type        = lines
    default     = ""
    description = "Shell commands executed to stop the service."
  }
  option "postStop" {
    type        = lines
    default     = ""
    description = "Shell commands executed after the service's main process has exited."
  }
  option "startAt" {
    type        = either(str, listOf(str))
    default     = []
    description = "Start the service at these times (systemd OnCalendar expressions, one or a list), with a timer unit of the same name; the value is always a list."
    example     = "Sun 14:00:00"
    apply       = flatten([value])
  }
  option "reloadIfChanged" {
    type        = bool
    default     = false
    description = "Whether the service should be reloaded, not restarted, when its definition changed."
  }
  option "stopIfChanged" {
    type        = bool
    default     = true
    description = <<-EOT
      When the service changed during a switch: if true, it is stopped with its
      old definition before the new files are put in place and started after;
      if false, it is restarted in one step once the new files are in place.
      Only applies when restartIfChanged is true.
    EOT
  }

  config "serviceConfig" {
    ExecStart     = mkIf(config.script != "", trimspace("${local.scriptDir}/${name}-start ${config.scriptArgs}"))
    ExecReload    = mkIf(config.reload != "", "${local.scriptDir}/${name}-reload")
    ExecStartPre  = mkIf(config.preStart != "", ["${local.scriptDir}/${name}-pre-start"])
    ExecStartPost = mkIf(config.postStart != "", ["${local.scriptDir}/${name}-post-start"])
    ExecStop      = mkIf(config.preStop != "", "${local.scriptDir}/${name}-pre-stop")
    ExecStopPost  = mkIf(config.postStop != "", ["${local.scriptDir}/${name}-post-stop"])
  }
  config "unitConfig" {
    X-ReloadIfChanged = mkIf(config.reloadIfChanged, true)
    X-StopIfChanged   = mkIf(!config.stopIfChanged, false)
  }
}

submodule "systemdSocket" {
  config { name = "${name}.socket" }
  option "socketConfig" {
    type        = attrsOf(systemdOption)
    default     = {}
    description = "Each attribute in this set specifies an option in the [Socket] section of the unit file."
    example     = { ListenStream = "/run/my-socket" }
  }
  option "listenStreams" {
    type        = listOf(str)
    default     = []
    description = "For each item in this list, a ListenStream option in the [Socket] section will be created."
  }
  option "listenDatagrams" {
    type        = listOf(str)
    default     = []
    description = "For each item in this list, a ListenDatagram option in the [Socket] section will be created."
  }
  config "socketConfig" {
    ListenStream   = mkIf(length(config.listenStreams) > 0, config.listenStreams)
    ListenDatagram = mkIf(length(config.listenDatagrams) > 0, config.listenDatagrams)
  }
}

submodule "systemdTimer" {
  config { name = "${name}.timer" }
  option "timerConfig" {
    type        = attrsOf(systemdOption)
    default     = {}
    description = "Each attribute in this set specifies an option in the [Timer] section of the unit file."
    example     = { OnCalendar = "Sun 14:00:00", Unit = "foo.service" }
  }
}

submodule "systemdPath" {
  config { name = "${name}.path" }
  option "pathConfig" {
    type        = attrsOf(systemdOption)
    default     = {}
    description = "Each attribute in this set specifies an option in the [Path] section of the unit file."
    example     = { PathChanged = "/some/path", Unit = "changedpath.service" }
  }
}

submodule "systemdSlice" {
  config { name = "${name}.slice" }
  option "sliceConfig" {
    type        = attrsOf(systemdOption)
    default     = {}
    description = "Each attribute in this set specifies an option in the [Slice] section of the unit file."
  }
}

submodule "systemdMount" {
  config { name = "${name}.mount" }
  option "what" {
    type        = str
    description = "Absolute path of device node, file or other resource (mount source)."
  }
  option "where" {
    type        = str
    description = "Absolute path of the mount point; the unit's name must be this path escaped the systemd way."
  }
  option "type" {
    type        = str
    default     = ""
    description = "File system type."
  }
  option "options" {
    type        = commas
    default     = ""
    description = "Options used to mount the file system."
  }
  option "mountConfig" {
    type        = attrsOf(systemdOption)
    default     = {}
    description = "Each attribute in this set specifies an option in the [Mount] section of the unit file."
  }
  config "mountConfig" {
    What    = config.what
    Where   = config.where
    Type    = mkIf(config.type != "", config.type)
    Options = mkIf(config.options != "", config.options)
  }
}

# What a unit makes available to the other units of its host. nodegen
# checks every wait loop of the profile against it (docs/startup-check.md).
submodule "systemdProvides" {
  option "files" {
    type        = listOf(str)
    default     = []
    example     = ["/run/flannel/subnet.env"]
    description = "Absolute paths of the files the unit creates: a loop that waits for one of them (`while ! test -f FILE`) is satisfied by this unit."
  }
  option "urls" {
    type        = listOf(str)
    default     = []
    example     = ["https://0.0.0.0:6443"]
    description = "Where the unit answers, as scheme://host:port: a loop that waits for a URL there (`while ! curl ... URL`) or for the port (`nc -z HOST PORT`) is satisfied by this unit. Host 0.0.0.0 or [::] stands for every address of this host; every host named here is one of this host's."
  }
}

# A unit as it is written: the typed units above end up here, and a
# verbatim unit or drop-ins for any unit can be given directly.
submodule "systemdUnitFile" {
  option "name" {
    type         = unitName
    default      = name
    default_text = "the attribute name"
    read_only    = true
    internal     = true
    description  = "The unit's file name: the attribute name, which systemd must accept."
  }
  option "enable" {
    type        = bool
    default     = true
    description = "Whether to write this unit."
  }
  option "text" {
    type        = nullOr(str)
    default     = null
    description = "The unit file, verbatim; null writes only the drop-ins."
  }
  option "wantedBy" {
    type        = listOf(unitName)
    default     = []
    description = "Units that want this unit."
  }
  option "requiredBy" {
    type        = listOf(unitName)
    default     = []
    description = "Units that require this unit."
  }
  option "origin" {
    type        = nullOr(str)
    default     = null
    internal    = true
    description = "The typed unit option this unit is generated from."
  }
  option "aliases" {
    type        = listOf(unitName)
    default     = []
    description = "Aliases of this unit: each is a symlink in /etc/systemd/system to the unit."
  }
  option "linkTarget" {
    type         = path
    default      = config.text == null ? "${local.vendorUnitDir}/${name}" : "${local.unitDir}/${name}"
    default_text = "the unit in /etc/systemd/system, or the distribution's (/usr/lib/systemd/system) when text is null"
    description  = "The unit file that the .wants/.requires links and the aliases point to."
  }
  option "provides" {
    type        = submodule.systemdProvides
    default     = {}
    description = "What the unit makes available on this host once it runs (the typed unit's provides)."
  }
  option "dropIns" {
    type        = attrsOf(lines)
    default     = {}
    description = "Drop-in files: each attribute NAME becomes <unit>.d/NAME.conf."
    example     = { "10-kops" = "[Service]\nEnvironment=\"A=1\"" }
  }
}

# The typed units, one option each, by what its description calls them.
locals {
  typedUnitOptions = {
    services = "service units"
    targets  = "target units"
    sockets  = "socket units"
    timers   = "timer units"
    paths    = "path units"
    slices   = "slice units"
    mounts   = "mount units, by unit name (the mount point escaped, as var-lib-kubelet for /var/lib/kubelet)"
  }
}

dynamic "option" {
  for_each = local.typedUnitOptions
  iterator = kind
  labels   = ["systemd.${kind.key}"]
  content {
    type        = attrsOf(submodule.systemdUnit)
    default     = {}
    description = "Definition of systemd ${kind.value}."
  }
}

options "systemd" {
  option "enableUnifiedCgroupHierarchy" {
    type        = bool
    default     = true
    description = <<-EOT
      Whether the host runs the unified cgroup hierarchy (cgroup v2). Set it
      to false on a host with the legacy or hybrid hierarchy (cgroup v1):
      programs that refuse cgroup v1 unless told (the kubelet since
      Kubernetes 1.35) are then told. nodegen writes no kernel command line,
      so this describes the host rather than changing it.
    EOT
  }
  option "packageUnits" {
    type        = listOf(unitName)
    default     = []
    description = "Units the distribution ships (as kubelet.service): a typed unit of one of these names is written as a drop-in (overrideStrategy \"asDropinIfExists\"), as NixOS does with units of systemd.packages."
    example     = ["systemd-timesyncd.service"]
  }
  option "units" {
    type        = attrsOf(submodule.systemdUnitFile)
    default     = {}
    description = "Units by file name (kubelet.service): generated from the typed units, or verbatim."
  }
  option "provided" {
    type        = attrsOf(submodule.systemdProvides)
    read_only   = true
    internal    = true
    default     = { for n, u in config.systemd.units : n => u.provides if u.enable }
    description = "What each unit written provides, by unit file name: what nodegen checks the profile's wait loops against."
  }
}

# Targets have no options of their own, only their name.
submodule "systemdTarget" {
  config { name = "${name}.target" }
}

# The typed unit kinds add their own options to the shared unit submodule.
option "systemd.targets" { type = attrsOf(submodule.systemdTarget) }
option "systemd.services" { type = attrsOf(submodule.systemdService) }
option "systemd.sockets" { type = attrsOf(submodule.systemdSocket) }
option "systemd.timers" { type = attrsOf(submodule.systemdTimer) }
option "systemd.paths" { type = attrsOf(submodule.systemdPath) }
option "systemd.slices" { type = attrsOf(submodule.systemdSlice) }
option "systemd.mounts" { type = attrsOf(submodule.systemdMount) }

# startAt makes a timer, as in NixOS.
config "systemd" {
  timers = {
    for n, s in config.systemd.services : n => {
      wantedBy    = ["timers.target"]
      timerConfig = { OnCalendar = s.startAt }
    } if s.enable && length(s.startAt) > 0
  }
}

locals {
  # Environment= lines of a service: its environment, and PATH from path.
  serviceEnv = {
    for n, s in config.systemd.services : n => merge(
      s.environment,
      length(s.path) == 0 ? {} : {
        PATH = join(":", concat([for p in s.path : "${p}/bin"], [for p in s.path : "${p}/sbin"]))
      },
    )
  }
}

locals {
  # The typed unit kinds: their option, file suffix, and the section their
  # own settings go to (targets have none).
  unitKinds = [
    { option = "targets", units = config.systemd.targets, suffix = "target", section = null },
    { option = "services", units = config.systemd.services, suffix = "service", section = "Service" },
    { option = "sockets", units = config.systemd.sockets, suffix = "socket", section = "Socket" },
    { option = "timers", units = config.systemd.timers, suffix = "timer", section = "Timer" },
    { option = "paths", units = config.systemd.paths, suffix = "path", section = "Path" },
    { option = "slices", units = config.systemd.slices, suffix = "slice", section = "Slice" },
    { option = "mounts", units = config.systemd.mounts, suffix = "mount", section = "Mount" },
  ]
}

locals {
  # Each typed unit rendered, and whether it is written as a drop-in.
  typedUnits = merge([
    for k in local.unitKinds : {
      for n, u in k.units : u.name => {
        origin = "systemd.${k.option}.${n}"
        dropIn = u.overrideStrategy == "asDropin" || contains(config.systemd.packageUnits, u.name)
        text = systemdunit(merge(
          { Unit = u.unitConfig },
          k.section == null ? {} : { (k.section) = u["${lower(k.section)}Config"] },
          k.suffix != "service" || length(local.serviceEnv[n]) == 0 ? {} : {
            Service = merge(u.serviceConfig, { Environment = local.serviceEnv[n] })
          },
        ))
        unit = u
      } if u.enable
    }
  ]...)
}

# Each typed unit becomes a unit file, or a drop-in for the distribution's
# unit. Nothing at all is written for an empty one: an empty unit file is
# a masked unit to systemd.
config "systemd" {
  units = {
    for n, t in local.typedUnits : n => {
      origin     = t.origin
      text       = t.dropIn || t.text == "" ? null : t.text
      dropIns    = t.dropIn && t.text != "" ? { overrides = t.text } : {}
      wantedBy   = t.unit.wantedBy
      requiredBy = t.unit.requiredBy
      aliases    = t.unit.aliases
      provides   = t.unit.provides
    }
  }
}

# systemd refuses a service without a command; the usual cause is a
# definition meant for a unit of the distribution, which belongs in a
# drop-in.
config {
  warnings = [
    for n, t in local.typedUnits : "${t.origin} has no ExecStart, ExecStop or SuccessAction, which systemd refuses; if the distribution ships ${n}, set overrideStrategy = \"asDropin\" (or list it in systemd.packageUnits) to write a drop-in for it."
    if !(t.dropIn || t.text == "" || !endswith(n, ".service") ||
    anytrue([for k in ["ExecStart", "ExecStop", "SuccessAction"] : contains(keys(t.unit.serviceConfig), k)]))
  ]
}

# Job scripts of services.
config "environment" {
  etc = merge([
    for n, s in config.systemd.services : merge([
      for step in [
        { suffix = "start", option = "script", text = s.script },
        { suffix = "pre-start", option = "preStart", text = s.preStart },
        { suffix = "post-start", option = "postStart", text = s.postStart },
        { suffix = "reload", option = "reload", text = s.reload },
        { suffix = "pre-stop", option = "preStop", text = s.preStop },
        { suffix = "post-stop", option = "postStop", text = s.postStop },
      ] : {
        "nodegen/scripts/${n}-${step.suffix}" = {
          text   = "#!/bin/sh -e\n${step.text}"
          mode   = "0755"
          origin = "systemd.services.${n}.${step.option}"
        }
      } if step.text != ""
    ]...) if s.enable
  ]...)
}

# Unit files, drop-ins and the .wants/.requires links.
config "environment" {
  etc = merge(
    {
      for n, u in config.systemd.units : "systemd/system/${n}" => {
        text   = u.text
        origin = u.origin == null ? "systemd.units.\"${n}\".text" : u.origin
      }
      if u.enable && u.text != null
    },
    merge([
      for n, u in config.systemd.units : {
        for f, t in u.dropIns : "systemd/system/${n}.d/${f}.conf" => {
          text   = t
          origin = "systemd.units.\"${n}\".dropIns.\"${f}\""
        }
      } if u.enable
    ]...),
    # The aliases, and the .wants and .requires links of wantedBy and
    # requiredBy: symlinks to the unit.
    merge([
      for n, u in config.systemd.units : merge([
        for l in [
          { option = "aliases", paths = u.aliases },
          { option = "wantedBy", paths = [for t in u.wantedBy : "${t}.wants/${n}"] },
          { option = "requiredBy", paths = [for t in u.requiredBy : "${t}.requires/${n}"] },
        ] : {
          for p in l.paths : "systemd/system/${p}" => {
            mode   = "symlink"
            source = u.linkTarget
            origin = "${u.origin == null ? "systemd.units.\"${n}\"" : u.origin}.${l.option}"
          }
        }
      ]...) if u.enable
    ]...),
  )
}
