# What a host of the walk-through needs in a systemd-nspawn container that a
# VM would not: the test imports this file beside each host file
# (fleet/NAME.hcl), and it is the only setting the test adds to them. The
# machines run on this host's kernel and cgroups: the legacy or hybrid
# hierarchy (cgroup v1), and a root without CAP_SYS_RESOURCE; /proc/sys
# and the cgroup v1 controllers are mounted read-only.

# The kubelet refuses cgroup v1 since Kubernetes 1.35 unless told
# (failCgroupV1 = false, which this makes the library set).
config "systemd" {
  enableUnifiedCgroupHierarchy = false
}

# runc cannot give the pause container the oom_score_adj of -998 the
# kubelet asks for without CAP_SYS_RESOURCE.
config "services.containerd.settings" {
  plugins = {
    "io.containerd.grpc.v1.cri" = { restrict_oom_score_adj = true }
  }
}

# conntrack's table size and timeouts are host-global: kube-proxy leaves
# them be.
config "services.kubernetes.proxy.settings" {
  conntrack = {
    maxPerCore            = 0
    min                   = 0
    tcpEstablishedTimeout = "0s"
    tcpCloseWaitTimeout   = "0s"
  }
}

# Before containerd and the kubelet: the cgroup v1 controllers remounted
# writable, and a file with the wanted value bound over each of the
# host-global sysctls the kubelet writes when they differ (a failed write
# is fatal to it).
config "systemd.services.nspawn-node-prep" {
  description = "Prepare the systemd-nspawn container to act as a Kubernetes node"
  wantedBy    = ["multi-user.target"]
  before      = ["containerd.service", "kubelet.service", "kube-proxy.service"]
  after       = ["local-fs.target"]
  path        = ["/usr"]
  unitConfig  = { DefaultDependencies = false }
  serviceConfig = {
    Type            = "oneshot"
    RemainAfterExit = true
  }
  script = <<-EOT
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
