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

run "/etc/hosts maps localhost, then the host's names on 127.0.0.2, as NixOS" {
  assert {
    condition     = config.environment.etc.hosts.text == "127.0.0.1 localhost\n::1 localhost\n127.0.0.2 nodegen\n"
    error_message = "the default /etc/hosts is localhost on both loopbacks and the host name on 127.0.0.2"
  }
  assert {
    condition     = config.environment.etc.hosts.origin == "networking.hosts"
    error_message = "/etc/hosts comes from networking.hosts"
  }
}

run "the fully qualified name comes before the host name" {
  config "networking" {
    hostName = "worker01"
    domain   = "cluster.example.com"
  }

  assert {
    condition     = config.networking.hosts["127.0.0.2"] == ["worker01.cluster.example.com", "worker01"]
    error_message = "127.0.0.2 maps the fqdn, then the host name"
  }
}

run "hosts are sorted by address, definitions add up, empty lists are left out, extraHosts come last" {
  config "networking" {
    hostName   = ""
    hosts      = { "192.168.0.2" = ["fileserver.local"], "10.0.0.1" = ["gw"], "10.9.9.9" = [] }
    extraHosts = "192.168.0.1 lanlocalhost"
  }
  config "networking" {
    hosts = { "192.168.0.2" = ["nameserver.local"] }
  }

  assert {
    condition     = config.environment.etc.hosts.text == "127.0.0.1 localhost\n::1 localhost\n10.0.0.1 gw\n192.168.0.2 fileserver.local nameserver.local\n192.168.0.1 lanlocalhost"
    error_message = "one line per address, sorted, with every definition's names, then the extra lines verbatim"
  }
}

run "without IPv6 there is no ::1 line" {
  config "networking" {
    enableIPv6 = false
    hostName   = "h"
  }

  assert {
    condition     = config.environment.etc.hosts.text == "127.0.0.1 localhost\n\n127.0.0.2 h\n"
    error_message = "NixOS leaves an empty line where ::1 localhost was"
  }
}

run "localhost on another address is refused" {
  config "networking" {
    hosts = { "10.0.0.1" = ["localhost"] }
  }
  expect_error = "maps \"localhost\" to 10.0.0.1"
}

run "localhost on the loopbacks is accepted" {
  config "networking" {
    hosts = { "::1" = ["localhost", "ip6-localhost"] }
  }

  assert {
    condition     = strcontains(config.environment.etc.hosts.text, "\n::1 localhost ip6-localhost\n")
    error_message = "::1 may map localhost again"
  }
}
