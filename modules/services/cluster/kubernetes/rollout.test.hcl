# Tests of services.kubernetes.rollout: the drain, uncordon and Ready
# check that nodegen deploy runs around a node's switch.

run "a node rolled out drains before, uncordons after, checks Ready" {
  config "services.flannel.release" { version = "0.14.0" }
  config "services.kubernetes.release" { skipInstall = true }
  config "services.kubernetes" {
    roles         = ["node"]
    masterAddress = "master.example.com"
    kubelet       = { hostname = "worker1" }
    rollout       = { enable = true, kubeconfig = "/home/alice/admin.kubeconfig", drainTimeout = 120 }
  }
  config "deployment" {
    beforeSwitch = [{ name = "mine", command = "true" }]
  }

  assert {
    condition     = [for h in config.deployment.beforeSwitch : h.name] == ["kubernetes-drain", "mine"]
    error_message = "the drain comes before the host's own hooks"
  }
  assert {
    condition = config.deployment.beforeSwitch[0] == {
      name    = "kubernetes-drain"
      runOn   = "deployer"
      command = "kubectl --kubeconfig /home/alice/admin.kubeconfig cordon worker1 && kubectl --kubeconfig /home/alice/admin.kubeconfig drain --ignore-daemonsets --delete-emptydir-data --timeout=120s worker1"
      timeout = 180
    }
    error_message = "the deployer cordons and drains the node, through evictions (PodDisruptionBudgets respected), with the admin kubeconfig"
  }
  assert {
    condition     = config.deployment.afterSwitch[0].command == "kubectl --kubeconfig /home/alice/admin.kubeconfig wait --for=condition=Ready --timeout=180s node/worker1 && kubectl --kubeconfig /home/alice/admin.kubeconfig uncordon worker1" && config.deployment.afterSwitch[0].runOn == "deployer"
    error_message = "the deployer uncordons the node once it is Ready"
  }
  assert {
    condition     = strcontains(config.deployment.healthChecks.kubernetes-node-ready.command, "/opt/kubernetes/bin/kubectl --kubeconfig /etc/kubernetes/kubelet.kubeconfig --request-timeout=10s get node worker1") && config.deployment.healthChecks.kubernetes-node-ready.retries == 90
    error_message = "the host checks its own Node with the kubelet's credentials, for readyTimeout"
  }
  assert {
    condition     = endswith(config.deployment.healthChecks.kubernetes-node-ready.command, "; } && ready && sleep 5 && ready && sleep 5 && ready && sleep 5 && ready && sleep 5 && ready") && config.deployment.healthChecks.kubernetes-node-ready.timeout == 50
    error_message = "the Node must stay Ready for readyFor (20 s), looked at every 5 s: one look finds the Ready of before the switch"
  }
}

run "readyFor 0 is one look" {
  config "services.flannel.release" { version = "0.14.0" }
  config "services.kubernetes.release" { skipInstall = true }
  config "services.kubernetes" {
    roles         = ["node"]
    masterAddress = "master.example.com"
    rollout       = { enable = true, kubeconfig = "/k", readyFor = 0 }
  }
  assert {
    condition     = endswith(config.deployment.healthChecks.kubernetes-node-ready.command, "= True; } && ready")
    error_message = "readyFor = 0: the Node is looked at once"
  }
}

run "off by default" {
  config "services.flannel.release" { version = "0.14.0" }
  config "services.kubernetes.release" { skipInstall = true }
  config "services.kubernetes" {
    roles         = ["node"]
    masterAddress = "master.example.com"
  }
  assert {
    condition     = config.deployment.beforeSwitch == [] && config.deployment.afterSwitch == [] && config.deployment.healthChecks == {}
    error_message = "no hook without rollout.enable"
  }
}

run "rollout needs the admin kubeconfig" {
  config "services.flannel.release" { version = "0.14.0" }
  config "services.kubernetes.release" { skipInstall = true }
  config "services.kubernetes" {
    roles         = ["node"]
    masterAddress = "master.example.com"
    rollout       = { enable = true }
  }
  expect_error = "services.kubernetes.rollout.kubeconfig: set the path of a kubeconfig on the deploying machine that may drain nodes"
}

run "rollout drains through evictions only" {
  config "services.flannel.release" { version = "0.14.0" }
  config "services.kubernetes.release" { skipInstall = true }
  config "services.kubernetes" {
    roles         = ["node"]
    masterAddress = "master.example.com"
    rollout       = { enable = true, kubeconfig = "/k", drainFlags = ["--disable-eviction"] }
  }
  expect_error = "--disable-eviction deletes pods past their PodDisruptionBudgets"
}

run "rollout's words are shell words" {
  config "services.flannel.release" { version = "0.14.0" }
  config "services.kubernetes.release" { skipInstall = true }
  config "services.kubernetes" {
    roles         = ["node"]
    masterAddress = "master.example.com"
    rollout       = { enable = true, kubeconfig = "/k; rm -rf /" }
  }
  expect_error = "are words of the deployer's shell command lines"
}
