# Machine tests of systemd.network (networkd.hcl): booted with systemd in
# systemd-nspawn by `nodegen test` (root and systemd-nspawn; skipped
# elsewhere, failed under CI=true).

machine "router" {
  config "environment.packages.iproute2" {}
  config "systemd.network" { enable = true }
  config "systemd.network.netdevs.\"10-br-test\"" {
    netdevConfig = { Name = "br-test", Kind = "bridge" }
  }
  config "systemd.network.networks.\"10-br-test\"" {
    matchConfig   = { Name = "br-test" }
    address       = ["192.0.2.1/24"]
    networkConfig = { ConfigureWithoutCarrier = true }
  }
}

run "networkd creates a bridge" {
  machines = ["router"]

  step "router" { wait_for_unit = "systemd-networkd.service" }
  step "router" {
    wait_until_succeeds = "ip -d link show br-test"
    output_contains     = "bridge"
    timeout             = "20s"
  }
  step "router" {
    wait_until_succeeds = "ip -o addr show dev br-test"
    output_contains     = "192.0.2.1/24"
    timeout             = "20s"
  }
}
