# Tests of services.nodegen.pull (nodegen-pull.hcl).

run "the pull configuration, the service and its timer" {
  config "networking" {
    hostName = "web1"
  }
  config "services.nodegen.pull" {
    enable      = true
    registry    = "127.0.0.1:5000/fleet"
    plainHTTP   = true
    trustedKeys = ["KEY"]
  }
  assert {
    condition     = jsondecode(config.environment.etc["nodegen/pull.json"].text).host == "web1" && jsondecode(config.environment.etc["nodegen/pull.json"].text).channel == "stable"
    error_message = "the host name is networking.hostName, the channel stable by default"
  }
  assert {
    condition     = config.systemd.services.nodegen-pull.restartIfChanged == false && config.systemd.services.nodegen-pull.serviceConfig.ExecStart == "/var/lib/nodegen/bin/nodegen pull"
    error_message = "the switch a pull runs does not restart the pull's own unit"
  }
  assert {
    condition     = config.systemd.timers.nodegen-pull.timerConfig.OnUnitInactiveSec == "5min" && config.systemd.timers.nodegen-pull.timerConfig.RandomizedDelaySec == "1min" && config.systemd.timers.nodegen-pull.timerConfig.AccuracySec == "1s"
    error_message = "every 5 minutes, with up to a minute of jitter, not coalesced a minute later"
  }
}

run "health checks are deploy's by default" {
  config "deployment" {
    healthChecks = { http = { command = "curl -fsS http://127.0.0.1/" } }
  }
  config "services.nodegen.pull" {
    enable      = true
    registry    = "r.example.org/fleet"
    trustedKeys = ["KEY"]
  }
  assert {
    condition     = config.services.nodegen.pull.healthChecks.http.command == "curl -fsS http://127.0.0.1/"
    error_message = "deployment.healthChecks are shared"
  }
}

run "a registry and a key are required" {
  config "services.nodegen.pull" {
    enable = true
  }
  expect_error = "services.nodegen.pull.registry: set the fleet's repository"
}
