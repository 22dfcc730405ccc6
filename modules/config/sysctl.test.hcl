# Tests of boot.kernel.sysctl (sysctl.hcl).

run "sysctl rendering" {
  config "boot.kernel" {
    sysctl = {
      "net.ipv4.ip_forward"          = true
      "net.ipv6.conf.all.forwarding" = false
      "vm.swappiness"                = 10
      "kernel.pid_max"               = "4194304"
      "kernel.unset"                 = null
    }
  }

  assert {
    condition     = config.environment.etc["sysctl.d/60-nodegen.conf"].text == <<-EOT
      kernel.pid_max=4194304
      net.ipv4.ip_forward=1
      net.ipv6.conf.all.forwarding=0
      vm.swappiness=10
    EOT
    error_message = "sysctl settings are written sorted, booleans as 1 and 0, null left out"
  }
  assert {
    condition     = config.environment.etc["sysctl.d/60-nodegen.conf"].origin == "boot.kernel.sysctl"
    error_message = "the sysctl file comes from boot.kernel.sysctl"
  }
}

run "only null sysctl settings write no file" {
  config "boot.kernel" {
    sysctl = { "vm.swappiness" = null }
  }

  assert {
    condition     = !contains(keys(config.environment.etc), "sysctl.d/60-nodegen.conf")
    error_message = "null settings are left out, and with them the file"
  }
}

run "sysctl settings from several modules merge" {
  config "boot.kernel" {
    sysctl = { "vm.swappiness" = 10 }
  }
  config "boot.kernel" {
    sysctl = { "vm.swappiness" = mkForce(1), "net.ipv4.ip_forward" = 1 }
  }

  assert {
    condition     = config.boot.kernel.sysctl == { "vm.swappiness" = 1, "net.ipv4.ip_forward" = 1 }
    error_message = "keys merge one by one; mkForce wins"
  }
}

run "a sysctl value must be a bool, string or int" {
  config "boot.kernel" {
    sysctl = { "vm.swappiness" = [1] }
  }
  expect_error = "is not of type"
}

# Issue 27: a value or a key cannot add a parameter to the sysctl.d file.
run "a sysctl value is one line" {
  config "boot.kernel" {
    sysctl = { "kernel.printk" = "4\nkernel.core_pattern=|/tmp/evil" }
  }
  expect_error = "is not of type"
}

run "a sysctl key is one word" {
  config "boot.kernel" {
    sysctl = { "kernel.printk=4\nkernel.core_pattern" = "|/tmp/evil" }
  }
  expect_error = "cannot be a sysctl.d key"
}
