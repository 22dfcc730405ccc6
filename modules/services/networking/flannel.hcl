# services.flannel: the flannel overlay network daemon. A port of the
# behaviour of nixpkgs' nixos/modules/services/networking/flannel.nix
# (early 2019).

locals {
  flannel = config.services.flannel
  networkConfig = merge(
    { Network = local.flannel.network, SubnetLen = local.flannel.subnetLen, Backend = local.flannel.backend },
    local.flannel.subnetMin != null ? { SubnetMin = local.flannel.subnetMin } : {},
    local.flannel.subnetMax != null ? { SubnetMax = local.flannel.subnetMax } : {},
  )
}

options "services.flannel" {
  option "enable" {
    type        = bool
    default     = false
    example     = true
    description = "Whether to enable flannel."
  }
  option "package" {
    type        = package
    default     = "/usr"
    description = "Package to use for flannel: bin/flannel."
  }
  option "publicIp" {
    type        = nullOr(str)
    default     = null
    description = <<-EOT
      IP accessible by other nodes for inter-host communication.
      Defaults to the IP of the interface being used for communication.
    EOT
  }
  option "iface" {
    type        = nullOr(str)
    default     = null
    description = <<-EOT
      Interface to use (IP or name) for inter-host communication.
      Defaults to the interface for the default route on the machine.
    EOT
  }
  option "etcd.endpoints" {
    type        = listOf(str)
    default     = ["http://127.0.0.1:2379"]
    description = "Etcd endpoints"
  }
  option "etcd.prefix" {
    type        = str
    default     = "/coreos.com/network"
    description = "Etcd key prefix"
  }
  option "etcd.caFile" {
    type        = nullOr(path)
    default     = null
    description = "Etcd certificate authority file"
  }
  option "etcd.certFile" {
    type        = nullOr(path)
    default     = null
    description = "Etcd cert file"
  }
  option "etcd.keyFile" {
    type        = nullOr(path)
    default     = null
    description = "Etcd key file"
  }
  option "kubeconfig" {
    type        = nullOr(path)
    default     = null
    description = <<-EOT
      Path to kubeconfig to use for storing flannel config using the
      Kubernetes API
    EOT
  }
  option "network" {
    type        = str
    description = " IPv4 network in CIDR format to use for the entire flannel network."
  }
  option "nodeName" {
    type         = nullOr(str)
    default      = root.networking.hostName
    default_text = "networking.hostName"
    example      = "node1.example.com"
    description  = "Needed when running with Kubernetes as backend as this cannot be auto-detected"
  }
  option "storageBackend" {
    type        = enum(["etcd", "kubernetes"])
    default     = "etcd"
    description = "Determines where flannel stores its configuration at runtime"
  }
  option "subnetLen" {
    type        = int
    default     = 24
    description = <<-EOT
      The size of the subnet allocated to each host. Defaults to 24 (i.e. /24)
      unless the Network was configured to be smaller than a /24 in which case
      it is one less than the network.
    EOT
  }
  option "subnetMin" {
    type        = nullOr(str)
    default     = null
    description = <<-EOT
      The beginning of IP range which the subnet allocation should start with.
      Defaults to the first subnet of Network.
    EOT
  }
  option "subnetMax" {
    type        = nullOr(str)
    default     = null
    description = <<-EOT
      The end of IP range which the subnet allocation should start with.
      Defaults to the last subnet of Network.
    EOT
  }
  option "backend" {
    type        = attrs
    default     = { Type = "vxlan" }
    description = "Type of backend to use and specific configurations for that backend."
  }
}

config "systemd.services.flannel" {
  when        = local.flannel.enable
  description = "Flannel Service"
  wantedBy    = ["multi-user.target"]
  after       = ["network.target"]
  environment = merge(
    {
      FLANNELD_PUBLIC_IP = local.flannel.publicIp
      FLANNELD_IFACE     = local.flannel.iface
    },
    local.flannel.storageBackend != "etcd" ? {} : {
      FLANNELD_ETCD_ENDPOINTS = join(",", local.flannel.etcd.endpoints)
      FLANNELD_ETCD_KEYFILE   = local.flannel.etcd.keyFile
      FLANNELD_ETCD_CERTFILE  = local.flannel.etcd.certFile
      FLANNELD_ETCD_CAFILE    = local.flannel.etcd.caFile
      ETCDCTL_CERT_FILE       = local.flannel.etcd.certFile
      ETCDCTL_KEY_FILE        = local.flannel.etcd.keyFile
      ETCDCTL_CA_FILE         = local.flannel.etcd.caFile
      ETCDCTL_PEERS           = join(",", local.flannel.etcd.endpoints)
    },
    local.flannel.storageBackend != "kubernetes" ? {} : {
      FLANNELD_KUBE_SUBNET_MGR = "true"
      FLANNELD_KUBECONFIG_FILE = local.flannel.kubeconfig
      NODE_NAME                = local.flannel.nodeName
    },
  )
  # iptables
  path = [root.services.kubernetes.toolsPackage]
  serviceConfig = {
    ExecStart  = "${local.flannel.package}/bin/flannel"
    Restart    = "always"
    RestartSec = "10s"
  }
  # flanneld's --subnet-file, which the flannel CNI plugin reads
  provides = { files = ["/run/flannel/subnet.env"] }
}

# (Before the wait for the apiserver that the Kubernetes pki module adds.)
config "systemd.services.flannel" {
  when = local.flannel.enable && local.flannel.storageBackend == "etcd"
  preStart = mkBefore(<<-EOT
    echo "setting network configuration"
    until ${root.services.etcd.package}/bin/etcdctl set /coreos.com/network/config '${jsonencode(local.networkConfig)}'
    do
      echo "setting network configuration, retry"
      sleep 1
    done
  EOT
  )
}

config "services.etcd" {
  when   = local.flannel.enable
  enable = mkDefault(local.flannel.storageBackend == "etcd" && local.flannel.etcd.endpoints == ["http://127.0.0.1:2379"])
}

# for some reason, flannel doesn't let you configure this path
# see: https://github.com/coreos/flannel/blob/master/Documentation/configuration.md#configuration
config "environment.etc.\"kube-flannel/net-conf.json\"" {
  when   = local.flannel.enable && local.flannel.storageBackend == "kubernetes"
  origin = "services.flannel"
  text   = jsonencode(local.networkConfig)
}
