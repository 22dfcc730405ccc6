# The OpenSSH daemon, ported from NixOS's services/networking/ssh/sshd.nix
# to Debian's openssh-server (/usr/sbin/sshd).
#
# The units keep NixOS's names, sshd.service (or sshd.socket and sshd@),
# and conflict with Debian's ssh.service and ssh.socket. Debian enables
# ssh.service with an alias link /etc/systemd/system/sshd.service, which the
# profile's sshd.service replaces: the first switch needs --backup, or
# `systemctl disable ssh` before it.
#
# settings is NixOS's freeform settings: the keys NixOS declares are
# options of the submodule sshdSettings, with their types, defaults and
# docs; any other sshd_config key is an atom of the format sshdConfig
# (NixOS's settingsFormat, pkgs.formats.keyValue), which also writes the
# file.

locals {
  sshd    = config.services.openssh
  sshdBin = "/usr/sbin/sshd"
  # sshd_config keys whose list values are one comma-separated or
  # space-separated value (NixOS's commaSeparated and spaceSeparated); any
  # other list repeats its key.
  sshdCommaKeys = ["Ciphers", "KexAlgorithms", "Macs"]
  sshdSpaceKeys = ["AuthorizedKeysFile", "AllowGroups", "AllowUsers", "DenyGroups", "DenyUsers"]
}

# sshd_config's format: "Keyword value" lines, booleans as yes and no.
# NixOS's settingsFormat allows no list for an undeclared keyword; here a
# list repeats its keyword, a line per element (AcceptEnv = ["LANG",
# "LC_*"] is "AcceptEnv LANG" and "AcceptEnv LC_*"), as the port did
# before formats, and sshd adds up such repeated keywords.
format "sshdConfig" "keyValue" {
  separator            = " "
  listsAsDuplicateKeys = true
  true                 = "yes"
  false                = "no"
}

# The sshd_config keywords NixOS declares; any other is an atom (or a list)
# of the format sshdConfig. null leaves a keyword out.
submodule "sshdSettings" {
  freeform = format.sshdConfig
  option "AuthorizedPrincipalsFile" {
    type        = nullOr(singleLineStr)
    default     = "none"
    description = "Specifies a file that lists principal names that are accepted for certificate authentication. The default is \"none\", i.e. not to use a principals file."
  }
  option "LogLevel" {
    type        = nullOr(enum(["QUIET", "FATAL", "ERROR", "INFO", "VERBOSE", "DEBUG", "DEBUG1", "DEBUG2", "DEBUG3"]))
    default     = "INFO"
    description = "Gives the verbosity level that is used when logging messages from sshd(8). Logging with a DEBUG level violates the privacy of users and is not recommended."
  }
  option "UsePAM" {
    type        = nullOr(bool)
    default     = true
    description = "Whether to enable PAM authentication."
  }
  option "UseDns" {
    type        = nullOr(bool)
    default     = false
    description = "Specifies whether sshd(8) should look up the remote host name, and to check that the resolved host name for the remote IP address maps back to the very same IP address. If this option is set to no (the default) then only addresses and not host names may be used in ~/.ssh/authorized_keys from and sshd_config Match Host directives."
  }
  option "X11Forwarding" {
    type        = nullOr(bool)
    default     = false
    description = "Whether to allow X11 connections to be forwarded."
  }
  option "PasswordAuthentication" {
    type        = nullOr(bool)
    default     = true
    description = "Specifies whether password authentication is allowed."
  }
  option "PermitRootLogin" {
    type        = nullOr(enum(["yes", "without-password", "prohibit-password", "forced-commands-only", "no"]))
    default     = "prohibit-password"
    description = "Whether the root user can login using ssh."
  }
  option "KbdInteractiveAuthentication" {
    type        = nullOr(bool)
    default     = true
    description = "Specifies whether keyboard-interactive authentication is allowed."
  }
  option "GatewayPorts" {
    type        = nullOr(singleLineStr)
    default     = "no"
    description = "Specifies whether remote hosts are allowed to connect to ports forwarded for the client. See sshd_config(5)."
  }
  option "KexAlgorithms" {
    type = nullOr(listOf(word))
    default = [
      "sntrup761x25519-sha512@openssh.com",
      "curve25519-sha256",
      "curve25519-sha256@libssh.org",
      "diffie-hellman-group-exchange-sha256",
    ]
    description = "Allowed key exchange algorithms, written comma-separated. The default is the lower bound recommended by stribika's Secure Secure Shell and Mozilla's OpenSSH guidelines."
  }
  option "Macs" {
    type = nullOr(listOf(word))
    default = [
      "hmac-sha2-512-etm@openssh.com",
      "hmac-sha2-256-etm@openssh.com",
      "umac-128-etm@openssh.com",
    ]
    description = "Allowed MACs, written comma-separated. The default is recommended by stribika's Secure Secure Shell and Mozilla's OpenSSH guidelines."
  }
  option "StrictModes" {
    type        = nullOr(bool)
    default     = true
    description = "Whether sshd should check file modes and ownership of directories."
  }
  option "Ciphers" {
    type = nullOr(listOf(word))
    default = [
      "chacha20-poly1305@openssh.com",
      "aes256-gcm@openssh.com",
      "aes128-gcm@openssh.com",
      "aes256-ctr",
      "aes192-ctr",
      "aes128-ctr",
    ]
    description = "Allowed ciphers, written comma-separated. The default is recommended by stribika's Secure Secure Shell and Mozilla's OpenSSH guidelines."
  }
  option "AllowUsers" {
    type        = nullOr(listOf(word))
    default     = null
    description = "If specified, login is allowed only for the listed users. See sshd_config(5) for details."
  }
  option "DenyUsers" {
    type        = nullOr(listOf(word))
    default     = null
    description = "If specified, login is denied for all listed users. Takes precedence over services.openssh.settings.AllowUsers. See sshd_config(5) for details."
  }
  option "AllowGroups" {
    type        = nullOr(listOf(word))
    default     = null
    description = "If specified, login is allowed only for users part of the listed groups. See sshd_config(5) for details."
  }
  option "DenyGroups" {
    type        = nullOr(listOf(word))
    default     = null
    description = "If specified, login is denied for all users part of the listed groups. Takes precedence over services.openssh.settings.AllowGroups. See sshd_config(5) for details."
  }
  # Not declared by NixOS: the rule of authorizedKeysFiles, which writes
  # the same keyword, so that both paths refuse the same values.
  option "AuthorizedKeysFile" {
    type        = nullOr(either(word, listOf(word)))
    default     = null
    description = "Files with the users' public keys, written space-separated (see AuthorizedKeysFile in sshd_config(5)); each is one word. services.openssh.authorizedKeysFiles writes the keyword too, after this one: sshd takes the first."
  }
  # Disabled by default, since pam_motd handles this.
  option "PrintMotd" {
    type        = nullOr(bool)
    default     = false
    description = "Whether to enable printing /etc/motd when a user logs in interactively."
  }
}

submodule "sshListenAddress" {
  option "addr" {
    type        = nullOr(host)
    default     = null
    description = "Host, IPv4 or IPv6 address to listen to."
  }
  option "port" {
    type        = nullOr(port)
    default     = null
    description = "Port to listen to."
  }
}

submodule "sshHostKey" {
  option "type" {
    type        = enum(["rsa", "dsa", "ecdsa", "ecdsa-sk", "ed25519", "ed25519-sk"])
    description = "The key type (rsa, ed25519, ecdsa), as ssh-keygen -t takes it."
  }
  option "path" {
    type        = pathWord
    description = "Where the key is, and is generated when it is missing."
  }
  option "bits" {
    type        = nullOr(int)
    default     = null
    description = "The key size in bits (ssh-keygen -b)."
  }
  option "rounds" {
    type        = nullOr(int)
    default     = null
    description = "KDF rounds (ssh-keygen -a)."
  }
  option "comment" {
    type        = nullOr(singleLineStr)
    default     = null
    description = "The key's comment (ssh-keygen -C)."
  }
  option "openSSHFormat" {
    type        = bool
    default     = false
    description = "Whether to write the key in OpenSSH's format (ssh-keygen -o)."
  }
}

submodule "sshUser" {
  option "openssh.authorizedKeys.keys" {
    type        = listOf(singleLineStr)
    default     = []
    description = "A list of verbatim OpenSSH public keys that should be added to the user's authorized keys. The keys are added to a file that the SSH daemon reads in addition to the user's authorized_keys file."
    example     = ["ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIJtDnm0ViTp0Ddtb8sEOZRqTOaJtbOp0jL4qfyGhcv09 alice@laptop"]
  }
  option "openssh.authorizedKeys.keyFiles" {
    type        = listOf(path)
    default     = []
    description = "A list of files each containing one OpenSSH public key that should be added to the user's authorized keys. The contents of the files are read at build time and added to a file that the SSH daemon reads in addition to the user's authorized_keys file. A file is named relative to the module that defines it (\"./keys/alice.pub\"). You can combine the keyFiles and keys options."
  }
}

# Every user can have authorized keys (NixOS's userOptions).
option "users.users" { type = attrsOf(submodule.sshUser) }

options "services.openssh" {
  option "enable" {
    type        = bool
    default     = false
    description = "Whether to enable the OpenSSH secure shell daemon, which allows secure remote logins."
  }
  option "startWhenNeeded" {
    type        = bool
    default     = false
    description = "If set, sshd is socket-activated; that is, instead of having it permanently running as a daemon, systemd will start an instance for each incoming connection."
  }
  option "allowSFTP" {
    type        = bool
    default     = true
    description = "Whether to enable the SFTP subsystem in the SSH daemon. This enables the use of commands such as sftp and sshfs."
  }
  option "sftpServerExecutable" {
    type        = word
    default     = "/usr/lib/openssh/sftp-server"
    description = "The sftp server executable. Can be a path or \"internal-sftp\" to use the sftp server built into the sshd binary."
    example     = "internal-sftp"
  }
  option "sftpFlags" {
    type        = listOf(singleLineStr)
    default     = []
    description = "Commandline flags to add to sftp-server."
    example     = ["-f AUTHPRIV", "-l INFO"]
  }
  option "ports" {
    type        = listOf(port)
    default     = [22]
    description = "Specifies on which ports the SSH daemon listens."
  }
  option "openFirewall" {
    type        = bool
    default     = true
    description = "Whether to automatically open the specified ports in the firewall."
  }
  option "listenAddresses" {
    type        = listOf(submodule.sshListenAddress)
    default     = []
    description = "List of addresses and ports to listen on (ListenAddress directive in config). If port is not specified for address sshd will listen on all ports specified by ports. NOTE: this will override default listening on all local addresses and port 22. NOTE: setting this option won't automatically enable given ports in firewall configuration."
    example     = [{ addr = "192.168.3.1", port = 22 }, { addr = "0.0.0.0", port = 64022 }]
  }
  option "generateHostKeys" {
    type        = bool
    default     = true
    description = "Whether to generate the host keys (hostKeys) that are missing when sshd starts."
  }
  option "hostKeys" {
    type        = listOf(submodule.sshHostKey)
    default     = [{ type = "rsa", bits = 4096, path = "/etc/ssh/ssh_host_rsa_key" }, { type = "ed25519", path = "/etc/ssh/ssh_host_ed25519_key" }]
    description = "The SSH host keys: sshd reads them (HostKey), and those missing are generated with ssh-keygen when sshd starts (see generateHostKeys)."
  }
  option "banner" {
    type        = nullOr(lines)
    default     = null
    description = "Message to display to the remote user before authentication is allowed."
  }
  option "authorizedKeysFiles" {
    type        = listOf(word)
    default     = []
    description = "Specify the rules for which files to read on the host. These are paths relative to the host root file system or home directories and they are subject to certain token expansion rules. See AuthorizedKeysFile in man sshd_config for details."
  }
  option "authorizedKeysInHomedir" {
    type        = bool
    default     = true
    description = "Enables the use of the ~/.ssh/authorized_keys file. Otherwise, the only files trusted by default are those in /etc/ssh/authorized_keys.d, i.e. SSH keys from users.users.NAME.openssh.authorizedKeys.keys."
  }
  option "authorizedKeysCommand" {
    type        = singleLineStr
    default     = "none"
    description = "Specifies a program to be used to look up the user's public keys. The program must be owned by root, not writable by group or others and specified by an absolute path."
  }
  option "authorizedKeysCommandUser" {
    type        = userName
    default     = "nobody"
    description = "Specifies the user under whose account the AuthorizedKeysCommand is run."
  }
  option "moduliFile" {
    type        = nullOr(str)
    default     = null
    description = "Path to moduli file to install in /etc/ssh/moduli; null keeps the distribution's."
  }
  option "settings" {
    type        = submodule.sshdSettings
    default     = {}
    description = "Configuration for sshd_config(5): each attribute is a keyword. true and false are written yes and no; the lists of Ciphers, KexAlgorithms and Macs are comma-separated, those of AuthorizedKeysFile, AllowGroups, AllowUsers, DenyGroups and DenyUsers space-separated, and any other list repeats its keyword; null leaves a keyword out."
    example     = { UseDns = true, PasswordAuthentication = false }
  }
  option "extraConfig" {
    type        = lines
    default     = ""
    description = "Verbatim contents of sshd_config, written after settings (so that Match blocks go last)."
  }
}

# NixOS's renames of the options that became settings keys: a definition of
# the old option defines the key, with a warning. (NixOS renames
# challengeResponseAuthentication to kbdInteractiveAuthentication, itself
# renamed; here it goes to the key directly.)
renamed_option "services.openssh.passwordAuthentication" { to = "services.openssh.settings.PasswordAuthentication" }
renamed_option "services.openssh.kbdInteractiveAuthentication" { to = "services.openssh.settings.KbdInteractiveAuthentication" }
renamed_option "services.openssh.challengeResponseAuthentication" { to = "services.openssh.settings.KbdInteractiveAuthentication" }
renamed_option "services.openssh.useDns" { to = "services.openssh.settings.UseDns" }
renamed_option "services.openssh.forwardX11" { to = "services.openssh.settings.X11Forwarding" }
renamed_option "services.openssh.permitRootLogin" { to = "services.openssh.settings.PermitRootLogin" }
renamed_option "services.openssh.logLevel" { to = "services.openssh.settings.LogLevel" }
renamed_option "services.openssh.gatewayPorts" { to = "services.openssh.settings.GatewayPorts" }
renamed_option "services.openssh.macs" { to = "services.openssh.settings.Macs" }
renamed_option "services.openssh.ciphers" { to = "services.openssh.settings.Ciphers" }
renamed_option "services.openssh.kexAlgorithms" { to = "services.openssh.settings.KexAlgorithms" }

config "services.openssh" {
  when = local.sshd.enable
  authorizedKeysFiles = concat(
    local.sshd.authorizedKeysInHomedir ? [".ssh/authorized_keys"] : [],
    ["/etc/ssh/authorized_keys.d/%u"],
  )
}

locals {
  # ListenAddress values: an IPv6 address in brackets when a port follows.
  sshdListen = flatten([
    for l in local.sshd.listenAddresses : l.port != null ? [
      "${strcontains(coalesce(l.addr, ""), ":") ? "[${l.addr}]" : l.addr}:${l.port}"
    ] : [coalesce(l.addr, "")]
  ])
  # What sshd.socket listens on: every listen address with its port, or
  # with each of ports; just ports without addresses.
  sshdListenStreams = length(local.sshd.listenAddresses) == 0 ? [for p in local.sshd.ports : "${p}"] : flatten([
    for l in local.sshd.listenAddresses : [
      for p in (l.port == null ? local.sshd.ports : [l.port]) : "${strcontains(coalesce(l.addr, ""), ":") ? "[${l.addr}]" : l.addr}:${p}"
    ]
  ])

  sshdSettings = {
    for k, v in local.sshd.settings : k => (
      contains(local.sshdCommaKeys, k) && v != null ? join(",", flatten([v])) :
      contains(local.sshdSpaceKeys, k) && v != null ? join(" ", flatten([v])) : v
    )
  }

  sshdConfig = join("", [
    formatencode(format.sshdConfig, local.sshdSettings),
    "Banner ${local.sshd.banner == null ? "none" : "/etc/ssh/banner"}\n",
    "AddressFamily ${config.networking.enableIPv6 ? "any" : "inet"}\n",
    join("", [for p in local.sshd.ports : "Port ${p}\n"]),
    join("", [for l in local.sshdListen : "ListenAddress ${l}\n"]),
    local.sshd.allowSFTP ? "Subsystem sftp ${trimspace(join(" ", concat([local.sshd.sftpServerExecutable], local.sshd.sftpFlags)))}\n" : "",
    "AuthorizedKeysFile ${join(" ", local.sshd.authorizedKeysFiles)}\n",
    local.sshd.authorizedKeysCommand == "none" ? "" : "AuthorizedKeysCommand ${local.sshd.authorizedKeysCommand}\nAuthorizedKeysCommandUser ${local.sshd.authorizedKeysCommandUser}\n",
    join("", [for k in local.sshd.hostKeys : "HostKey ${k.path}\n"]),
    local.sshd.extraConfig == "" ? "" : "${chomp(local.sshd.extraConfig)}\n",
  ])

  sshdPreStart = join("", concat([
    "# Make sure we don't write to stdout, since in case of socket activation,\n",
    "# it goes to the remote side.\n",
    "exec >&2\n",
    "mkdir -m 0755 -p /etc/ssh\n",
  ], !local.sshd.generateHostKeys ? [] : [
    # Every value is one single-quoted word of the script (shellquote).
    for k in local.sshd.hostKeys : <<-EOT
      if ! [ -s ${shellquote(k.path)} ]; then
        rm -f ${shellquote(k.path)}
        ssh-keygen -t ${shellquote(k.type)} ${join(" ", compact([
    k.bits == null ? "" : "-b ${k.bits}",
    k.rounds == null ? "" : "-a ${k.rounds}",
    k.comment == null ? "" : "-C ${shellquote(k.comment)}",
    k.openSSHFormat ? "-o" : "",
]))} -f ${shellquote(k.path)} -N ""
      fi
    EOT
  ]))

sshdService = {
  description     = "SSH Daemon"
  after           = ["network.target"]
  conflicts       = ["ssh.service", "ssh.socket"]
  stopIfChanged   = false
  path            = ["/usr"]
  preStart        = local.sshdPreStart
  restartTriggers = [local.sshdConfig]
  serviceConfig = merge(
    {
      ExecStart        = "${local.sshd.startWhenNeeded ? "-" : ""}${local.sshdBin} ${local.sshd.startWhenNeeded ? "-i " : "-D "}-f /etc/ssh/sshd_config"
      KillMode         = "process"
      RuntimeDirectory = "sshd"
    },
    # Debian's sshd needs /run/sshd; the instances of sshd@ share it.
    local.sshd.startWhenNeeded ? { StandardInput = "socket", StandardError = "journal", RuntimeDirectoryPreserve = true } : { Restart = "always", Type = "simple" },
  )
}
}

config "users.users.sshd" {
  when         = local.sshd.enable
  isSystemUser = true
  group        = "nogroup"
  description  = "SSH privilege separation user"
  home         = "/run/sshd"
}

config "environment.etc.\"ssh/sshd_config\"" {
  when   = local.sshd.enable
  origin = "services.openssh.settings"
  text   = local.sshdConfig
  # NixOS's checkSshdConfig: sshd -t reads the file as sshd would. It
  # wants a host key (one made for the check) and, run as root, the
  # privilege separation directory, which Debian's sshd makes at start.
  checks = [{
    programs = [local.sshdBin, "/usr/bin/ssh-keygen"]
    script   = <<-EOT
      ssh-keygen -q -t ed25519 -N "" -f ./hostkey
      if [ "$(id -u)" = 0 ]; then mkdir -p -m 0755 /run/sshd; fi
      ${local.sshdBin} -t -f "$1" -h ./hostkey
    EOT
  }]
}

config "environment.etc.\"ssh/banner\"" {
  when   = local.sshd.enable && local.sshd.banner != null
  origin = "services.openssh.banner"
  text   = coalesce(local.sshd.banner, "-")
}

config "environment.etc.\"ssh/moduli\"" {
  when   = local.sshd.enable && local.sshd.moduliFile != null
  origin = "services.openssh.moduliFile"
  source = local.sshd.moduliFile
}

config "environment" {
  when = local.sshd.enable
  etc = {
    for n, u in config.users.users : "ssh/authorized_keys.d/${u.name}" => {
      mode   = "0444"
      origin = "users.users.${n}.openssh.authorizedKeys"
      text = join("", concat(
        [for k in u.openssh.authorizedKeys.keys : "${k}\n"],
        [for f in u.openssh.authorizedKeys.keyFiles : "${chomp(file(f))}\n"],
      ))
    } if length(u.openssh.authorizedKeys.keys) + length(u.openssh.authorizedKeys.keyFiles) > 0
  }
}

config "systemd.services.sshd" {
  when     = local.sshd.enable && !local.sshd.startWhenNeeded
  wantedBy = ["multi-user.target"]
}
config "systemd.services" {
  when = local.sshd.enable && !local.sshd.startWhenNeeded
  sshd = local.sshdService
}
config "systemd" {
  when     = local.sshd.enable && local.sshd.startWhenNeeded
  services = { "sshd@" = local.sshdService }
}
config "systemd.sockets.sshd" {
  when        = local.sshd.enable && local.sshd.startWhenNeeded
  description = "SSH Socket"
  wantedBy    = ["sockets.target"]
  conflicts   = ["ssh.socket", "ssh.service"]
  socketConfig = {
    ListenStream = local.sshdListenStreams
    Accept       = true
  }
}

config "networking.firewall" {
  when            = local.sshd.enable && local.sshd.openFirewall
  allowedTCPPorts = local.sshd.ports
}

assert {
  condition = !local.sshd.enable || alltrue([for l in local.sshd.listenAddresses : l.addr != null])
  message   = "addr must be specified in each services.openssh.listenAddresses entry"
}

# What NixOS takes from pkgs.openssh: Debian's package, installed by
# nodegen switch.
# (It depends on openssh-client, whose ssh-keygen the preStart runs.)
config "environment.packages.openssh-server" {
  when     = local.sshd.enable
  provides = [local.sshdBin, "/usr/lib/openssh/sftp-server", "/usr/bin/ssh-keygen"]
}
