# Users and groups, with NixOS's option names (config/users-groups.nix).
# They are written as a sysusers.d file, which systemd-sysusers reads at
# boot and `nodegen switch` runs on every switch, as NixOS does with
# systemd.sysusers.enable: accounts are created, never changed or removed.
# Home directories (createHome) are tmpfiles.d rules.

submodule "usersUser" {
  option "name" {
    type         = userName
    default      = name
    default_text = "the attribute name"
    description  = "The name of the user account."
  }
  option "uid" {
    type        = nullOr(accountId)
    default     = null
    description = "The account UID. If null, systemd-sysusers picks a free one in the system range."
  }
  option "isSystemUser" {
    type        = bool
    default     = false
    description = "Whether the user is a system user: one that runs services, with a UID below 1000 picked by systemd-sysusers. Exactly one of isSystemUser and isNormalUser must be set (a uid below 1000 counts as a system user)."
  }
  option "isNormalUser" {
    type        = bool
    default     = false
    description = "Whether the user is a real person's account: its home defaults to /home/NAME (created), its group to users and its shell to /bin/bash. systemd-sysusers only allocates system UIDs, so a normal user needs a uid."
  }
  option "group" {
    type        = either(enum([""]), userName)
    default     = ""
    description = "The user's primary group. Must be set (NixOS's rule: there is no implicit nogroup)."
  }
  option "extraGroups" {
    type        = listOf(userName)
    default     = []
    description = "The user's auxiliary groups."
    example     = ["wheel", "systemd-journal"]
  }
  option "description" {
    type        = gecos
    default     = ""
    description = "A short description of the user account, typically the user's full name (the GECOS field)."
  }
  option "home" {
    type        = pathWord
    default     = "/var/empty"
    description = "The user's home directory."
  }
  option "homeMode" {
    type        = strMatching("[0-7]{1,5}", "file mode")
    default     = "700"
    description = "The mode of the home directory when createHome creates it."
  }
  option "createHome" {
    type        = bool
    default     = false
    description = "Whether to create the home directory (with homeMode, owned by the user and its group) if it does not exist."
  }
  option "shell" {
    type        = nullOr(pathWord)
    default     = null
    description = "The user's login shell. null leaves it to systemd-sysusers (nologin for system users)."
    example     = "/bin/bash"
  }

  config {
    group      = mkIf(config.isNormalUser, mkDefault("users"))
    home       = mkIf(config.isNormalUser, mkDefault("/home/${config.name}"))
    createHome = mkIf(config.isNormalUser, mkDefault(true))
    shell      = mkIf(config.isNormalUser, mkDefault("/bin/bash"))
  }
}

submodule "usersGroup" {
  option "name" {
    type         = userName
    default      = name
    default_text = "the attribute name"
    description  = "The name of the group."
  }
  option "gid" {
    type        = nullOr(accountId)
    default     = null
    description = "The group GID. If null, systemd-sysusers picks a free one in the system range."
  }
  option "members" {
    type        = listOf(userName)
    default     = []
    description = "The user names of the group members, added to the users' extraGroups."
  }
}

options "users" {
  option "users" {
    type        = attrsOf(submodule.usersUser)
    default     = {}
    description = "Additional user accounts to be created automatically by the system."
    example     = { alice = { isNormalUser = true, uid = 1000, extraGroups = ["wheel"] } }
  }
  option "groups" {
    type        = attrsOf(submodule.usersGroup)
    default     = {}
    description = "Additional groups to be created automatically by the system."
    example     = { students.gid = 1001 }
  }
}

# root is declared as NixOS declares it, so that a host can give it
# authorized keys; the distribution creates it, so it is not written.
config "users.users.root" {
  uid         = 0
  group       = "root"
  description = "System administrator"
  home        = "/root"
  shell       = mkDefault("/bin/bash")
}
config "users.groups.root" {
  gid = 0
}

locals {
  # The accounts nodegen writes: every one but the distribution's root.
  sysUsers  = { for n, u in config.users.users : n => u if u.uid != 0 }
  sysGroups = { for n, g in config.users.groups : n => g if g.gid != 0 }
  # sysusers.d reads a quoted field with C escapes and expands % specifiers
  # in it; "-" means unset.
  userLines = [
    for n, u in local.sysUsers : format("u %s %s %s %s%s",
      u.name,
      "${u.uid == null ? "-" : u.uid}:${u.group}",
      u.description == "" ? "-" : "\"${replace(replace(replace(u.description, "\\", "\\\\"), "\"", "\\\""), "%", "%%")}\"",
      u.home,
      u.shell == null ? "" : " ${u.shell}",
    )
  ]
  groupLines = [
    for n, g in local.sysGroups : "g ${g.name} ${g.gid == null ? "-" : g.gid}"
  ]
  memberLines = distinct(concat(
    flatten([for n, u in local.sysUsers : [for g in u.extraGroups : "m ${u.name} ${g}"]]),
    flatten([for n, g in local.sysGroups : [for m in g.members : "m ${m} ${g.name}"]]),
  ))
}

# Groups first: a user's primary group must exist when its line is read.
config "environment.etc.\"sysusers.d/00-nodegen.conf\"" {
  when   = length(local.sysUsers) + length(local.sysGroups) > 0
  origin = "users.users"
  text   = join("", [for l in concat(local.groupLines, local.userLines, local.memberLines) : "${l}\n"])
}

config "systemd.tmpfiles" {
  rules = [
    for n, u in local.sysUsers : "d ${u.home} ${u.homeMode} ${u.name} ${u.group} -" if u.createHome
  ]
}

assert {
  condition = alltrue([
    for n, u in config.users.users : u.group != ""
  ])
  message = "users.users.${join(", ", [for n, u in config.users.users : n if u.group == ""])}.group is unset: every user needs a primary group (NixOS's rule: there is no implicit nogroup)."
}

assert {
  condition = alltrue([
    for n, u in local.sysUsers : (u.isSystemUser || (u.uid != null && coalesce(u.uid, 0) < 1000)) != u.isNormalUser
  ])
  message = "Exactly one of users.users.NAME.isSystemUser and users.users.NAME.isNormalUser must be set, for: ${join(", ", [for n, u in local.sysUsers : n if (u.isSystemUser || (u.uid != null && coalesce(u.uid, 0) < 1000)) == u.isNormalUser])}."
}

assert {
  condition = alltrue([for n, u in local.sysUsers : !u.isNormalUser || u.uid != null])
  message   = "users.users.${join(", ", [for n, u in local.sysUsers : n if u.isNormalUser && u.uid == null])}: a normal user needs a uid, because systemd-sysusers only allocates ids in the system range."
}
