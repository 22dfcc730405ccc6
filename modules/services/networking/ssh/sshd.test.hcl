# Tests of services.openssh (sshd.hcl).

run "sshd is off by default" {
  assert {
    condition     = !contains(keys(config.environment.etc), "ssh/sshd_config") && !contains(keys(config.systemd.services), "sshd")
    error_message = "nothing is written unless enabled"
  }
}

run "settings, ports and keys" {
  config "services.openssh" {
    enable   = true
    ports    = [2222]
    settings = { PasswordAuthentication = false, AllowUsers = ["alice", "bob"], Ciphers = ["aes256-ctr"], AcceptEnv = ["LANG", "LC_*"] }
  }
  config "users.users.root.openssh.authorizedKeys" {
    keys = ["ssh-ed25519 AAAA root@a", "ssh-ed25519 BBBB root@b"]
  }

  assert {
    condition = alltrue([for l in [
      "AcceptEnv LANG", "AcceptEnv LC_*", "AllowUsers alice bob", "Ciphers aes256-ctr",
      "PasswordAuthentication no", "PermitRootLogin prohibit-password", "Port 2222",
      "AuthorizedKeysFile .ssh/authorized_keys /etc/ssh/authorized_keys.d/%u",
      "HostKey /etc/ssh/ssh_host_ed25519_key",
    ] : strcontains(config.environment.etc["ssh/sshd_config"].text, "${l}\n")])
    error_message = "settings are written in sshd's format: yes/no, comma and space lists, repeated keys"
  }
  assert {
    condition     = config.environment.etc["ssh/authorized_keys.d/root"].text == "ssh-ed25519 AAAA root@a\nssh-ed25519 BBBB root@b\n" && config.environment.etc["ssh/authorized_keys.d/root"].mode == "0444"
    error_message = "authorized keys go to /etc/ssh/authorized_keys.d/NAME"
  }
  assert {
    condition     = config.networking.firewall.allowedTCPPorts == [2222]
    error_message = "openFirewall opens the ports"
  }
  assert {
    condition     = contains(config.systemd.services.sshd.wantedBy, "multi-user.target") && config.systemd.services.sshd.serviceConfig.ExecStart == "/usr/sbin/sshd -D -f /etc/ssh/sshd_config"
    error_message = "sshd runs as a daemon"
  }
}

run "key files are read relative to the module that names them" {
  config "services.openssh" {
    enable = true
  }
  config "users.users.alice" {
    isNormalUser = true
    uid          = 1000
    group        = "users"
  }
  config "users.users.alice.openssh.authorizedKeys" {
    keys     = ["ssh-ed25519 AAAA alice@a"]
    keyFiles = ["./testdata/alice.pub"]
  }
  assert {
    condition     = config.environment.etc["ssh/authorized_keys.d/alice"].text == "ssh-ed25519 AAAA alice@a\nssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIJtDnm0ViTp0Ddtb8sEOZRqTOaJtbOp0jL4qfyGhcv09 alice@laptop\n"
    error_message = "the keys, then the contents of the key files"
  }
  assert {
    condition     = endswith(config.users.users.alice.openssh.authorizedKeys.keyFiles[0], "/modules/services/networking/ssh/testdata/alice.pub") && startswith(config.users.users.alice.openssh.authorizedKeys.keyFiles[0], "/")
    error_message = "a relative path becomes the absolute path of the file"
  }
}

run "socket activation" {
  config "services.openssh" {
    enable          = true
    startWhenNeeded = true
    listenAddresses = [{ addr = "10.0.0.1" }, { addr = "fd00::1", port = 22 }]
    ports           = [22, 2222]
  }
  assert {
    condition     = config.systemd.sockets.sshd.socketConfig.ListenStream == ["10.0.0.1:22", "10.0.0.1:2222", "[fd00::1]:22"] && config.systemd.sockets.sshd.socketConfig.Accept == true
    error_message = "the socket listens on each address and port"
  }
  assert {
    condition     = !contains(keys(config.systemd.services), "sshd") && config.systemd.services["sshd@"].serviceConfig.ExecStart == "-/usr/sbin/sshd -i -f /etc/ssh/sshd_config"
    error_message = "a template service runs sshd -i per connection"
  }
}

run "renamed options forward to settings" {
  config "services.openssh" {
    enable                 = true
    passwordAuthentication = false
    forwardX11             = true
  }
  assert {
    condition     = config.services.openssh.settings.PasswordAuthentication == false && config.services.openssh.settings.X11Forwarding == true
    error_message = "the old options set the settings keys"
  }
}

run "a listen address needs addr" {
  config "services.openssh" {
    enable          = true
    listenAddresses = [{ port = 22 }]
  }
  expect_error = "addr must be specified"
}

run "a declared keyword set to null is left out" {
  config "services.openssh" {
    enable   = true
    settings = { UsePAM = null, StrictModes = false, MaxSessions = 4 }
  }
  assert {
    condition     = !strcontains(config.environment.etc["ssh/sshd_config"].text, "UsePAM") && strcontains(config.environment.etc["ssh/sshd_config"].text, "StrictModes no\n") && strcontains(config.environment.etc["ssh/sshd_config"].text, "MaxSessions 4\n")
    error_message = "null leaves a keyword out; other keywords are written"
  }
}

run "declared keywords have NixOS's types" {
  config "services.openssh" {
    enable   = true
    settings = { LogLevel = "LOUD" }
  }
  expect_error = "services.openssh.settings.LogLevel\" is not of type \"null or one of"
}

run "an undeclared keyword is an atom or a list of atoms" {
  config "services.openssh" {
    enable   = true
    settings = { Match = { User = "deploy" } }
  }
  expect_error = "\"services.openssh.settings.Match\" is not of type \"atom (null, bool, int, float or string) or a list of them for duplicate keys\""
}

# Issue 27: values that go into sshd_config and into the root pre-start
# script cannot add lines or commands.
run "an authorized keys file cannot add sshd_config lines" {
  config "services.openssh" {
    enable              = true
    authorizedKeysFiles = ["/x\nAuthorizedKeysCommand /tmp/evil %u\nAuthorizedKeysCommandUser root"]
  }
  expect_error = "It is refused because it holds a newline"
}

run "the same newline in settings is refused too" {
  config "services.openssh" {
    enable   = true
    settings = { AuthorizedKeysFile = ["/x\nAuthorizedKeysCommand /tmp/evil %u"] }
  }
  expect_error = "It is refused because it holds a newline"
}

run "a host key path is one word" {
  config "services.openssh" {
    enable   = true
    hostKeys = [{ type = "ed25519", path = "/etc/ssh/k\nPermitRootLogin yes" }]
  }
  expect_error = "It is refused because it holds a newline"
}

run "the issue's host key path is refused: it holds a space" {
  config "services.openssh" {
    enable   = true
    hostKeys = [{ type = "ed25519", path = "/etc/ssh/k$(touch /tmp/pwned)" }]
  }
  expect_error = "It is refused because it holds a space"
}

run "host key values are single-quoted words of the pre-start script" {
  config "services.openssh" {
    enable   = true
    hostKeys = [{ type = "ed25519", path = "/etc/ssh/k$(touch$${IFS}/tmp/pwned)`id`", comment = "'; touch /tmp/pwned; echo '" }]
  }
  assert {
    condition     = strcontains(config.systemd.services.sshd.preStart, "ssh-keygen -t 'ed25519' -C ''\\''; touch /tmp/pwned; echo '\\''' -f '/etc/ssh/k$(touch$${IFS}/tmp/pwned)`id`' -N \"\"\n")
    error_message = "the comment and the path are quoted, a quote in them written '\\''"
  }
}

run "a listen address is a host" {
  config "services.openssh" {
    enable          = true
    listenAddresses = [{ addr = "0.0.0.0\nPermitRootLogin yes" }]
  }
  expect_error = "host name or IP address"
}

run "a freeform setting cannot add sshd_config lines" {
  config "services.openssh" {
    enable   = true
    settings = { AuthorizedKeysCommand = "/x\nPermitRootLogin yes" }
  }
  expect_error = "cannot contain a newline"
}

run "authorized keys files in settings are words, as in authorizedKeysFiles" {
  config "services.openssh" {
    enable   = true
    settings = { AuthorizedKeysFile = ".ssh/keys /etc/ssh/keys/%u" }
  }
  expect_error = "It is refused because it holds a space"
}
