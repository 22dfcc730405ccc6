# The environment of the Kubernetes end-to-end tests, as an overlay on a
# host of the library (fixtures/k8s-single, k8s-master, k8s-worker): a
# node in a systemd-nspawn container with a private network, on a cgroup
# v1 (hybrid) host whose root lacks CAP_SYS_RESOURCE, with no registry and
# no network outside. The test binds the Kubernetes binaries read-only at
# /opt/k8s/bin and the image tarball at /opt/k8s-e2e/image.tar. What
# differs between the test's hosts (the node IP, the names, the pod
# subnet) is in a second overlay per host (single.hcl, master.hcl,
# worker.hcl), as the options below.
#
# The certificates are the library's (easyCerts, as the roles have it): the
# master's cfssl CA issues them to kube-certs.service (nodegen pki fetch)
# on every host; the test copies the master's API token to a worker, as an
# operator would.

options "e2e" {
  option "hosts" {
    type        = attrsOf(listOf(str))
    default     = {}
    description = "The names of each address in /etc/hosts (networking.hosts), such as the master's name the units use; the test network has no DNS."
  }
  option "podSubnet" {
    type        = str
    description = "The node's pods' addresses (the bridge network's range): a part of the cluster CIDR of its own, as there is no overlay network."
  }
}

locals {
  nodeIp = config.services.kubernetes.kubelet.nodeIp
}

config "networking" {
  hosts = config.e2e.hosts
}

config "services.kubernetes" {
  package = "/opt/k8s"
  # The bridge below instead of flannel, unless a test's overlay turns it
  # on (flannel.hcl), and no CoreDNS (its image is not there).
  flannel = { enable = mkOverride(90, false) }
  # An addon the addon manager applies, which the test looks for.
  addonManager = {
    addons = {
      e2e-addon = {
        apiVersion = "v1"
        kind       = "ConfigMap"
        metadata = {
          name      = "nodegen-e2e"
          namespace = "kube-system"
          labels    = { "addonmanager.kubernetes.io/mode" = "Reconcile" }
        }
        data = { applied = "by the addon manager" }
      }
    }
  }
  addons  = { dns = { enable = false } }
  kubelet = {
    seedDockerImages = ["/opt/k8s-e2e/image.tar"]
    settings = {
      # A busy CI disk must not taint the node with disk pressure.
      evictionHard = {
        "memory.available"  = "100Mi"
        "nodefs.available"  = "1%"
        "imagefs.available" = "1%"
      }
      imageGCHighThresholdPercent = 100
    }
    cni = {
      config = mkIf(!config.services.kubernetes.flannel.enable, [{
        cniVersion = "1.0.0"
        name       = "k8s-e2e"
        plugins = [{
          type        = "bridge"
          bridge      = "cni0"
          isGateway   = true
          ipMasq      = false
          hairpinMode = true
          ipam = {
            type   = "host-local"
            ranges = [[{ subnet = config.e2e.podSubnet }]]
            routes = [{ dst = "0.0.0.0/0" }]
          }
        }]
      }])
    }
  }
  # conntrack's table size and timeouts are host-global: leave them be.
  proxy = {
    settings = {
      conntrack = {
        maxPerCore            = 0
        min                   = 0
        tcpEstablishedTimeout = "0s"
        tcpCloseWaitTimeout   = "0s"
      }
    }
  }
}

config "services.containerd" {
  # The image the test imports; nothing is pulled.
  sandboxImage = "k8s-e2e.local/pause:1"
  settings = {
    plugins = {
      "io.containerd.grpc.v1.cri" = {
        # Root here has no CAP_SYS_RESOURCE, so runc cannot give the pause
        # container the oom_score_adj of -998 the kubelet asks for.
        restrict_oom_score_adj = true
      }
    }
  }
}

# What a VM has and an nspawn container lacks, before anything else runs:
# a node IP on an interface other than lo (k8s0: the test moves one end of
# a veth pair between two machines in as k8s0; alone, a machine makes a
# veth pair inside, as the kernel may have no dummy driver), writable
# cgroup v1 controllers (nspawn mounts them read-only), and the three
# host-global sysctls the kubelet writes when they differ (a failed write
# is fatal; /proc/sys is read-only here): a file with the wanted value is
# bound over each. (The names the units use are in /etc/hosts:
# networking.hosts from e2e.hosts, and etcd.local from the library.)
config "systemd.services.k8s-node-prep" {
  description = "Prepare the nspawn container to act as a Kubernetes node"
  wantedBy    = ["multi-user.target"]
  before      = ["network.target", "containerd.service", "etcd.service", "kubelet.service", "kube-apiserver.service", "kube-proxy.service"]
  after       = ["local-fs.target"]
  path        = ["/usr"]
  unitConfig  = { DefaultDependencies = false }
  serviceConfig = {
    Type            = "oneshot"
    RemainAfterExit = true
  }
  script = <<-EOT
    if ! ip link show k8s0 >/dev/null 2>&1; then
      ip link add k8s0 type veth peer name k8s0-peer
      ip link set k8s0-peer up
    fi
    ip -4 addr show dev k8s0 | grep -q "inet ${local.nodeIp}/" || ip addr add ${local.nodeIp}/24 dev k8s0
    ip link set k8s0 up
    [ -n "$(ip route show default)" ] || ip route add default dev k8s0
    for d in /sys/fs/cgroup /sys/fs/cgroup/*; do mount -o remount,bind,rw "$d"; done
    mkdir -p /run/fake-sysctl
    for kv in vm/overcommit_memory=1 vm/panic_on_oom=0 kernel/panic=10 kernel/panic_on_oops=1; do
      k=$${kv%%=*}; v=$${kv#*=}
      [ "$(cat /proc/sys/$k)" = "$v" ] && continue
      f=/run/fake-sysctl/$(echo $k | tr / _)
      echo $v > $f
      mount --bind $f /proc/sys/$k
    done
  EOT
}

# The machines run on a host with the legacy or hybrid cgroup hierarchy
# (cgroup v1): the kubelet, which refuses one since Kubernetes 1.35, is
# told (failCgroupV1).
config "systemd" {
  enableUnifiedCgroupHierarchy = false
}
