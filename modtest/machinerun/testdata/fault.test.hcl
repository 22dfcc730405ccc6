# Planted faults (machinerun_test.go): each run must fail, located, with
# the machine's journal.

machine "m" {
  config "systemd.services.broken" {
    serviceConfig = { ExecStart = "/bin/sh -c 'echo planted fault: cannot start >&2; exit 3'" }
  }
}

run "a unit that does not start" {
  machines = ["m"]
  step "m" { succeed = "systemctl start --no-block broken.service" }
  step "m" { wait_for_unit = "broken.service" }
  step "m" { succeed = "echo never reached" }
}

run "a wrong port" {
  machines = ["m"]
  step "m" {
    wait_until_succeeds = "bash -c 'echo > /dev/tcp/127.0.0.1/8080'"
    timeout             = "2s"
  }
}
