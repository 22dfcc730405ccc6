# services.kubernetes.rollout: how nodegen deploy changes a node of a
# running cluster without taking its workloads down (opt-in). Before the
# node's switch, the deployer cordons and drains it (kubectl drain evicts
# through the eviction API, so PodDisruptionBudgets are respected); after
# it, the deployer waits for the Node to be Ready and uncordons it; and
# the host's health check (its own kubectl, with the kubelet's
# credentials) confirms the generation only when its kubelet runs and its
# Node stays Ready for readyFor seconds: right after a switch the Node
# still shows the status the kubelet reported before it (up to its
# status period, 10 s), so one look at Ready would pass a change that
# breaks the node a few seconds later. With
# deploy --max-unavailable (or deployment.maxUnavailable) the waves never
# drain more nodes at once than the budget allows.

locals {
  ro   = config.services.kubernetes.rollout
  kube = config.services.kubernetes
  # kubectl on the deployer, with the admin kubeconfig.
  deployerKubectl = "${config.services.kubernetes.rollout.kubectl} --kubeconfig ${config.services.kubernetes.rollout.kubeconfig}"
  # The host's look at its own Node's Ready condition, a shell function.
  readyFunction = "ready() { test \"$(${config.services.kubernetes.package}/bin/kubectl --kubeconfig ${config.services.kubernetes.kubelet.kubeconfig.path} --request-timeout=10s get node ${config.services.kubernetes.rollout.nodeName} -o 'jsonpath={.status.conditions[?(@.type==\"Ready\")].status}')\" = True; }"
  # Its looks, 5 s apart, over readyFor seconds.
  readyLooks = join(" && sleep 5 && ", [for i in range(floor(config.services.kubernetes.rollout.readyFor / 5) + 1) : "ready"])
}

options "services.kubernetes.rollout" {
  option "enable" {
    type        = bool
    default     = false
    description = "Whether nodegen deploy drains this node (kubectl cordon and drain, from the deployer, PodDisruptionBudgets respected) before its switch, uncordons it once its Node is Ready again, and confirms its generation only when its Node is Ready (deployment.beforeSwitch, afterSwitch and healthChecks). Only for a host whose kubelet runs (the node role)."
  }
  option "kubeconfig" {
    type        = nullOr(str)
    default     = null
    description = "The path, on the deploying machine, of a kubeconfig whose user may cordon, drain and uncordon nodes (a cluster admin's). Needed when enable is set; it is read by kubectl on the deployer, never sent to the host."
    example     = "/home/alice/.kube/cluster-admin.kubeconfig"
  }
  option "kubectl" {
    type        = str
    default     = "kubectl"
    description = "The kubectl program on the deploying machine (a name looked up in its PATH, or a path)."
  }
  option "nodeName" {
    type         = str
    default      = config.services.kubernetes.kubelet.hostname
    default_text = "services.kubernetes.kubelet.hostname"
    description  = "The name of this host's Node object."
  }
  option "drainTimeout" {
    type        = ints.positive
    default     = 300
    description = "Seconds kubectl drain may take (its --timeout): evictions that a PodDisruptionBudget refuses are retried until then, and then the drain fails, which stops this host before its switch (hook-failed), cordoned."
  }
  option "drainFlags" {
    type        = listOf(str)
    default     = ["--ignore-daemonsets", "--delete-emptydir-data"]
    description = "More arguments of kubectl drain. --disable-eviction is refused: it would bypass the PodDisruptionBudgets."
  }
  option "readyTimeout" {
    type        = ints.positive
    default     = 180
    description = "Seconds the Node may take to be Ready after the switch, in the uncordon hook (kubectl wait) and in the health check (its retries, 2 s apart): a node not Ready by then rolls back (cordoned, unless its Node still showed the Ready of before the switch when the uncordon hook looked)."
  }
  option "readyFor" {
    type        = ints.unsigned
    default     = 20
    description = "Seconds the Node must stay Ready, looked at every 5 s, for the health check to pass: longer than the kubelet's status period (10 s), so that a change that breaks the node (its network, its runtime) is seen, not the Ready the Node showed before the switch. A look that finds it not Ready fails that try; the tries go on for readyTimeout."
  }
}

config "deployment" {
  when = local.ro.enable && local.kube.kubelet.enable
  beforeSwitch = mkBefore([{
    name    = "kubernetes-drain"
    runOn   = "deployer"
    command = "${local.deployerKubectl} cordon ${local.ro.nodeName} && ${local.deployerKubectl} drain ${join(" ", local.ro.drainFlags)} --timeout=${local.ro.drainTimeout}s ${local.ro.nodeName}"
    timeout = local.ro.drainTimeout + 60
  }])
  afterSwitch = mkAfter([{
    name    = "kubernetes-uncordon"
    runOn   = "deployer"
    command = "${local.deployerKubectl} wait --for=condition=Ready --timeout=${local.ro.readyTimeout}s node/${local.ro.nodeName} && ${local.deployerKubectl} uncordon ${local.ro.nodeName}"
    timeout = local.ro.readyTimeout + 60
  }])
  healthChecks = {
    kubernetes-node-ready = {
      command  = "systemctl is-active --quiet kubelet.service && ${local.readyFunction} && ${local.readyLooks}"
      timeout  = local.ro.readyFor + 30
      retries  = max(1, floor(local.ro.readyTimeout / 2))
      interval = 2
    }
  }
}

config {
  when = local.ro.enable
  assertions = [
    {
      assertion = local.ro.kubeconfig != null
      message   = "services.kubernetes.rollout.kubeconfig: set the path of a kubeconfig on the deploying machine that may drain nodes; services.kubernetes.rollout.enable needs it"
    },
    {
      assertion = local.kube.kubelet.enable
      message   = "services.kubernetes.rollout.enable: this host runs no kubelet (the node role): there is no node to drain"
    },
    {
      assertion = alltrue([for w in concat([local.ro.kubectl, local.ro.nodeName, coalesce(local.ro.kubeconfig, "x")], local.ro.drainFlags) : can(regex("^[A-Za-z0-9_./+@:=,-]+$", w))])
      message   = "services.kubernetes.rollout: kubectl, kubeconfig, nodeName and drainFlags are words of the deployer's shell command lines: letters, digits and _./+@:=,- only"
    },
    {
      assertion = !contains(local.ro.drainFlags, "--disable-eviction")
      message   = "services.kubernetes.rollout.drainFlags: --disable-eviction deletes pods past their PodDisruptionBudgets; the rollout drains through evictions"
    },
  ]
}
