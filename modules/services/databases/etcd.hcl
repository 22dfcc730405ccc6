# services.etcd: the key-value store of the Kubernetes master. A port of the
# behaviour of nixpkgs' nixos/modules/services/misc/etcd.nix (early 2019;
# NixOS has since moved it here, to services/databases/etcd.nix).

locals {
  etcd = config.services.etcd
}

options "services.etcd" {
  option "enable" {
    type        = bool
    default     = false
    description = "Whether to enable etcd."
  }
  option "package" {
    type        = package
    default     = "/usr"
    description = "The etcd package: bin/etcd and bin/etcdctl."
  }
  option "name" {
    type         = str
    default      = root.networking.hostName
    default_text = "networking.hostName"
    description  = "Etcd unique node name."
  }
  option "advertiseClientUrls" {
    type         = listOf(str)
    default      = config.services.etcd.listenClientUrls
    default_text = "listenClientUrls"
    description  = "Etcd list of this member's client URLs to advertise to the rest of the cluster."
  }
  option "listenClientUrls" {
    type        = listOf(str)
    default     = ["http://127.0.0.1:2379"]
    description = "Etcd list of URLs to listen on for client traffic."
  }
  option "listenPeerUrls" {
    type        = listOf(str)
    default     = ["http://127.0.0.1:2380"]
    description = "Etcd list of URLs to listen on for peer traffic."
  }
  option "initialAdvertisePeerUrls" {
    type         = listOf(str)
    default      = config.services.etcd.listenPeerUrls
    default_text = "listenPeerUrls"
    description  = "Etcd list of this member's peer URLs to advertise to rest of the cluster."
  }
  option "initialCluster" {
    type         = listOf(str)
    default      = ["${config.services.etcd.name}=http://127.0.0.1:2380"]
    default_text = "[\"NAME=http://127.0.0.1:2380\"]"
    description  = "Etcd initial cluster configuration for bootstrapping."
  }
  option "initialClusterState" {
    type        = enum(["new", "existing"])
    default     = "new"
    description = "Etcd initial cluster configuration for bootstrapping."
  }
  option "initialClusterToken" {
    type        = str
    default     = "etcd-cluster"
    description = "Etcd initial cluster token for etcd cluster during bootstrap."
  }
  option "discovery" {
    type        = str
    default     = ""
    description = "Etcd discovery url"
  }
  option "clientCertAuth" {
    type        = bool
    default     = false
    description = "Whether to use certs for client authentication"
  }
  option "trustedCaFile" {
    type        = nullOr(path)
    default     = null
    description = "Certificate authority file to use for clients"
  }
  option "certFile" {
    type        = nullOr(path)
    default     = null
    description = "Cert file to use for clients"
  }
  option "keyFile" {
    type        = nullOr(path)
    default     = null
    description = "Key file to use for clients"
  }
  option "peerCertFile" {
    type         = nullOr(path)
    default      = config.services.etcd.certFile
    default_text = "certFile"
    description  = "Cert file to use for peer to peer communication"
  }
  option "peerKeyFile" {
    type         = nullOr(path)
    default      = config.services.etcd.keyFile
    default_text = "keyFile"
    description  = "Key file to use for peer to peer communication"
  }
  option "peerTrustedCaFile" {
    type         = nullOr(path)
    default      = config.services.etcd.trustedCaFile
    default_text = "trustedCaFile"
    description  = "Certificate authority file to use for peer to peer communication"
  }
  option "peerClientCertAuth" {
    type        = bool
    default     = false
    description = "Whether to check all incoming peer requests from the cluster for valid client certificates signed by the supplied CA"
  }
  option "extraConf" {
    type        = attrsOf(str)
    default     = {}
    example     = { CORS = "*", NAME = "default-name", MAX_RESULT_BUFFER = "1024", MAX_CLUSTER_SIZE = "9", MAX_RETRY_ATTEMPTS = "3" }
    description = <<-EOT
      Etcd extra configuration. See
      <https://github.com/coreos/etcd/blob/master/Documentation/op-guide/configuration.md#configuration-flags>
    EOT
  }
  option "dataDir" {
    type        = path
    default     = "/var/lib/etcd"
    description = "Etcd data directory."
  }
}

config "systemd.services.etcd" {
  when          = local.etcd.enable
  description   = "etcd key-value store"
  documentation = ["https://github.com/coreos/etcd"]
  wantedBy      = ["multi-user.target"]
  after         = ["network.target"]
  environment = merge(
    {
      ETCD_NAME                        = local.etcd.name
      ETCD_DISCOVERY                   = local.etcd.discovery
      ETCD_DATA_DIR                    = local.etcd.dataDir
      ETCD_ADVERTISE_CLIENT_URLS       = join(",", local.etcd.advertiseClientUrls)
      ETCD_LISTEN_CLIENT_URLS          = join(",", local.etcd.listenClientUrls)
      ETCD_LISTEN_PEER_URLS            = join(",", local.etcd.listenPeerUrls)
      ETCD_INITIAL_ADVERTISE_PEER_URLS = join(",", local.etcd.initialAdvertisePeerUrls)
      # Nix's toString of a bool: "1" or "".
      ETCD_PEER_CLIENT_CERT_AUTH = local.etcd.peerClientCertAuth ? "1" : ""
      ETCD_PEER_TRUSTED_CA_FILE  = local.etcd.peerTrustedCaFile
      ETCD_PEER_CERT_FILE        = local.etcd.peerCertFile
      ETCD_PEER_KEY_FILE         = local.etcd.peerKeyFile
      ETCD_CLIENT_CERT_AUTH      = local.etcd.clientCertAuth ? "1" : ""
      ETCD_TRUSTED_CA_FILE       = local.etcd.trustedCaFile
      ETCD_CERT_FILE             = local.etcd.certFile
      ETCD_KEY_FILE              = local.etcd.keyFile
    },
    local.etcd.discovery != "" ? {} : {
      ETCD_INITIAL_CLUSTER       = join(",", local.etcd.initialCluster)
      ETCD_INITIAL_CLUSTER_STATE = local.etcd.initialClusterState
      ETCD_INITIAL_CLUSTER_TOKEN = local.etcd.initialClusterToken
    },
    { for n, v in local.etcd.extraConf : "ETCD_${n}" => v },
  )
  serviceConfig = {
    Type        = "notify"
    ExecStart   = "${local.etcd.package}/bin/etcd"
    User        = "etcd"
    LimitNOFILE = 40000
  }
  provides = { urls = local.etcd.listenClientUrls }
}

config "environment" {
  when = local.etcd.enable
  etc = {
    "tmpfiles.d/etcd.conf" = {
      origin = "services.etcd"
      text   = "d '${local.etcd.dataDir}' 0700 etcd - - -\n"
    }
    "sysusers.d/etcd.conf" = {
      origin = "services.etcd"
      text   = "u etcd - \"Etcd daemon user\" ${local.etcd.dataDir}\n"
    }
  }
}

# The etcd binary: Debian's etcd-server package, when etcd is run from
# /usr (set services.etcd.package to a directory an asset fills for another
# build).
config "environment.packages.etcd-server" {
  when     = local.etcd.enable && local.etcd.package == "/usr"
  provides = ["/usr/bin/etcd"]
}
