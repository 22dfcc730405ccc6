# Machine tests of users.users (config/users-groups.hcl) and
# systemd.tmpfiles (tmpfiles.hcl): booted with systemd in systemd-nspawn
# by `nodegen test` (root and systemd-nspawn; skipped elsewhere, failed
# under CI=true).

machine "host" {
  config "users.users.alice" {
    isNormalUser = true
    uid          = 1001
    home         = "/home/alice"
  }
  config "users.groups.web" {}
  config "systemd.tmpfiles" {
    rules = [
      "d /var/lib/demo 0750 alice web - -",
      "f /var/lib/demo/note 0640 alice web - hello",
    ]
  }
}

run "users and tmpfiles with their modes" {
  machines = ["host"]

  step "host" {
    succeed         = "id -un alice"
    output_contains = "alice"
  }
  step "host" {
    succeed         = "stat -c '%n %a %U %G' /var/lib/demo /var/lib/demo/note"
    output_contains = "/var/lib/demo 750 alice web\n/var/lib/demo/note 640 alice web\n"
  }
  step "host" {
    succeed         = "cat /var/lib/demo/note"
    output_contains = "hello"
  }
}
