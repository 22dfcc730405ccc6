# Tests of environment.etc (etc.hcl): run with `nodegen test modules/`.
# The library is part of every run, so these runs import nothing.

run "file defaults" {
  config "environment.etc.motd" {
    text = "hello"
  }

  assert {
    condition     = config.environment.etc.motd.target == "motd"
    error_message = "target defaults to the attribute name"
  }
  assert {
    condition     = config.environment.etc.motd.mode == "0644"
    error_message = "mode defaults to 0644"
  }
  assert {
    condition     = config.environment.etc.motd.user == "root" && config.environment.etc.motd.group == "root"
    error_message = "files belong to root:root by default"
  }
  assert {
    condition     = config.environment.etc.motd.enable && config.environment.etc.motd.source == null
    error_message = "a file is enabled, and has no source, by default"
  }
}

run "target and mode can be set" {
  config "environment.etc.motd" {
    target = "issue"
    text   = "welcome"
    mode   = "0600"
  }

  assert {
    condition     = config.environment.etc.motd.target == "issue"
    error_message = "target is the file's path below /etc"
  }
  assert {
    condition     = config.environment.etc.motd.mode == "0600"
    error_message = "mode is the one set"
  }
}

run "text definitions are joined as lines" {
  config "environment.etc.motd" { text = "first" }
  config "environment.etc.motd" { text = mkAfter("last") }

  assert {
    condition     = config.environment.etc.motd.text == "first\nlast"
    error_message = "text is of type lines: definitions join with newlines, mkAfter last"
  }
}

run "text and source together are an error" {
  config "environment.etc.motd" {
    text   = "hello"
    source = "./motd"
  }
  expect_error = "environment.etc.\"motd\": set exactly one of text and source."
}

run "a file needs text or source" {
  config "environment.etc.motd" { mode = "0600" }
  expect_error = "set exactly one of text and source"
}

run "a disabled file needs neither" {
  config "environment.etc.motd" { enable = false }

  assert {
    condition     = !config.environment.etc.motd.enable
    error_message = "the file is disabled"
  }
}

run "a symlink needs an absolute source" {
  config "environment.etc.localtime" {
    mode   = "symlink"
    source = "zoneinfo/UTC"
  }
  expect_error = "a symlink needs an absolute source"
}

run "a symlink" {
  config "environment.etc.localtime" {
    mode   = "symlink"
    source = "/usr/share/zoneinfo/UTC"
  }

  assert {
    condition     = config.environment.etc.localtime.mode == "symlink" && config.environment.etc.localtime.text == null
    error_message = "a symlink has a source and no text"
  }
}

run "mode must be octal or symlink" {
  config "environment.etc.motd" {
    text = "hello"
    mode = "rw-r--r--"
  }
  expect_error = "is not of type"
}
