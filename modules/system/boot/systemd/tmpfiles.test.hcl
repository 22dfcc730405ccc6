# Tests of systemd.tmpfiles (tmpfiles.hcl).

run "rules and settings render into tmpfiles.d" {
  config "systemd.tmpfiles" {
    rules = ["d /run/foo 0755 root root -"]
    settings = {
      "10-foo" = {
        "/var/lib/foo"      = { d = { mode = "0750", user = "foo", group = "foo" } }
        "/var/lib/with sp"  = { f = { argument = "hello" } }
        "/etc/foo/link.cfg" = { L = { argument = "/usr/share/foo/link.cfg" } }
      }
    }
  }

  assert {
    condition     = config.environment.etc["tmpfiles.d/00-nodegen.conf"].text == "d /run/foo 0755 root root -\n"
    error_message = "rules are written verbatim"
  }
  assert {
    condition     = config.environment.etc["tmpfiles.d/10-foo.conf"].text == <<-EOT
      L /etc/foo/link.cfg - - - - /usr/share/foo/link.cfg
      d /var/lib/foo 0750 foo foo -
      f "/var/lib/with sp" - - - - hello
    EOT
    error_message = "settings become one file per name, a path with a space quoted"
  }
  assert {
    condition     = config.environment.etc["tmpfiles.d/10-foo.conf"].origin == "systemd.tmpfiles.settings.\"10-foo\""
    error_message = "the file names its option"
  }
}

run "no rules write no file" {
  assert {
    condition     = length([for f, _ in config.environment.etc : f if startswith(f, "tmpfiles.d/")]) == 0
    error_message = "nothing is written without rules"
  }
}

# Issue 27: tmpfiles.d fields are words; a path with a line break is quoted
# with C escapes.
run "a tmpfiles field cannot add a line" {
  config "systemd.tmpfiles.settings" {
    x = { "/var/lib/x" = { d = { user = "root\nL+ /etc/shadow - - - - /tmp/x" } } }
  }
  expect_error = "It is refused because it holds a newline"
}

run "a rule is one line" {
  config "systemd.tmpfiles" {
    rules = ["d /var/lib/x 0700 root root -\nL+ /etc/shadow - - - - /tmp/x"]
  }
  expect_error = "single-line string"
}

run "a path with a newline is refused" {
  config "systemd.tmpfiles.settings" {
    x = { "/var/lib/a\nL+ /etc/shadow" = { d = { mode = "0700" } } }
  }
  expect_error = "a path cannot hold a line break"
}

run "a path with white space or a quote is quoted" {
  config "systemd.tmpfiles.settings" {
    x = { "/var/lib/it's a \"b\"" = { d = { mode = "0700" } } }
  }
  assert {
    condition     = config.environment.etc["tmpfiles.d/x.conf"].text == "d \"/var/lib/it's a \\\"b\\\"\" 0700 - - -\n"
    error_message = "the path stays in its field"
  }
}
