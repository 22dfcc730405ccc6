# Machine tests of services.openssh (sshd.hcl): booted with systemd in
# systemd-nspawn by `nodegen test` (root and systemd-nspawn; skipped
# elsewhere, failed under CI=true). The key pair in testdata is a test
# key, used nowhere else.

machine "server" {
  config "services.openssh" {
    enable   = true
    settings = { PasswordAuthentication = false }
  }
  config "users.users.root.openssh.authorizedKeys" {
    keyFiles = ["./testdata/machine_client_ed25519.pub"]
  }
}

machine "client" {
  config "environment.packages.openssh-client" {}
  config "environment.etc.\"ssh/test_client_ed25519\"" {
    source = "./testdata/machine_client_ed25519"
    mode   = "0600"
  }
}

# A setting that sshd -t refuses: nodegen's check of sshd_config stops the
# profile before it is copied anywhere.
configuration "server-bad" {
  machine = "server"
  config "services.openssh" {
    enable   = true
    settings = { MaxStartups = "not-a-number" }
  }
}

run "a client logs in with its key" {
  machines = ["server", "client"]

  step "server" { wait_for_unit = "sshd.service" }
  step "client" {
    wait_until_succeeds = "ssh -i /etc/ssh/test_client_ed25519 -o BatchMode=yes -o StrictHostKeyChecking=accept-new root@server hostname"
    output_contains     = "server"
    timeout             = "30s"
  }
  step "client" {
    fail = "ssh -o BatchMode=yes -o StrictHostKeyChecking=accept-new -o IdentitiesOnly=yes -i /dev/null root@server true"
  }
  step "server" {
    switch       = "server-bad"
    expect_error = "Invalid MaxStartups spec"
  }
  step "server" {
    succeed         = "cat /etc/ssh/sshd_config"
    output_contains = "PasswordAuthentication no"
  }
}
