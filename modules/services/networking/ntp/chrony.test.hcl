# Tests of services.chrony (chrony.hcl).

run "chrony reads networking.timeServers and turns timesyncd off" {
  config "networking" {
    timeServers = ["ntp1.example.com"]
  }
  config "services.chrony" {
    enable    = true
    enableNTS = true
  }
  config "services.timesyncd" {
    enable = true
  }

  assert {
    condition     = startswith(config.environment.etc["chrony/chrony.conf"].text, "server ntp1.example.com iburst nts\ninitstepslew 1000 ntp1.example.com\n")
    error_message = "servers come from networking.timeServers"
  }
  assert {
    condition     = !config.services.timesyncd.enable && config.environment.etc["systemd/system/systemd-timesyncd.service"].source == "/dev/null"
    error_message = "timesyncd is forced off, and the distribution's unit masked"
  }
  assert {
    condition     = config.systemd.services.chronyd.serviceConfig.ExecStart == "/usr/sbin/chronyd -n -u chrony -f /etc/chrony/chrony.conf -m"
    error_message = "chronyd runs in the foreground as chrony with memory locked"
  }
  assert {
    condition     = config.users.users.chrony.isSystemUser && contains(config.systemd.tmpfiles.rules, "d /var/lib/chrony 0750 chrony chrony - -")
    error_message = "chrony has its user and state directory"
  }
}

run "rtconutc follows the hardware clock" {
  config "services.chrony" {
    enable = true
  }
  config "time" {
    hardwareClockInLocalTime = true
  }
  assert {
    condition     = !strcontains(config.environment.etc["chrony/chrony.conf"].text, "rtconutc")
    error_message = "a hardware clock in local time is not UTC"
  }
}

run "timesyncd writes its configuration and a drop-in" {
  config "services.timesyncd" {
    enable  = true
    servers = ["a.example.com", "b.example.com"]
  }
  assert {
    condition     = config.environment.etc["systemd/timesyncd.conf"].text == "[Time]\nNTP=a.example.com b.example.com\n"
    error_message = "timesyncd.conf names the servers"
  }
  assert {
    condition     = contains(keys(config.environment.etc), "systemd/system/systemd-timesyncd.service.d/overrides.conf") && !contains(keys(config.environment.etc), "systemd/system/systemd-timesyncd.service")
    error_message = "the distribution's unit gets a drop-in, not a replacement"
  }
}

# Issue 27: a server is a host name, which cannot open chrony's command
# port with another directive.
run "a server cannot add chrony directives" {
  config "services.chrony" {
    enable  = true
    servers = ["pool.example iburst\ncmdallow all"]
  }
  expect_error = "It is refused because it holds a space"
}

run "extra flags are single arguments of ExecStart" {
  config "services.chrony" {
    enable     = true
    extraFlags = ["-F1", "-L%n$HOME"]
  }
  assert {
    condition     = endswith(config.systemd.services.chronyd.serviceConfig.ExecStart, " -m -F1 -L%%n$$HOME")
    error_message = "in a flag, % and $ are doubled"
  }
}
