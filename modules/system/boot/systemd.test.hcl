# Tests of the systemd units (systemd.hcl): how typed units render into
# systemd.units and from there into environment.etc.

run "a service renders into a unit file" {
  config "systemd.services.foo" {
    description   = "Foo daemon"
    after         = ["network.target"]
    wants         = ["network.target"]
    unitConfig    = { RequiresMountsFor = "/data" }
    serviceConfig = { Restart = "always", RestartSec = 5, NoNewPrivileges = true }
    environment   = { FOO_MODE = "fast", UNSET = null }
    path          = ["/opt/foo"]
  }

  assert {
    condition     = config.systemd.units["foo.service"].text == <<-EOT
      [Unit]
      After=network.target
      Description=Foo daemon
      RequiresMountsFor=/data
      Wants=network.target

      [Service]
      Environment="FOO_MODE=fast"
      Environment="PATH=/opt/foo/bin:/opt/foo/sbin"
      NoNewPrivileges=true
      Restart=always
      RestartSec=5
    EOT
    error_message = "unitConfig, serviceConfig, environment and path render into the unit"
  }
  assert {
    condition     = config.environment.etc["systemd/system/foo.service"].text == config.systemd.units["foo.service"].text
    error_message = "the unit file is written to /etc/systemd/system"
  }
  assert {
    condition     = config.environment.etc["systemd/system/foo.service"].origin == "systemd.services.foo"
    error_message = "the unit file names the option it comes from"
  }
}

run "unit options become unitConfig" {
  config "systemd.services.foo" {
    description      = "Foo"
    documentation    = ["man:foo(8)"]
    requires         = ["bar.service"]
    before           = ["baz.service"]
    bindsTo          = ["dev-foo.device"]
    partOf           = ["foo.target"]
    conflicts        = ["shutdown.target"]
    restartIfChanged = false
  }

  assert {
    condition = config.systemd.services.foo.unitConfig == {
      Description        = "Foo"
      Documentation      = ["man:foo(8)"]
      Requires           = ["bar.service"]
      Before             = ["baz.service"]
      BindsTo            = ["dev-foo.device"]
      PartOf             = ["foo.target"]
      Conflicts          = ["shutdown.target"]
      X-RestartIfChanged = false
    }
    error_message = "each unit option sets its [Unit] key"
  }
}

run "script becomes ExecStart" {
  config "systemd.services.foo" {
    script = "exec /opt/foo/bin/foo --serve"
  }

  assert {
    condition     = config.systemd.services.foo.serviceConfig.ExecStart == "/etc/nodegen/scripts/foo-start"
    error_message = "ExecStart runs the script by absolute path"
  }
  assert {
    condition     = config.environment.etc["nodegen/scripts/foo-start"].text == "#!/bin/sh -e\nexec /opt/foo/bin/foo --serve"
    error_message = "the script is a shell script in the profile"
  }
  assert {
    condition     = config.environment.etc["nodegen/scripts/foo-start"].mode == "0755"
    error_message = "the script is executable"
  }
}

run "no script, no ExecStart" {
  config "systemd.services.foo" {
    serviceConfig = { ExecStart = "/bin/true" }
  }

  assert {
    condition     = config.systemd.services.foo.serviceConfig.ExecStart == "/bin/true"
    error_message = "ExecStart is the one given"
  }
  assert {
    condition     = !contains(keys(config.environment.etc), "nodegen/scripts/foo-start")
    error_message = "no script file without a script"
  }
}

run "a multi-line ExecStart in a heredoc, as porting.md writes it" {
  config "systemd.services.foo" {
    serviceConfig = {
      ExecStart = <<-EOT
        /bin/foo \
          --bar \
          --baz
      EOT
    }
  }

  assert {
    condition     = config.systemd.services.foo.serviceConfig.ExecStart == "/bin/foo \\\n  --bar \\\n  --baz\n"
    error_message = "the option keeps the heredoc's text"
  }
  assert {
    condition     = config.systemd.units["foo.service"].text == "[Service]\nExecStart=/bin/foo \\\n  --bar \\\n  --baz\n"
    error_message = "the heredoc's final newline ends the setting; the continuations are kept"
  }
}

run "a line break that is not a continuation is refused" {
  config "systemd.services.foo" {
    serviceConfig = {
      ExecStart = <<-EOT
        /bin/foo
          --bar
      EOT
    }
  }
  expect_error = "systemd option"
}

run "startAt makes a timer" {
  config "systemd.services.backup" {
    script  = "run-backup"
    startAt = ["*-*-* 03:00:00"]
  }

  assert {
    condition     = config.systemd.timers.backup.timerConfig.OnCalendar == ["*-*-* 03:00:00"]
    error_message = "the timer fires at startAt"
  }
  assert {
    condition     = config.systemd.timers.backup.wantedBy == ["timers.target"]
    error_message = "the timer is wanted by timers.target"
  }
  assert {
    condition     = config.environment.etc["systemd/system/backup.timer"].text == "[Timer]\nOnCalendar=*-*-* 03:00:00\n"
    error_message = "the timer unit is written"
  }
  assert {
    condition     = config.environment.etc["systemd/system/timers.target.wants/backup.timer"].source == "/etc/systemd/system/backup.timer"
    error_message = "timers.target wants the timer"
  }
}

run "startAt is one time or a list, as in NixOS" {
  config "systemd.services.daily" {
    script  = "run-daily"
    startAt = "daily"
  }
  config "systemd.services.twice" {
    script  = "run-twice"
    startAt = ["Mon 01:00", "Thu 01:00"]
  }

  assert {
    condition     = config.systemd.services.daily.startAt == ["daily"]
    error_message = "a single time reads as a list"
  }
  assert {
    condition     = config.environment.etc["systemd/system/daily.timer"].text == "[Timer]\nOnCalendar=daily\n"
    error_message = "the timer of a single time"
  }
  assert {
    condition     = config.environment.etc["systemd/system/twice.timer"].text == "[Timer]\nOnCalendar=Mon 01:00\nOnCalendar=Thu 01:00\n"
    error_message = "a list gives one OnCalendar line each"
  }
}

run "reload, scriptArgs, requisite and onFailure, as in NixOS" {
  config "systemd.services.web" {
    script     = "exec web"
    scriptArgs = "--port 80"
    reload     = "kill -HUP $MAINPID"
    requisite  = ["network-online.target"]
    onFailure  = ["notify@web.service"]
  }

  assert {
    condition     = config.systemd.services.web.serviceConfig.ExecStart == "/etc/nodegen/scripts/web-start --port 80"
    error_message = "scriptArgs follow the start script"
  }
  assert {
    condition     = config.systemd.services.web.serviceConfig.ExecReload == "/etc/nodegen/scripts/web-reload"
    error_message = "reload becomes ExecReload"
  }
  assert {
    condition     = config.environment.etc["nodegen/scripts/web-reload"].text == "#!/bin/sh -e\nkill -HUP $MAINPID"
    error_message = "the reload script is written"
  }
  assert {
    condition     = config.systemd.services.web.unitConfig.Requisite == ["network-online.target"] && config.systemd.services.web.unitConfig.OnFailure == ["notify@web.service"]
    error_message = "requisite and onFailure go to [Unit]"
  }
}

run "wantedBy and requiredBy become links" {
  config "systemd.services.foo" {
    serviceConfig = { ExecStart = "/bin/true" }
    wantedBy      = ["multi-user.target"]
    requiredBy    = ["foo.target"]
  }

  assert {
    condition     = config.environment.etc["systemd/system/multi-user.target.wants/foo.service"].mode == "symlink"
    error_message = "wantedBy makes a symlink in the target's .wants directory"
  }
  assert {
    condition     = config.environment.etc["systemd/system/multi-user.target.wants/foo.service"].source == "/etc/systemd/system/foo.service"
    error_message = "the .wants link points at the unit file"
  }
  assert {
    condition     = config.environment.etc["systemd/system/foo.target.requires/foo.service"].source == "/etc/systemd/system/foo.service"
    error_message = "requiredBy makes a symlink in the target's .requires directory"
  }
  assert {
    condition     = config.environment.etc["systemd/system/multi-user.target.wants/foo.service"].origin == "systemd.services.foo.wantedBy"
    error_message = "the link names the option it comes from"
  }
}

run "a disabled service writes nothing" {
  config "systemd.services.foo" {
    enable   = false
    script   = "true"
    startAt  = ["daily"]
    wantedBy = ["multi-user.target"]
  }

  assert {
    condition     = length([for k in keys(config.environment.etc) : k if strcontains(k, "foo")]) == 0
    error_message = "neither unit, script, timer nor links for a disabled service"
  }
}

run "other unit kinds" {
  config "systemd" {
    targets = { kubelet = { description = "Kubelet", wantedBy = ["multi-user.target"] } }
    sockets = { foo = { listenStreams = ["/run/foo.sock"] } }
    paths   = { foo = { pathConfig = { PathChanged = "/etc/foo" } } }
    slices  = { work = { sliceConfig = { CPUQuota = "50%" } } }
  }

  assert {
    condition     = config.systemd.units["kubelet.target"].text == "[Unit]\nDescription=Kubelet\n"
    error_message = "a target has a [Unit] section"
  }
  assert {
    condition     = config.systemd.units["foo.socket"].text == "[Socket]\nListenStream=/run/foo.sock\n"
    error_message = "listenStreams become ListenStream"
  }
  assert {
    condition     = config.systemd.units["foo.path"].text == "[Path]\nPathChanged=/etc/foo\n"
    error_message = "pathConfig becomes [Path]"
  }
  assert {
    condition     = config.systemd.units["work.slice"].text == "[Slice]\nCPUQuota=50%\n"
    error_message = "sliceConfig becomes [Slice]"
  }
}

run "a mount unit" {
  config "systemd.mounts.var-lib-foo" {
    what    = "/dev/sdb1"
    where   = "/var/lib/foo"
    type    = "ext4"
    options = "noatime"
  }

  assert {
    condition     = config.systemd.units["var-lib-foo.mount"].text == "[Mount]\nOptions=noatime\nType=ext4\nWhat=/dev/sdb1\nWhere=/var/lib/foo\n"
    error_message = "what, where, type and options become [Mount]"
  }
}

run "a verbatim unit and drop-ins" {
  config "systemd" {
    units = {
      "custom.service" = {
        text     = "[Service]\nExecStart=/bin/true\n"
        wantedBy = ["multi-user.target"]
      }
      "getty@.service" = {
        dropIns = { "10-autologin" = "[Service]\nEnvironment=AUTOLOGIN=1" }
      }
    }
  }

  assert {
    condition     = config.environment.etc["systemd/system/custom.service"].text == "[Service]\nExecStart=/bin/true\n"
    error_message = "a verbatim unit is written as it is"
  }
  assert {
    condition     = config.environment.etc["systemd/system/custom.service"].origin == "systemd.units.\"custom.service\".text"
    error_message = "a verbatim unit names its text option"
  }
  assert {
    condition     = !contains(keys(config.environment.etc), "systemd/system/getty@.service")
    error_message = "a unit without text writes only its drop-ins"
  }
  assert {
    condition     = config.environment.etc["systemd/system/getty@.service.d/10-autologin.conf"].text == "[Service]\nEnvironment=AUTOLOGIN=1"
    error_message = "a drop-in is written to <unit>.d/<name>.conf"
  }
  assert {
    condition     = config.environment.etc["systemd/system/multi-user.target.wants/custom.service"].source == "/etc/systemd/system/custom.service"
    error_message = "a verbatim unit's wantedBy makes a link"
  }
}

run "serviceConfig lists from several modules concatenate" {
  config "systemd.services.foo" {
    preStart      = "mkdir -p /run/foo"
    serviceConfig = { ExecStartPost = ["/bin/a"] }
  }
  config "systemd.services.foo.serviceConfig" { ExecStartPost = "/bin/b" }

  # Inside a submodule instance, definitions come in the reverse of their
  # order at the top level (language.md section 2), as in NixOS.
  assert {
    condition     = config.systemd.services.foo.serviceConfig.ExecStartPost == ["/bin/b", "/bin/a"]
    error_message = "a list definition makes the values of all definitions concatenate"
  }
  assert {
    condition     = config.systemd.services.foo.serviceConfig.ExecStartPre == ["/etc/nodegen/scripts/foo-pre-start"]
    error_message = "preStart becomes ExecStartPre"
  }
}

run "conflicting scalar serviceConfig values" {
  config "systemd.services.foo.serviceConfig" { Restart = "always" }
  config "systemd.services.foo.serviceConfig" { Restart = "no" }
  expect_error = "Conflicting definitions"
}

run "a description is one line" {
  config "systemd.services.foo" { description = "two\nlines" }
  expect_error = "is not of type"
}

run "stopIfChanged false is written for the switch" {
  config "systemd.services.web" {
    script        = "exec /usr/bin/web"
    stopIfChanged = false
  }
  assert {
    condition     = strcontains(config.environment.etc["systemd/system/web.service"].text, "X-StopIfChanged=false")
    error_message = "a service that is restarted in one step must say X-StopIfChanged=false"
  }
}

run "stopIfChanged is not written by default" {
  config "systemd.services.web" {
    script = "exec /usr/bin/web"
  }
  assert {
    condition     = !strcontains(config.environment.etc["systemd/system/web.service"].text, "X-StopIfChanged")
    error_message = "the default (stop, then start) needs no setting"
  }
}

run "a distribution's unit gets a drop-in" {
  config "systemd.services.systemd-timedated" {
    overrideStrategy = "asDropin"
    environment      = { TZ = "UTC" }
    wantedBy         = ["multi-user.target"]
    aliases          = ["timedated.service"]
  }

  assert {
    condition     = !contains(keys(config.environment.etc), "systemd/system/systemd-timedated.service")
    error_message = "the distribution's unit is not replaced"
  }
  assert {
    condition     = config.environment.etc["systemd/system/systemd-timedated.service.d/overrides.conf"].text == "[Service]\nEnvironment=\"TZ=UTC\"\n"
    error_message = "the definition is a drop-in"
  }
  assert {
    condition     = config.environment.etc["systemd/system/multi-user.target.wants/systemd-timedated.service"].source == "/usr/lib/systemd/system/systemd-timedated.service"
    error_message = "the wants link points to the distribution's unit"
  }
  assert {
    condition     = config.environment.etc["systemd/system/timedated.service"].source == "/usr/lib/systemd/system/systemd-timedated.service"
    error_message = "an alias is a link to the unit"
  }
}

run "packageUnits makes drop-ins" {
  config "systemd" {
    packageUnits = ["ssh.service"]
  }
  config "systemd.services.ssh" {
    serviceConfig = { Restart = "always" }
  }
  assert {
    condition     = config.systemd.units["ssh.service"].text == null && config.systemd.units["ssh.service"].dropIns == { overrides = "[Service]\nRestart=always\n" }
    error_message = "a unit the distribution ships is written as a drop-in"
  }
}

run "an empty unit is never written" {
  config "systemd.services.foo" {
    enable = true
  }
  assert {
    condition     = !contains(keys(config.environment.etc), "systemd/system/foo.service")
    error_message = "an empty unit file would mask the unit"
  }
}

run "restart and reload triggers" {
  config "systemd.services.foo" {
    restartTriggers = ["a"]
    reloadTriggers  = ["b", { c = 1 }]
    serviceConfig   = { ExecStart = "/bin/foo" }
  }
  assert {
    condition     = config.systemd.services.foo.unitConfig["X-Restart-Triggers"] == sha256(jsonencode(["a"])) && config.systemd.services.foo.unitConfig["X-Reload-Triggers"] == sha256(jsonencode(["b", { c = 1 }]))
    error_message = "triggers are digests in the [Unit] section"
  }
}

run "a service without a command is warned about" {
  config "systemd.services.systemd-timedated" {
    environment = { TZ = "UTC" }
  }
  assert {
    condition     = length([for w in config.warnings : w if startswith(w, "systemd.services.systemd-timedated has no ExecStart, ExecStop or SuccessAction")]) == 1
    error_message = "the unit systemd would refuse is warned about"
  }
}

run "enabling a distribution's unit writes only links" {
  config "systemd.services.ssh" {
    wantedBy = ["multi-user.target"]
  }
  assert {
    condition     = !contains(keys(config.environment.etc), "systemd/system/ssh.service") && config.environment.etc["systemd/system/multi-user.target.wants/ssh.service"].source == "/usr/lib/systemd/system/ssh.service"
    error_message = "no unit file, a link to the distribution's unit"
  }
}

run "a false when on a deep label defines nothing" {
  config "systemd.services.foo.serviceConfig" {
    when      = false
    ExecStart = "/bin/true"
  }
  assert {
    condition     = !contains(keys(config.systemd.services), "foo") && !contains(keys(config.systemd.units), "foo.service") && !contains(keys(config.environment.etc), "systemd/system/foo.service")
    error_message = "a disabled block must not create the instance foo, nor a unit file that would mask the distribution's"
  }
}

# Issue 27: names systemd would refuse are refused here, with the rule.
run "a unit name with a space is refused" {
  config "systemd" {
    services = { "foo bar" = { serviceConfig = { ExecStart = "/bin/true" } } }
  }
  expect_error = "It is refused because it holds a space"
}

run "a unit name with a semicolon is refused" {
  config "systemd" {
    services = { "foo;bar" = { serviceConfig = { ExecStart = "/bin/true" } } }
  }
  expect_error = "It is refused because it holds ';'"
}

run "a unit name starting with - is refused" {
  config "systemd" {
    services = { "-foo" = { serviceConfig = { ExecStart = "/bin/true" } } }
  }
  expect_error = "it starts with -, which systemctl reads as an option"
}

run "a verbatim unit's name is checked" {
  config "systemd" {
    units = { "foo bar.service" = { text = "[Service]\nExecStart=/bin/true\n" } }
  }
  expect_error = "It is refused because it holds a space"
}

run "the units a unit names are unit names" {
  config "systemd.services.foo" {
    after         = ["network.target multi-user.target"]
    serviceConfig = { ExecStart = "/bin/true" }
  }
  expect_error = "systemd unit name"
}

run "a % in an environment variable stays a %" {
  config "systemd.services.foo" {
    environment   = { B = "%n", C = "100%" }
    serviceConfig = { ExecStart = "/bin/true" }
  }
  assert {
    condition     = strcontains(config.systemd.units["foo.service"].text, "Environment=\"B=%%n\"\nEnvironment=\"C=100%%\"\n")
    error_message = "systemd expands specifiers in Environment=: the writer doubles %"
  }
}
