# Machine tests of networking.firewall (firewall.hcl,
# firewall-nftables.hcl): booted with systemd in systemd-nspawn by `nodegen
# test` (root and systemd-nspawn; skipped elsewhere, failed under
# CI=true). Two socket-activated greeters answer on 8080 and 8081; the
# firewall allows 8080 only.

machine "server" {
  config "networking.firewall" {
    enable          = true
    allowedTCPPorts = [8080]
  }
  config "systemd.sockets.\"greet-open\"" {
    wantedBy     = ["sockets.target"]
    socketConfig = { ListenStream = "8080", Accept = true }
  }
  config "systemd.services.\"greet-open@\"" {
    serviceConfig = { ExecStart = "/bin/echo hello from 8080", StandardOutput = "socket" }
  }
  config "systemd.sockets.\"greet-closed\"" {
    wantedBy     = ["sockets.target"]
    socketConfig = { ListenStream = "8081", Accept = true }
  }
  config "systemd.services.\"greet-closed@\"" {
    serviceConfig = { ExecStart = "/bin/echo hello from 8081", StandardOutput = "socket" }
  }
}

machine "client" {
  config "environment.packages.curl" {}
}

run "the firewall allows one port and drops another" {
  machines = ["server", "client"]

  step "server" { wait_for_unit = "firewall.service" }
  step "server" {
    succeed         = "curl -sS --http0.9 http://127.0.0.1:8081/"
    output_contains = "hello from 8081"
  }
  step "client" {
    wait_until_succeeds = "curl -sS --http0.9 --max-time 3 http://server:8080/"
    output_contains     = "hello from 8080"
    timeout             = "20s"
  }
  step "client" {
    fail    = "curl -sS --http0.9 --max-time 3 http://server:8081/"
    timeout = "10s"
  }
}
