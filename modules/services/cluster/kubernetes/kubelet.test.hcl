# Tests of the kubelet (kubelet.hcl, kubelet-wrapper.hcl): its flags, taints
# and CNI configuration.

run "taints are rendered into --register-with-taints" {
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
    condition     = strcontains(config.systemd.services.kubelet.serviceConfig.ExecStart, " --register-with-taints=example.com/dedicated=batch:PreferNoSchedule,gpu=true:NoSchedule ")
    error_message = "taints are joined as key=value:effect, by name"
  }
  assert {
    condition     = config.services.kubernetes.kubelet.taints.gpu.key == "gpu"
    error_message = "a taint's key is its name by default"
  }
}

run "no taints, no --register-with-taints" {
  config "services.kubernetes" {
    masterAddress = "master.example.com"
    kubelet       = { enable = true }
  }

  assert {
    condition     = !strcontains(config.systemd.services.kubelet.serviceConfig.ExecStart, "--register-with-taints")
    error_message = "the flag is left out without taints"
  }
}

run "unschedulable adds the NoSchedule taint" {
  config "services.kubernetes" {
    masterAddress = "master.example.com"
    kubelet       = { enable = true, unschedulable = true }
  }

  assert {
    condition     = config.services.kubernetes.kubelet.taints.unschedulable.effect == "NoSchedule"
    error_message = "unschedulable must add a NoSchedule taint"
  }
  assert {
    condition     = strcontains(config.systemd.services.kubelet.serviceConfig.ExecStart, " --register-with-taints=unschedulable=true:NoSchedule ")
    error_message = "and the kubelet registers with it"
  }
}

run "both cni forms conflict" {
  config "services.kubernetes" {
    masterAddress = "master.example.com"
    kubelet = {
      enable = true
      cni    = { configDir = "/etc/cni/custom", config = [{ type = "loopback" }] }
    }
  }
  expect_error = "Verbatim CNI-config and CNI configDir cannot both be set."
}

run "cni configs are numbered from 11" {
  config "services.kubernetes" {
    masterAddress = "master.example.com"
    kubelet = {
      enable = true
      cni    = { config = [{ type = "bridge", name = "mynet" }, { type = "loopback" }] }
    }
  }

  assert {
    condition     = config.environment.etc["cni/net.d/11-bridge.conf"].text == "{\"name\":\"mynet\",\"type\":\"bridge\"}"
    error_message = "the first config is 11-TYPE.conf, as JSON"
  }
  assert {
    condition     = contains(keys(config.environment.etc), "cni/net.d/12-loopback.conf")
    error_message = "the second is 12-TYPE.conf"
  }
  assert {
    condition     = strcontains(config.systemd.services.kubelet.serviceConfig.ExecStart, " --cni-conf-dir=/etc/cni/net.d ")
    error_message = "the kubelet reads them"
  }
}

run "optional flags appear only when their option is set" {
  config "services.kubernetes" {
    masterAddress = "master.example.com"
    kubelet = {
      enable                   = true
      clientCaFile             = "/ca.pem"
      featureGates             = ["A", "B"]
      nodeIp                   = "10.0.0.5"
      tlsCertFile              = "/k.pem"
      tlsKeyFile               = "/k-key.pem"
      verbosity                = 4
      containerRuntimeEndpoint = "unix:///run/containerd/containerd.sock"
      nodeLabels               = { "node-role.kubernetes.io/worker" = "" }
      requireKubeconfig        = true
      anonymousAuth            = false
      lockFile                 = "/var/run/lock/kubelet.lock"
      exitOnLockContention     = true
      manifests                = { p = { kind = "Pod" } }
    }
  }

  assert {
    condition = alltrue([for f in [
      "--client-ca-file=/ca.pem",
      "--feature-gates=A=true,B=true",
      "--node-ip=10.0.0.5",
      "--tls-cert-file=/k.pem",
      "--tls-private-key-file=/k-key.pem",
      "--v=4",
      "--container-runtime-endpoint=unix:///run/containerd/containerd.sock",
      "--node-labels=node-role.kubernetes.io/worker",
      "--require-kubeconfig",
      "--anonymous-auth=false",
      "--lock-file=/var/run/lock/kubelet.lock",
      "--exit-on-lock-contention",
      "--pod-manifest-path=/etc/kubernetes/manifests",
    ] : contains(split(" ", config.systemd.services.kubelet.serviceConfig.ExecStart), f)])
    error_message = "every optional flag is there when its option is set"
  }
  assert {
    condition     = config.environment.etc["kubernetes/manifests/p.json"].mode == "0755"
    error_message = "manifests are written with mode 0755"
  }
}

run "optional flags are left out by default" {
  config "services.kubernetes" {
    masterAddress = "master.example.com"
    kubelet       = { enable = true }
  }

  assert {
    condition = alltrue([for f in [
      "--client-ca-file", "--feature-gates", "--node-ip", "--tls-cert-file",
      "--tls-private-key-file", "--v=", "--container-runtime-endpoint", "--node-labels",
      "--require-kubeconfig", "--anonymous-auth", "--lock-file", "--exit-on-lock-contention",
      "--pod-manifest-path", "--register-with-taints",
    ] : !strcontains(config.systemd.services.kubelet.serviceConfig.ExecStart, f)])
    error_message = "no optional flag without its option"
  }
}

run "the kubelet-wrapper runs the kubelet under rkt" {
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

run "without containerd, seeded images are loaded into docker" {
  config "services.kubernetes" {
    masterAddress = "master.example.com"
    kubelet       = { enable = true }
  }

  assert {
    condition     = strcontains(config.systemd.services.kubelet.preStart, "docker load </opt/kubernetes/images/pause.tar\n")
    error_message = "without containerd the seed's docker load is kept"
  }
}

run "on a containerd node seeded images go to containerd's k8s.io namespace" {
  config "services.kubernetes" {
    masterAddress = "master.example.com"
    kubelet       = { enable = true }
  }
  config "services.containerd" {
    enable  = true
    version = "1.6.20"
  }

  assert {
    condition     = config.services.kubernetes.kubelet.seedImagesWith == "containerd"
    error_message = "the containerd module chooses containerd"
  }
  assert {
    condition     = strcontains(config.systemd.services.kubelet.preStart, "ctr --namespace k8s.io images import /opt/kubernetes/images/pause.tar\n") && !strcontains(config.systemd.services.kubelet.preStart, "docker")
    error_message = "images are imported with ctr, and docker is not used"
  }
}

run "containerd's sandbox image follows the kubelet's pod-infra image" {
  config "services.kubernetes" {
    masterAddress = "master.example.com"
    kubelet       = { enable = true }
  }
  config "services.containerd" {
    enable  = true
    version = "1.6.20"
  }

  assert {
    condition     = config.services.containerd.sandboxImage == "docker.io/library/pause:latest"
    error_message = "the seed's pause is the imported pause:latest"
  }
  assert {
    condition     = config.services.containerd.settings.plugins["io.containerd.grpc.v1.cri"].sandbox_image == "docker.io/library/pause:latest"
    error_message = "config.toml gets it"
  }
}

run "a registry pod-infra image is containerd's sandbox image" {
  config "services.kubernetes" {
    masterAddress = "master.example.com"
    kubelet       = { enable = true, podInfraContainerImage = "registry.k8s.io/pause:3.9" }
  }
  config "services.containerd" {
    enable  = true
    version = "1.6.20"
  }

  assert {
    condition     = config.services.containerd.sandboxImage == "registry.k8s.io/pause:3.9"
    error_message = "the kubelet's image is used as it is"
  }
}

run "a host's own sandboxImage wins over the kubelet's pod-infra image" {
  config "services.kubernetes" {
    masterAddress = "master.example.com"
    kubelet       = { enable = true }
  }
  config "services.containerd" {
    enable       = true
    version      = "1.6.20"
    sandboxImage = "registry.k8s.io/pause:3.9"
  }

  assert {
    condition     = config.services.containerd.sandboxImage == "registry.k8s.io/pause:3.9"
    error_message = "the host's definition beats the module's mkDefault"
  }
}
