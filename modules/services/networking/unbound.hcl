# Unbound, ported from NixOS's services/networking/unbound.nix (the
# settings-based module) to Debian's unbound package (/usr/sbin/unbound).
# The unit is NixOS's, written whole over Debian's unbound.service of the
# same name.
#
# Differences from NixOS:
# - security.pki.caBundle is Debian's /etc/ssl/certs/ca-certificates.crt.
# - resolveLocalQueries (NixOS: networking.resolvconf.useLocalResolver)
#   writes /etc/resolv.conf naming the local server first, unless
#   services.resolved owns resolv.conf.
# - checkconf runs unbound-checkconf as a check of the generated file
#   (environment.etc's checks: at eval where unbound is installed, and at
#   switch), the way NixOS runs it at build.
# - the renamed allowedAccess (mkChangedOptionModule, which maps the old
#   value) is a removed option whose message says how to write it.

locals {
  unbound       = config.services.unbound
  unboundBin    = "/usr/sbin/unbound"
  unboundCheck  = "/usr/sbin/unbound-checkconf"
  unboundSetup  = "/usr/sbin/unbound-control-setup"
  unboundAnchor = "/usr/sbin/unbound-anchor"

  rootTrustAnchorFile = "${local.unbound.stateDir}/root.key"

  # The loopback addresses, and where unbound listens and answers by
  # default: IPv6's with networking.enableIPv6.
  unboundLoopback = concat(["127.0.0.1"], config.networking.enableIPv6 ? ["::1"] : [])
}

options "services.unbound" {
  option "enable" {
    type        = bool
    default     = false
    description = "Whether to enable Unbound domain name server."
  }
  option "user" {
    type        = userName
    default     = "unbound"
    description = "User account under which unbound runs."
  }
  option "group" {
    type        = userName
    default     = "unbound"
    description = "Group under which unbound runs."
  }
  option "stateDir" {
    type        = pathWord
    default     = "/var/lib/unbound"
    description = "Directory holding all state for unbound to run."
  }
  option "checkconf" {
    type         = bool
    default      = !contains(keys(local.unbound.settings), "include") && !contains(keys(local.unbound.settings), "remote-control")
    default_text = "!services.unbound.settings ? include && !services.unbound.settings ? remote-control"
    description  = <<-EOT
      Whether to check the resulting config file with unbound checkconf for syntax errors.

      If settings.include is used, this options is disabled, as the import can likely not be accessed at build time.
      If settings.remote-control is used, this option is disabled, too as the control-key-file, server-cert-file and server-key-file cannot be accessed at build time.

      (As in NixOS, the module always sets remote-control, so this is false
      unless set.)
    EOT
  }
  option "resolveLocalQueries" {
    type        = bool
    default     = true
    description = "Whether unbound should resolve local queries (i.e. add 127.0.0.1 to /etc/resolv.conf)."
  }
  option "enableRootTrustAnchor" {
    type        = bool
    default     = true
    description = "Use and update root trust anchor for DNSSEC validation."
  }
  option "localControlSocketPath" {
    type        = nullOr(str)
    default     = null
    example     = "/run/unbound/unbound.ctl"
    description = <<-EOT
      When not set to `null` this option defines the path
      at which the unbound remote control socket should be created at. The
      socket will be owned by the unbound user (`unbound`) and group will be
      `nogroup`.

      Users that should be permitted to access the socket must be in the
      `config.services.unbound.group` group.

      If this option is `null` remote control will not be
      enabled. Unbounds default values apply.
    EOT
  }
  option "settings" {
    type    = submodule.unboundSettings
    default = {}
    example = {
      server = { interface = ["127.0.0.1"] }
      forward-zone = [
        { name = ".", forward-addr = "1.1.1.1@853#cloudflare-dns.com" },
        { name = "example.org.", forward-addr = ["1.1.1.1@853#cloudflare-dns.com", "1.0.0.1@853#cloudflare-dns.com"] },
      ]
      remote-control = { control-enable = true }
    }
    description = "Declarative Unbound configuration. See the unbound.conf(5) manpage for a list of available options."
  }
}

# unbound.conf configuration type. The format consist of an attribute set
# of settings. Each settings can be either one value, a list of values or
# an attribute set. The allowed values are integers, strings, booleans or
# floats. (NixOS's validSettingsPrimitiveTypes, validSettingsTypes and
# settingsType.)
type "unboundPrimitive" {
  type = oneOf([int, str, bool, float])
}
type "unboundValue" {
  type = oneOf([types.unboundPrimitive, listOf(types.unboundPrimitive)])
}
type "unboundSetting" {
  type = oneOf([str, attrsOf(types.unboundValue)])
}
submodule "unboundSettings" {
  freeform = attrsOf(oneOf([types.unboundSetting, listOf(types.unboundSetting)]))
  option "remote-control.control-enable" {
    type     = bool
    default  = false
    internal = true
  }
}

config "services.unbound.settings" {
  when = local.unbound.enable
  server = merge(
    {
      directory = mkDefault(local.unbound.stateDir)
      username  = "\"\""
      chroot    = "\"\""
      pidfile   = "\"\""
      # when running under systemd there is no need to daemonize
      do-daemonize    = false
      interface       = mkDefault(local.unboundLoopback)
      access-control  = mkDefault(concat(["127.0.0.0/8 allow"], config.networking.enableIPv6 ? ["::1/128 allow"] : []))
      tls-cert-bundle = mkDefault("/etc/ssl/certs/ca-certificates.crt")
      # prevent race conditions on system startup when interfaces are not yet
      # configured
      ip-freebind = mkDefault(true)
      define-tag  = mkDefault("")
    },
    local.unbound.enableRootTrustAnchor ? { auto-trust-anchor-file = local.rootTrustAnchorFile } : {},
  )
  remote-control = merge(
    {
      control-enable    = mkDefault(false)
      control-interface = mkDefault(local.unboundLoopback)
      server-key-file   = mkDefault("${local.unbound.stateDir}/unbound_server.key")
      server-cert-file  = mkDefault("${local.unbound.stateDir}/unbound_server.pem")
      control-key-file  = mkDefault("${local.unbound.stateDir}/unbound_control.key")
      control-cert-file = mkDefault("${local.unbound.stateDir}/unbound_control.pem")
    },
    local.unbound.localControlSocketPath != null ? {
      control-enable    = true
      control-interface = local.unbound.localControlSocketPath
    } : {},
  )
}

# NixOS's toConf for a section's body (an attribute set of values or
# lists of values), to the depth the settings' type allows: each value is
# written "  KEY: VALUE", a list repeats its key, a bool is yes or no. A
# line for each key.
function "unboundBodyLines" {
  params = [body]
  result = [
    for k, v in body : join("\n", [for x in flatten([v]) : "  ${k}: ${x == true ? "yes" : x == false ? "no" : x}"])
  ]
}

locals {
  # Every top-level key but server: a string, a section or a list of
  # those, each section "NAME:" then its body.
  unboundSettingsRest = { for n, v in local.unbound.settings : n => v if n != "server" }
  confNoServer = join("\n", concat([
    for n, v in local.unboundSettingsRest : join("\n", [
      for x in flatten([v]) : can(keys(x)) ? join("\n", concat(["${n}:"], unboundBodyLines(x))) : "${n}: ${x}"
    ])
  ], [""]))

  # confFileUnchecked, line for line as NixOS's indented string.
  unboundConf = join("", [
    "server:\n",
    local.unbound.settings.server.define-tag != "" ? "  define-tag: ${local.unbound.settings.server.define-tag}\n" : "\n",
    "${join("\n", unboundBodyLines({ for k, v in local.unbound.settings.server : k => v if k != "define-tag" }))}\n",
    "${local.confNoServer}\n",
  ])
}

renamed_option "services.unbound.interfaces" { to = "services.unbound.settings.server.interface" }
removed_option "services.unbound.allowedAccess" {
  message = "Set services.unbound.settings.server.access-control instead, each network followed by \" allow\"."
}
removed_option "services.unbound.forwardAddresses" {
  message = <<-EOT
    Add a new setting:
    services.unbound.settings.forward-zone = [{
      name = ".";
      forward-addr = [ # Your current services.unbound.forwardAddresses ];
    }];
    If any of those addresses are local addresses (127.0.0.1 or ::1), you must
    also set services.unbound.settings.server.do-not-query-localhost to false.
  EOT
}
removed_option "services.unbound.extraConfig" {
  message = "You can use services.unbound.settings to add any configuration you want."
}

config "users.users.unbound" {
  when         = local.unbound.enable && local.unbound.user == "unbound"
  description  = "unbound daemon user"
  isSystemUser = true
  group        = local.unbound.group
}
config "users.groups.unbound" {
  when = local.unbound.enable && local.unbound.group == "unbound"
}

config "environment.etc.\"unbound/unbound.conf\"" {
  when   = local.unbound.enable
  origin = "services.unbound.settings"
  text   = local.unboundConf
  # NixOS's checkconf: the state directory, which the check cannot reach,
  # replaced by one of its own, and the trust anchor left out.
  checks = local.unbound.checkconf ? [{
    programs = [local.unboundCheck]
    script   = <<-EOT
      mkdir state
      sed -e '/auto-trust-anchor-file/d' -e "s|${local.unbound.stateDir}|$PWD/state|" "$1" > unbound.conf
      ${local.unboundCheck} unbound.conf
    EOT
  }] : []
}

config "environment.etc.\"resolv.conf\"" {
  when   = local.unbound.enable && local.unbound.resolveLocalQueries && !config.services.resolved.enable
  origin = "services.unbound.resolveLocalQueries"
  text = join("", concat(
    [for a in distinct(concat(local.unboundLoopback, config.networking.nameservers)) : "nameserver ${a}\n"],
    length(config.networking.search) > 0 ? ["search ${join(" ", config.networking.search)}\n"] : [],
  ))
}

config "systemd.services.unbound" {
  when        = local.unbound.enable
  description = "Unbound recursive Domain Name Server"
  after       = ["network.target"]
  before      = ["nss-lookup.target"]
  wantedBy    = ["multi-user.target", "nss-lookup.target"]
  preStart = join("", [
    local.unbound.enableRootTrustAnchor ? "${local.unboundAnchor} -a ${local.rootTrustAnchorFile} || echo \"Root anchor updated!\"\n" : "",
    local.unbound.settings.remote-control.control-enable ? "${local.unboundSetup} -d ${local.unbound.stateDir}\n" : "",
  ])
  restartTriggers = [local.unboundConf]

  serviceConfig = {
    ExecStart  = "${local.unboundBin} -p -d -c /etc/unbound/unbound.conf"
    ExecReload = "+/bin/kill -HUP $MAINPID"

    NotifyAccess = "main"
    Type         = "notify"

    AmbientCapabilities = [
      "CAP_NET_BIND_SERVICE",
      "CAP_NET_RAW", # needed if ip-transparent is set to true
    ]
    CapabilityBoundingSet = [
      "CAP_NET_BIND_SERVICE",
      "CAP_NET_RAW",
    ]

    User  = local.unbound.user
    Group = local.unbound.group

    MemoryDenyWriteExecute  = true
    NoNewPrivileges         = true
    PrivateDevices          = true
    PrivateTmp              = true
    ProtectHome             = true
    ProtectControlGroups    = true
    ProtectKernelModules    = true
    ProtectSystem           = "strict"
    ReadWritePaths          = [local.unbound.stateDir]
    ProtectClock            = true
    ProtectHostname         = true
    ProtectProc             = "invisible"
    ProcSubset              = "pid"
    ProtectKernelLogs       = true
    ProtectKernelTunables   = true
    RuntimeDirectory        = "unbound"
    ConfigurationDirectory  = "unbound"
    StateDirectory          = "unbound"
    RestrictAddressFamilies = ["AF_INET", "AF_INET6", "AF_NETLINK", "AF_UNIX"]
    RestrictRealtime        = true
    SystemCallArchitectures = "native"
    SystemCallFilter        = ["@system-service"]
    RestrictNamespaces      = true
    LockPersonality         = true
    RestrictSUIDSGID        = true

    Restart    = "on-failure"
    RestartSec = "5s"
  }
}

# What NixOS takes from pkgs.unbound: Debian's package, installed by
# nodegen switch (unbound-control-setup runs openssl, which it depends on).
config "environment.packages.unbound" {
  when     = local.unbound.enable
  provides = [local.unboundBin, local.unboundCheck, local.unboundSetup]
}
# The default tls-cert-bundle is Debian's CA bundle, from ca-certificates,
# which a minimal machine (debootstrap's minbase) lacks: unbound does not
# start without the file it names.
config "environment.packages.ca-certificates" {
  when = local.unbound.enable && try(local.unbound.settings.server["tls-cert-bundle"], null) == "/etc/ssl/certs/ca-certificates.crt"
}
config "environment.packages.unbound-anchor" {
  when     = local.unbound.enable && local.unbound.enableRootTrustAnchor
  provides = [local.unboundAnchor]
}
