# Every step on one machine (machinerun_test.go).

machine "m" {
  config "systemd.services.sleeper" {
    wantedBy      = ["multi-user.target"]
    serviceConfig = { ExecStart = "/bin/sleep infinity", Restart = "always", RestartSec = "1" }
  }
  config "environment.etc.generation" { text = "one\n" }
  config "users.groups.svc" { gid = 990 }
  config "users.users.svc" {
    isSystemUser = true
    group        = "svc"
    home         = "/var/lib/svc"
    createHome   = true
  }
  config "systemd.tmpfiles" {
    rules = ["d /run/machinerun 0750 svc svc -", "f /run/machinerun/flag 0640 svc svc - x"]
  }
}

configuration "m-two" {
  machine = "m"
  config "environment.etc.generation" { text = "two\n" }
}

run "steps" {
  machines = ["m"]
  step "m" { wait_for_unit = "sleeper.service" }
  step "m" {
    succeed         = "getent passwd svc; getent group svc; stat -c '%a %U:%G %n' /var/lib/svc /run/machinerun /run/machinerun/flag"
    output_contains = "700 svc:svc /var/lib/svc\n750 svc:svc /run/machinerun\n640 svc:svc /run/machinerun/flag"
  }
  step "m" {
    succeed        = "getent group svc"
    output_matches = "^svc:x:990:"
  }
  # The run's network offers no DNS server, so the machine boots with no
  # resolver configured (a lookup that went on to DNS would otherwise wait
  # out the build host's): its name resolves from /etc/hosts.
  step "m" {
    succeed         = "test ! -e /etc/resolv.conf && getent hosts m"
    output_contains = "10.89.0.10"
  }
  step "m" { copy_in = ["./payload.txt", "/root/payload.txt"] }
  step "m" {
    succeed         = "cat /root/payload.txt"
    output_contains = "payload from the test"
  }
  step "m" { copy_out = ["/etc/generation", "./out/generation"] }
  step "m" { switch = "m-two" }
  step "m" {
    succeed         = "cat /etc/generation"
    output_contains = "two"
  }
  step "m" { rollback = true }
  step "m" {
    succeed         = "cat /etc/generation"
    output_contains = "one"
  }
  step "m" { succeed = "systemctl show -P MainPID sleeper.service > /root/pid" }
  step "m" { kill = "sleeper.service" }
  step "m" {
    wait_until_succeeds = "test \"$(systemctl show -P MainPID sleeper.service)\" != \"$(cat /root/pid)\" && systemctl is-active sleeper.service"
    timeout             = "20s"
  }
  step "m" { reboot = true }
  step "m" { wait_for_unit = "sleeper.service" }
  step "m" {
    succeed         = "cat /etc/generation /root/payload.txt; stat -c '%a %U:%G' /run/machinerun/flag"
    output_contains = "one\npayload from the test\n640 svc:svc"
  }
  step "m" { fail = "systemctl is-active no-such.service" }
}
