# Tests of boot.kernelModules (kernel.hcl), and of a host without any
# kernel settings.

run "no kernel settings, no files" {
  assert {
    condition     = !contains(keys(config.environment.etc), "sysctl.d/60-nodegen.conf")
    error_message = "no sysctl file without sysctl settings"
  }
  assert {
    condition     = !contains(keys(config.environment.etc), "modules-load.d/nodegen.conf")
    error_message = "no modules-load file without kernel modules"
  }
}

run "kernel modules" {
  config "boot" { kernelModules = ["overlay", "br_netfilter"] }
  config "boot" { kernelModules = ["overlay"] }

  assert {
    condition     = config.environment.etc["modules-load.d/nodegen.conf"].text == "overlay\nbr_netfilter\n"
    error_message = "each module once, one per line, in definition order"
  }
}

# Issue 27: a module name is one line of modules-load.d.
run "a kernel module name is one word" {
  config "boot" {
    kernelModules = ["br_netfilter\nevil"]
  }
  expect_error = "It is refused because it holds a newline"
}
