# Tests of networking (networking.hcl).

run "hostname defaults" {
  assert {
    condition     = config.networking.hostName == "nodegen"
    error_message = "the default host name is nodegen"
  }
  assert {
    condition     = config.environment.etc.hostname.text == "nodegen\n"
    error_message = "/etc/hostname holds the host name and a newline"
  }
  assert {
    condition     = config.environment.etc.hostname.origin == "networking.hostName"
    error_message = "/etc/hostname comes from networking.hostName"
  }
}

run "fqdn without a domain is the host name" {
  config "networking" { hostName = "worker01" }

  assert {
    condition     = config.networking.fqdn == "worker01"
    error_message = "without a domain, fqdn is the host name"
  }
}

run "fqdn with a domain" {
  config "networking" {
    hostName = "worker01"
    domain   = "cluster.example.com"
  }

  assert {
    condition     = config.networking.fqdn == "worker01.cluster.example.com"
    error_message = "fqdn is hostName.domain"
  }
}

run "fqdn is read-only" {
  config "networking" { fqdn = "other.example.com" }
  expect_error = "read-only"
}

run "an empty host name writes no /etc/hostname" {
  config "networking" { hostName = "" }

  assert {
    condition     = !contains(keys(config.environment.etc), "hostname")
    error_message = "no /etc/hostname without a host name"
  }
}

run "a host name is one DNS label" {
  config "networking" { hostName = "worker01.example.com" }
  expect_error = "is not of type"
}

run "an underscore inside the host name is accepted, as in NixOS" {
  config "networking" { hostName = "build_01" }

  assert {
    condition     = config.environment.etc.hostname.text == "build_01\n"
    error_message = "the host name is written"
  }
}
