# Tests of users.users and users.groups (users-groups.hcl).

run "users and groups render into sysusers.d" {
  config "users.users.alice" {
    isNormalUser = true
    uid          = 1000
    extraGroups  = ["wheel"]
    description  = "Alice \"A\" Liddell"
  }
  config "users.users.svc" {
    isSystemUser = true
    group        = "svc"
    home         = "/var/lib/svc"
    createHome   = true
    shell        = "/usr/sbin/nologin"
  }
  config "users.groups.svc" {
    gid     = 990
    members = ["alice"]
  }

  assert {
    condition     = config.environment.etc["sysusers.d/00-nodegen.conf"].text == <<-EOT
      g svc 990
      u alice 1000:users "Alice \"A\" Liddell" /home/alice /bin/bash
      u svc -:svc - /var/lib/svc /usr/sbin/nologin
      m alice wheel
      m alice svc
    EOT
    error_message = "groups, then users, then memberships; a normal user gets NixOS's defaults"
  }
  assert {
    condition     = config.systemd.tmpfiles.rules == ["d /home/alice 700 alice users -", "d /var/lib/svc 700 svc svc -"]
    error_message = "createHome becomes a tmpfiles rule with homeMode"
  }
}

run "no users write no file" {
  assert {
    condition     = !contains(keys(config.environment.etc), "sysusers.d/00-nodegen.conf")
    error_message = "root alone is the distribution's: nothing is written"
  }
  assert {
    condition     = config.users.users.root.uid == 0 && config.users.users.root.home == "/root"
    error_message = "root is declared as in NixOS"
  }
}

run "a user needs a group" {
  config "users.users.svc" {
    isSystemUser = true
  }
  expect_error = "group is unset"
}

run "a user is a system user or a normal user" {
  config "users.users.svc" {
    group = "svc"
  }
  expect_error = "Exactly one of users.users.NAME.isSystemUser and users.users.NAME.isNormalUser must be set, for: svc"
}

run "a normal user needs a uid" {
  config "users.users.bob" {
    isNormalUser = true
  }
  expect_error = "a normal user needs a uid"
}

# Issue 27: a value that would add lines or shift the fields of a
# sysusers.d line is refused by its type, before anything is written (the
# Ignition passwd section is read from the same lines).
run "a home with a newline cannot add sysusers lines" {
  config "users.users.evil" {
    isSystemUser = true
    group        = "nogroup"
    home         = "/home/x\nm evil root\nu root2 0 \"r\" /root /bin/sh"
  }
  expect_error = "It is refused because it holds a newline"
}

run "a home with a space cannot shift the fields" {
  config "users.users.evil" {
    isSystemUser = true
    group        = "nogroup"
    home         = "/home/x /bin/sh"
  }
  expect_error = "It is refused because it holds a space"
}

run "a shell is one field" {
  config "users.users.evil" {
    isSystemUser = true
    group        = "nogroup"
    shell        = "/bin/sh\nm evil root"
  }
  expect_error = "It is refused because it holds a newline"
}

run "user and group names follow sysusers' rule" {
  config "users.users.evil" {
    isSystemUser = true
    group        = "nogroup root"
  }
  expect_error = "user or group name: a letter or _, then letters, digits, _ or -"
}

run "an attribute name that is no user name is refused" {
  config "users" {
    users = { "evil root" = { isSystemUser = true, group = "nogroup" } }
  }
  expect_error = "It is refused because it holds a space"
}

run "extra groups and members are names" {
  config "users.groups.g" {
    members = ["a\nu root2 0"]
  }
  expect_error = "It is refused because it holds a newline"
}
