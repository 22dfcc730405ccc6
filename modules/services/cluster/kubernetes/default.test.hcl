# Tests of the roles (default.hcl) and the startup targets.

run "the node role" {
  # flanneld from a release whose hash the library knows
  config "services.flannel.release" { version = "0.14.0" }
  config "services.kubernetes.release" { skipInstall = true }
  config "services.kubernetes" {
    roles         = ["node"]
    masterAddress = "master.example.com"
  }

  assert {
    condition = [for c in ["apiserver", "controllerManager", "scheduler", "addonManager", "proxy", "kubelet", "flannel", "pki"] : config.services.kubernetes[c].enable] == [
      false, false, false, false, true, true, true, true,
    ]
    error_message = "a node runs the kubelet, proxy and flannel, with certificates from the master"
  }
  assert {
    condition     = !config.services.etcd.enable && !config.virtualisation.docker.enable && config.services.containerd.enable && config.services.containerd.binaries.fromPackages
    error_message = "a node runs containerd from Debian's packages, not docker, nor etcd"
  }
  assert {
    condition     = config.services.kubernetes.kubelet.taints == {}
    error_message = "a node takes pods"
  }
}

run "the master role" {
  # flanneld from a release whose hash the library knows
  config "services.flannel.release" { version = "0.14.0" }
  config "services.kubernetes.release" { skipInstall = true }
  config "services.kubernetes" {
    roles         = ["master"]
    masterAddress = "master.example.com"
  }

  assert {
    condition     = alltrue([for c in ["apiserver", "controllerManager", "scheduler", "addonManager", "proxy", "kubelet", "flannel", "pki"] : config.services.kubernetes[c].enable])
    error_message = "a master runs every component"
  }
  assert {
    condition     = config.services.etcd.enable && config.services.cfssl.enable
    error_message = "and etcd and the CA"
  }
  assert {
    condition = jsondecode(config.environment.etc["kubernetes/kubelet-config.json"].text).registerWithTaints == [
      { key = "node-role.kubernetes.io/control-plane", value = "true", effect = "NoSchedule" },
      { key = "unschedulable", value = "true", effect = "NoSchedule" },
    ]
    error_message = "a master-only kubelet takes no pods"
  }
}

run "both roles" {
  # flanneld from a release whose hash the library knows
  config "services.flannel.release" { version = "0.14.0" }
  config "services.kubernetes.release" { skipInstall = true }
  config "services.kubernetes" {
    roles         = ["master", "node"]
    masterAddress = "kube"
  }

  assert {
    condition     = config.services.kubernetes.kubelet.taints == {}
    error_message = "a single-node cluster schedules pods on its master"
  }
  assert {
    condition     = !contains(keys(config.systemd.targets), "kube-apiserver-online") && !contains(keys(config.systemd.services), "kube-apiserver-online")
    error_message = "no online targets by default: the components restart until what they need answers, as NixOS does since nixpkgs#67563"
  }
  assert {
    condition     = config.systemd.services.kubelet.wantedBy == ["kubernetes.target"] && config.systemd.services.kube-apiserver.wantedBy == ["kubernetes.target"]
    error_message = "every component is wanted by kubernetes.target"
  }
}

run "both roles, with the seed's startup ordering" {
  # flanneld from a release whose hash the library knows
  config "services.flannel.release" { version = "0.14.0" }
  config "services.kubernetes.release" { skipInstall = true }
  config "services.kubernetes" {
    roles         = ["master", "node"]
    masterAddress = "kube"
    onlineTargets = true
  }

  assert {
    condition     = config.systemd.targets.kube-apiserver-online.wantedBy == ["kubernetes.target"] && config.systemd.targets.node-online.wantedBy == ["kubernetes.target"]
    error_message = "kubernetes.target waits for the apiserver and the node"
  }
  assert {
    condition     = contains(config.systemd.services.kubelet.after, "kube-apiserver-online.target") && contains(config.systemd.services.kubelet.wantedBy, "kubelet.target")
    error_message = "the kubelet starts once the apiserver answers"
  }
}

run "no roles, no components" {
  config "services.kubernetes.release" { skipInstall = true }
  config "networking" { hostName = "plain" }

  assert {
    condition     = config.systemd.services == {} && config.systemd.targets == {}
    error_message = "the library adds no unit to a host without Kubernetes"
  }
}

run "an unknown role" {
  config "services.kubernetes.release" { skipInstall = true }
  config "services.kubernetes" { roles = ["worker"] }
  expect_error = "is not of type"
}

run "a node address in the Service range is a warning" {
  # flanneld from a release whose hash the library knows
  config "services.flannel.release" { version = "0.14.0" }
  config "services.kubernetes.release" { skipInstall = true }
  config "services.kubernetes" {
    roles         = ["node"]
    masterAddress = "10.0.0.10"
    kubelet       = { nodeIp = "10.0.0.21" }
  }

  assert {
    condition     = length([for w in config.warnings : w if startswith(w, "services.kubernetes.kubelet.nodeIp: the node address 10.0.0.21 lies in the Service range 10.0.0.0/24 (services.kubernetes.apiserver.serviceClusterIpRange)")]) == 1
    error_message = "the kubelet's node IP in the default Service range is named, with the range and its option"
  }
  assert {
    condition     = length([for w in config.warnings : w if startswith(w, "services.kubernetes.masterAddress: the node address 10.0.0.10 lies in the Service range")]) == 1
    error_message = "so is a master address that is an IP address"
  }
}

run "a node address in the pod range is a warning" {
  # flanneld from a release whose hash the library knows
  config "services.flannel.release" { version = "0.14.0" }
  config "services.kubernetes.release" { skipInstall = true }
  config "services.kubernetes" {
    roles         = ["node"]
    masterAddress = "master.example.com"
    clusterCidr   = "10.244.0.0/16,fd00:10:244::/56"
    kubelet       = { nodeIp = "fd00:10:244::7" }
  }

  assert {
    condition     = [for w in config.warnings : w if strcontains(w, "lies in")] == ["services.kubernetes.kubelet.nodeIp: the node address fd00:10:244::7 lies in the pod range fd00:10:244::/56 (services.kubernetes.clusterCidr), whose addresses the cluster gives to pods: traffic for the node would go to them. Choose node addresses outside the Service and pod ranges, or move the ranges."]
    error_message = "an IPv6 node address is checked against the IPv6 range of a dual-stack list, and a host name is not an address"
  }
}

run "node addresses outside the ranges are fine" {
  # flanneld from a release whose hash the library knows
  config "services.flannel.release" { version = "0.14.0" }
  config "services.kubernetes.release" { skipInstall = true }
  config "services.kubernetes" {
    roles         = ["master", "node"]
    masterAddress = "192.168.50.10"
    kubelet       = { nodeIp = "192.168.50.10" }
    apiserver     = { advertiseAddress = "192.168.50.10" }
  }

  assert {
    condition     = length([for w in config.warnings : w if strcontains(w, "lies in")]) == 0
    error_message = "no warning"
  }
}
