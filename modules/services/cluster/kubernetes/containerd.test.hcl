# Tests of the Kubernetes library on containerd nodes (containerd.hcl, and
# the runtime's part in default.hcl, kubelet.hcl and flannel.hcl).

run "a containerd node has no docker" {
  # flanneld from a release whose hash the library knows
  config "services.flannel.release" { version = "0.14.0" }
  config "services.kubernetes.release" { skipInstall = true }
  config "services.kubernetes" {
    roles         = ["node"]
    masterAddress = "master.example.com"
  }
  config "services.containerd" {
    enable  = true
    version = "1.6.20"
  }

  assert {
    condition     = !config.virtualisation.docker.enable
    error_message = "the kubelet talks CRI to containerd: docker is not enabled"
  }
  assert {
    condition     = !contains(keys(config.systemd.units), "docker.service") && !contains(keys(config.systemd.units), "docker.socket")
    error_message = "no docker unit, nor a drop-in for the host's"
  }
  assert {
    condition     = !contains(keys(config.systemd.units), "mk-docker-opts.service") && !contains(keys(config.systemd.units), "flannel-subnet-env.path")
    error_message = "flannel writes no options for docker"
  }
  assert {
    condition     = jsondecode(config.environment.etc["kubernetes/kubelet-config.json"].text).containerRuntimeEndpoint == "unix:///run/containerd/containerd.sock" && jsondecode(config.environment.etc["kubernetes/kubelet-config.json"].text).cgroupDriver == "systemd"
    error_message = "the kubelet talks CRI to containerd, with the systemd cgroup driver its runc uses"
  }
  assert {
    condition     = strcontains(config.environment.etc["containerd/config.toml"].text, "bin_dir = '/opt/cni/bin'") && strcontains(config.environment.etc["containerd/config.toml"].text, "conf_dir = '/etc/cni/net.d'")
    error_message = "containerd runs the CNI plugins the kubelet links, with the configs the library writes"
  }
  assert {
    condition     = config.systemd.services.flannel.provides.files == ["/run/flannel/subnet.env"]
    error_message = "flannel.service declares the subnet file it writes"
  }
  assert {
    condition     = config.services.kubernetes.kubelet.cni.config[0].delegate == { isDefaultGateway = true, hairpinMode = true }
    error_message = "the flannel CNI plugin uses its own bridge, not docker0"
  }
  assert {
    condition     = !strcontains(config.environment.etc["sysusers.d/kubernetes.conf"].text, "docker")
    error_message = "the kubernetes user joins no docker group"
  }
}

run "docker on a containerd node when asked for" {
  # flanneld from a release whose hash the library knows
  config "services.flannel.release" { version = "0.14.0" }
  config "services.kubernetes.release" { skipInstall = true }
  config "services.kubernetes" {
    roles         = ["node"]
    masterAddress = "master.example.com"
  }
  config "services.containerd" {
    enable  = true
    version = "1.6.20"
  }
  config "virtualisation.docker" {
    enable = true
  }

  assert {
    condition     = contains(keys(config.systemd.units), "docker.service") && contains(keys(config.systemd.units), "mk-docker-opts.service")
    error_message = "docker and flannel's options for it are written"
  }
  assert {
    condition     = jsondecode(config.environment.etc["kubernetes/kubelet-config.json"].text).containerRuntimeEndpoint == "unix:///run/containerd/containerd.sock"
    error_message = "the kubelet still runs its pods with containerd"
  }
}

run "with the seed's startup ordering, node-online waits for flannel's subnet" {
  # flanneld from a release whose hash the library knows
  config "services.flannel.release" { version = "0.14.0" }
  config "services.kubernetes.release" { skipInstall = true }
  config "services.kubernetes" {
    roles         = ["node"]
    masterAddress = "master.example.com"
    onlineTargets = true
  }

  assert {
    condition     = config.systemd.services.node-online.script == "while ! test -f /run/flannel/subnet.env ; do sleep 1 ; done\n"
    error_message = "node-online waits for flannel's subnet, which flannel.service writes"
  }
}

run "no flannel, no node-online wait" {
  config "services.kubernetes.release" { skipInstall = true }
  config "services.kubernetes" {
    roles         = ["node"]
    masterAddress = "master.example.com"
    flannel       = { enable = false }
    onlineTargets = true
  }
  config "services.containerd" {
    enable  = true
    version = "1.6.20"
  }

  assert {
    condition     = !contains(keys(config.systemd.units), "node-online.service") && contains(keys(config.systemd.units), "node-online.target")
    error_message = "node-online.target has no wait: nothing here makes the network it waited for"
  }
}
