# Tests of the kubelet (kubelet.hcl, kubelet-wrapper.hcl): its configuration
# file, its flags, taints, labels and CNI configuration.

run "taints are registered from the configuration file" {
  config "services.kubernetes.release" { skipInstall = true }
  config "services.kubernetes" {
    masterAddress = "master.example.com"
    kubelet = {
      enable = true
      taints = {
        gpu       = { value = "true", effect = "NoSchedule" }
        dedicated = { key = "example.com/dedicated", value = "batch", effect = "PreferNoSchedule" }
      }
    }
  }

  assert {
    condition = jsondecode(config.environment.etc["kubernetes/kubelet-config.json"].text).registerWithTaints == [
      { key = "example.com/dedicated", value = "batch", effect = "PreferNoSchedule" },
      { key = "gpu", value = "true", effect = "NoSchedule" },
    ]
    error_message = "taints are registerWithTaints, by name"
  }
  assert {
    condition     = config.services.kubernetes.kubelet.taints.gpu.key == "gpu"
    error_message = "a taint's key is its name by default"
  }
}

run "no taints, no registerWithTaints" {
  config "services.kubernetes.release" { skipInstall = true }
  config "services.kubernetes" {
    masterAddress = "master.example.com"
    kubelet       = { enable = true }
  }

  assert {
    condition     = !strcontains(config.environment.etc["kubernetes/kubelet-config.json"].text, "registerWithTaints") && !strcontains(config.systemd.services.kubelet.serviceConfig.ExecStart, "--register-with-taints")
    error_message = "the key is left out without taints"
  }
}

run "unschedulable adds the NoSchedule taint" {
  config "services.kubernetes.release" { skipInstall = true }
  config "services.kubernetes" {
    masterAddress = "master.example.com"
    kubelet       = { enable = true, unschedulable = true }
  }

  assert {
    condition     = config.services.kubernetes.kubelet.taints.unschedulable.effect == "NoSchedule"
    error_message = "unschedulable must add a NoSchedule taint"
  }
  assert {
    condition     = jsondecode(config.environment.etc["kubernetes/kubelet-config.json"].text).registerWithTaints == [{ key = "unschedulable", value = "true", effect = "NoSchedule" }]
    error_message = "and the kubelet registers with it"
  }
}

run "a taint the kubelet refuses is an error" {
  config "services.kubernetes.release" { skipInstall = true }
  config "services.kubernetes" {
    masterAddress = "master.example.com"
    kubelet = {
      enable = true
      taints = { bad = { key = "has space", value = "x", effect = "NoSchedule" } }
    }
  }
  expect_error = "a taint's key must be a qualified name"
}

run "both cni forms conflict" {
  config "services.kubernetes.release" { skipInstall = true }
  config "services.kubernetes" {
    masterAddress = "master.example.com"
    kubelet = {
      enable = true
      cni    = { configDir = "/etc/cni/custom", config = [{ type = "loopback" }] }
    }
  }
  expect_error = "Verbatim CNI-config and CNI configDir cannot both be set."
}

run "cni configs are numbered from 11, network lists as conflist" {
  config "services.kubernetes.release" { skipInstall = true }
  config "services.kubernetes" {
    masterAddress = "master.example.com"
    flannel       = { enable = false }
    kubelet = {
      enable = true
      cni = {
        config = [
          { name = "mynet", type = "bridge" },
          { cniVersion = "1.0.0", name = "pods", plugins = [{ type = "bridge" }, { type = "portmap" }] },
        ]
      }
    }
  }

  assert {
    condition     = config.environment.etc["cni/net.d/11-bridge.conf"].text == "{\"name\":\"mynet\",\"type\":\"bridge\"}"
    error_message = "the first config is 11-TYPE.conf, as JSON"
  }
  assert {
    condition     = contains(keys(config.environment.etc), "cni/net.d/12-pods.conflist")
    error_message = "a network list is 12-NAME.conflist"
  }
}

run "the configuration file carries what the flags did" {
  config "services.kubernetes.release" { skipInstall = true }
  config "services.kubernetes" {
    masterAddress = "master.example.com"
    kubelet = {
      enable       = true
      clientCaFile = "/ca.pem"
      featureGates = { A = true, B = false }
      tlsCertFile  = "/k.pem"
      tlsKeyFile   = "/k-key.pem"
      clusterDns   = ["10.0.0.10"]
      manifests    = { p = { kind = "Pod" } }
    }
  }

  assert {
    condition = jsondecode(config.environment.etc["kubernetes/kubelet-config.json"].text) == {
      apiVersion               = "kubelet.config.k8s.io/v1beta1"
      kind                     = "KubeletConfiguration"
      address                  = "0.0.0.0"
      port                     = 10250
      healthzBindAddress       = "127.0.0.1"
      healthzPort              = 10248
      authentication           = { anonymous = { enabled = false }, webhook = { enabled = true, cacheTTL = "10s" }, x509 = { clientCAFile = "/ca.pem" } }
      authorization            = { mode = "Webhook" }
      cgroupDriver             = "systemd"
      clusterDNS               = ["10.0.0.10"]
      clusterDomain            = "cluster.local"
      containerRuntimeEndpoint = "unix:///run/containerd/containerd.sock"
      failCgroupV1             = true
      failSwapOn               = true
      featureGates             = { A = true, B = false }
      hairpinMode              = "hairpin-veth"
      registerNode             = true
      staticPodPath            = "/etc/kubernetes/manifests"
      tlsCertFile              = "/k.pem"
      tlsPrivateKeyFile        = "/k-key.pem"
    }
    error_message = "the KubeletConfiguration has every wired key"
  }
  assert {
    condition     = config.environment.etc["kubernetes/manifests/p.json"].mode == "0755"
    error_message = "manifests are written with mode 0755"
  }
}

run "settings are freeform and merge with the library's" {
  config "services.kubernetes.release" { skipInstall = true }
  config "services.kubernetes" {
    masterAddress = "master.example.com"
    kubelet = {
      enable = true
      settings = {
        authentication = { anonymous = { enabled = true } }
        evictionHard   = { "nodefs.available" = "1%" }
        maxPods        = 50
      }
    }
  }
  config "systemd" { enableUnifiedCgroupHierarchy = false }

  assert {
    condition     = jsondecode(config.environment.etc["kubernetes/kubelet-config.json"].text).authentication == { anonymous = { enabled = true }, webhook = { enabled = true, cacheTTL = "10s" } }
    error_message = "a host's key wins over the library's mkDefault, the others stay"
  }
  assert {
    condition     = jsondecode(config.environment.etc["kubernetes/kubelet-config.json"].text).maxPods == 50 && jsondecode(config.environment.etc["kubernetes/kubelet-config.json"].text).evictionHard == { "nodefs.available" = "1%" }
    error_message = "undeclared keys pass through"
  }
  assert {
    condition     = jsondecode(config.environment.etc["kubernetes/kubelet-config.json"].text).failCgroupV1 == false
    error_message = "a cgroup v1 host lets the kubelet run there"
  }
}

run "the flags that remain" {
  config "services.kubernetes.release" { skipInstall = true }
  config "services.kubernetes" {
    masterAddress = "master.example.com"
    kubelet = {
      enable               = true
      nodeIp               = "10.0.0.5"
      verbosity            = 4
      nodeLabels           = { "node.kubernetes.io/pool" = "batch", "example.com/gpu" = "" }
      lockFile             = "/var/run/lock/kubelet.lock"
      exitOnLockContention = true
    }
  }

  assert {
    condition     = config.systemd.services.kubelet.serviceConfig.ExecStart == "/opt/kubernetes/bin/kubelet --config=/etc/kubernetes/kubelet-config.json --hostname-override=nodegen --kubeconfig=/etc/kubernetes/kubelet.kubeconfig --node-ip=10.0.0.5 --node-labels=example.com/gpu,node.kubernetes.io/pool=batch --root-dir=/var/lib/kubernetes --lock-file=/var/run/lock/kubelet.lock --exit-on-lock-contention --v=4"
    error_message = "the command line has only flags the 1.37 kubelet still has"
  }
}

run "a label the kubelet refuses is an error" {
  config "services.kubernetes.release" { skipInstall = true }
  config "services.kubernetes" {
    masterAddress = "master.example.com"
    kubelet = {
      enable     = true
      nodeLabels = { "node-role.kubernetes.io/worker" = "", "kubelet.kubernetes.io/ok" = "1", "kubernetes.io/os" = "linux" }
    }
  }
  expect_error = "the kubelet refuses to register the label node-role.kubernetes.io/worker (since Kubernetes 1.16"
}

run "a removed flag's option says what replaced it" {
  config "services.kubernetes.release" { skipInstall = true }
  config "services.kubernetes" {
    masterAddress = "master.example.com"
    kubelet       = { enable = true, allowPrivileged = true }
  }
  expect_error = "The kubelet's --allow-privileged flag was removed in Kubernetes 1.15 (kubernetes#77820)"
}

run "the pod-infra image is containerd's" {
  config "services.kubernetes.release" { skipInstall = true }
  config "services.kubernetes" {
    masterAddress = "master.example.com"
    kubelet       = { enable = true, podInfraContainerImage = "registry.k8s.io/pause:3.10" }
  }
  expect_error = "Option \"services.kubernetes.kubelet.podInfraContainerImage\" was removed"
}

run "anonymousAuth is now a key of settings" {
  config "services.kubernetes.release" { skipInstall = true }
  config "services.kubernetes" {
    masterAddress = "master.example.com"
    kubelet       = { enable = true, anonymousAuth = true }
  }
  assert {
    condition     = jsondecode(config.environment.etc["kubernetes/kubelet-config.json"].text).authentication.anonymous.enabled == true
    error_message = "the renamed option sets the key"
  }
}

run "the kubelet-wrapper runs the kubelet under rkt" {
  config "services.kubernetes.release" { skipInstall = true }
  config "services.kubernetes" {
    masterAddress = "master.example.com"
    addons        = { dns = { enable = false } }
    kubelet = {
      enable  = true
      wrapper = { enable = true, imageTag = "v1.5.4_coreos.0", hostResolvConf = true }
    }
  }

  assert {
    condition     = startswith(config.systemd.services.kubelet.serviceConfig.ExecStart, "/usr/lib/coreos/kubelet-wrapper --")
    error_message = "ExecStart runs the wrapper"
  }
  assert {
    condition     = config.systemd.services.kubelet.environment.RKT_RUN_ARGS == "--volume resolv,kind=host,source=/etc/resolv.conf --mount volume=resolv,target=/etc/resolv.conf --uuid-file-save=/var/run/kubelet-pod.uuid"
    error_message = "RKT_RUN_ARGS mounts the volumes and saves the pod's UUID"
  }
  assert {
    condition     = config.systemd.services.kubelet.serviceConfig.ExecStartPre == ["-/usr/bin/rkt rm --uuid-file=/var/run/kubelet-pod.uuid"]
    error_message = "rkt rm removes the previous pod"
  }
  assert {
    condition     = config.systemd.services.kubelet.serviceConfig.ExecStop == "-/usr/bin/rkt stop --uuid-file=/var/run/kubelet-pod.uuid"
    error_message = "rkt stop stops it"
  }
}

run "seeded images are imported into containerd's k8s.io namespace" {
  config "services.kubernetes.release" { skipInstall = true }
  config "services.kubernetes" {
    masterAddress = "master.example.com"
    kubelet       = { enable = true, seedDockerImages = ["/opt/images/app.tar"] }
  }

  assert {
    condition     = strcontains(config.systemd.services.kubelet.preStart, "ctr --namespace k8s.io images import /opt/images/app.tar\n") && !strcontains(config.systemd.services.kubelet.preStart, "docker")
    error_message = "images are imported with ctr, and docker is not used"
  }
  assert {
    condition     = strcontains(config.systemd.services.kubelet.preStart, "ln -fs /usr/lib/cni/* /opt/cni/bin\n") && contains(config.environment.systemPackages, "containernetworking-plugins")
    error_message = "Debian's CNI plugins are linked where containerd runs them"
  }
}

run "a host's sandboxImage goes to containerd's config" {
  config "services.kubernetes.release" { skipInstall = true }
  config "services.kubernetes" {
    masterAddress = "master.example.com"
    kubelet       = { enable = true }
  }
  config "services.containerd" {
    sandboxImage = "registry.k8s.io/pause:3.10"
  }

  assert {
    condition     = config.services.containerd.settings.plugins["io.containerd.grpc.v1.cri"].sandbox_image == "registry.k8s.io/pause:3.10"
    error_message = "config.toml gets it"
  }
}

run "a label that is no label is an error, so no value adds another" {
  config "services.kubernetes.release" { skipInstall = true }
  config "services.kubernetes" {
    masterAddress = "master.example.com"
    kubelet = {
      enable     = true
      nodeLabels = { "example.com/pool" = "batch,node.kubernetes.io/exclude-from-external-load-balancers=" }
    }
  }
  expect_error = "a label's key must be a qualified name"
}

run "command-line values are one word" {
  config "services.kubernetes.release" { skipInstall = true }
  config "services.kubernetes" {
    masterAddress = "master.example.com"
    kubelet       = { enable = true, nodeIp = "10.0.0.5 --anonymous-auth=true" }
  }
  expect_error = "Definition of option \"services.kubernetes.kubelet.nodeIp\" is not of type"
}

run "extraOpts is one line" {
  config "services.kubernetes.release" { skipInstall = true }
  config "services.kubernetes" {
    masterAddress = "master.example.com"
    kubelet       = { enable = true, extraOpts = "--v=2\nExecStartPre=/bin/touch /tmp/pwned" }
  }
  expect_error = "Definition of option \"services.kubernetes.kubelet.extraOpts\" is not of type"
}

run "a change of a component's configuration file restarts it" {
  config "services.kubernetes.release" { skipInstall = true }
  config "services.kubernetes" {
    roles         = ["master", "node"]
    masterAddress = "master.example.com"
    flannel       = { enable = false }
  }
  config "services.kubernetes.kubelet.settings" { maxPods = 50 }

  assert {
    condition     = config.systemd.services.kubelet.restartTriggers == [config.environment.etc["kubernetes/kubelet-config.json"].text] && strcontains(config.systemd.services.kubelet.restartTriggers[0], "\"maxPods\": 50")
    error_message = "the kubelet's restart triggers are its configuration file"
  }
  assert {
    condition     = config.systemd.services.kube-proxy.restartTriggers == [config.environment.etc["kubernetes/kube-proxy-config.json"].text]
    error_message = "kube-proxy's restart triggers are its configuration file"
  }
  assert {
    condition     = config.systemd.services.kube-scheduler.restartTriggers == [config.environment.etc["kubernetes/kube-scheduler-config.json"].text]
    error_message = "the scheduler's restart triggers are its configuration file"
  }
  assert {
    condition     = strcontains(config.systemd.units["kubelet.service"].text, "X-Restart-Triggers=${sha256(jsonencode(config.systemd.services.kubelet.restartTriggers))}")
    error_message = "the kubelet's unit file changes with its configuration file"
  }
}
