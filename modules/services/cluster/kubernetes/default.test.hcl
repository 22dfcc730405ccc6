# Tests of the roles (default.hcl) and the startup targets.

run "the node role" {
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
    condition     = !config.services.etcd.enable && config.virtualisation.docker.enable
    error_message = "a node runs docker, not etcd"
  }
  assert {
    condition     = config.services.kubernetes.kubelet.taints == {}
    error_message = "a node takes pods"
  }
}

run "the master role" {
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
    condition     = strcontains(config.systemd.services.kubelet.serviceConfig.ExecStart, " --register-with-taints=node-role.kubernetes.io/master=true:NoSchedule,unschedulable=true:NoSchedule ")
    error_message = "a master-only kubelet takes no pods"
  }
}

run "both roles" {
  config "services.kubernetes" {
    roles         = ["master", "node"]
    masterAddress = "kube"
  }

  assert {
    condition     = config.services.kubernetes.kubelet.taints == {}
    error_message = "a single-node cluster schedules pods on its master"
  }
  assert {
    condition     = config.systemd.targets.kube-apiserver-online.wantedBy == ["kubernetes.target"] && config.systemd.targets.node-online.wantedBy == ["kubernetes.target"]
    error_message = "kubernetes.target waits for the apiserver and the node"
  }
  assert {
    condition     = config.systemd.services.kubelet.after == ["kube-apiserver-online.target"]
    error_message = "the kubelet starts once the apiserver answers"
  }
}

run "no roles, no components" {
  config "networking" { hostName = "plain" }

  assert {
    condition     = config.systemd.services == {} && config.systemd.targets == {}
    error_message = "the library adds no unit to a host without Kubernetes"
  }
}

run "an unknown role" {
  config "services.kubernetes" { roles = ["worker"] }
  expect_error = "is not of type"
}
