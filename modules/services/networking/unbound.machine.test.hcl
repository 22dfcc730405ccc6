# Machine tests of services.unbound (unbound.hcl): booted with systemd in
# systemd-nspawn by `nodegen test` (root and systemd-nspawn; skipped
# elsewhere, failed under CI=true).

machine "resolver" {
  config "environment.packages.bind9-dnsutils" {}
  config "services.unbound" {
    enable = true
    settings = {
      server = {
        local-zone = ["test. static"]
        local-data = ["\"answer.test. A 192.0.2.7\""]
      }
    }
  }
}

run "unbound answers a query" {
  machines = ["resolver"]

  step "resolver" { wait_for_unit = "unbound.service" }
  step "resolver" {
    wait_until_succeeds = "dig +short @127.0.0.1 answer.test"
    output_contains     = "192.0.2.7"
    timeout             = "20s"
  }
  step "resolver" {
    succeed         = "dig @127.0.0.1 missing.test"
    output_contains = "status: NXDOMAIN"
  }
}
