# services.kubernetes.controlPlane: a highly available control plane.
#
# Every host of the cluster lists the control-plane members (a name and an
# address each). A master that is a member runs a stacked etcd member
# (peer and client TLS from easyCerts, the initial cluster from the
# members) and an apiserver that talks to every etcd member; the controller
# manager and the scheduler elect a leader (their default). Every host with
# a component (masters and workers) reaches the apiservers through a local
# load balancer on 127.0.0.1 (nginx's stream module, Debian's
# libnginx-mod-stream: the pattern of Kubespray's nginx-proxy), and its
# kubeconfigs point there, so losing a master loses nothing. One member,
# caHost, runs the easyCerts CA (cfssl); see docs/kubernetes.md, "A highly
# available control plane".

locals {
  top = config.services.kubernetes
  cp  = config.services.kubernetes.controlPlane
  ha  = length(config.services.kubernetes.controlPlane.members) > 0

  self     = [for m in local.cp.members : m if m.name == config.networking.hostName]
  isMember = length(local.self) > 0
  caHosts  = [for m in local.cp.members : m if m.name == local.cp.caHost]
  isMaster = contains(local.top.roles, "master") || local.top.apiserver.enable

  memberNames = [for m in local.cp.members : m.name]
  # An IPv6 address in a URL or nginx's server line goes in brackets.
  hostPort = { for m in local.cp.members : m.name => strcontains(m.address, ":") ? "[${m.address}]" : m.address }

  lbConfigFile = "kubernetes/apiserver-lb.conf"
  lbConfig = join("", concat(
    [
      "# The local load balancer of the apiservers (services.kubernetes.controlPlane).\n",
      "load_module ${local.cp.loadBalancer.modulesDir}/ngx_stream_module.so;\n",
      "daemon off;\n",
      "worker_processes 1;\n",
      "pid /run/kube-apiserver-lb/nginx.pid;\n",
      "error_log stderr notice;\n",
      "\n",
      "events {\n",
      "  worker_connections 1024;\n",
      "}\n",
      "\n",
      "stream {\n",
      "  upstream kube_apiserver {\n",
      "    least_conn;\n",
    ],
    [for m in local.cp.members : "    server ${local.hostPort[m.name]}:${local.top.apiserver.securePort} max_fails=1 fail_timeout=10s;\n"],
    [
      "  }\n",
      "\n",
      "  server {\n",
      "    listen 127.0.0.1:${local.cp.loadBalancer.port};\n",
      "    proxy_pass kube_apiserver;\n",
      "    proxy_timeout 10m;\n",
      "    proxy_connect_timeout 1s;\n",
      "  }\n",
      "}\n",
    ],
  ))
}

submodule "kubernetesControlPlaneMember" {
  option "name" {
    type        = word
    example     = "master01"
    description = "The member's host name (networking.hostName): its etcd member's name, and a name its certificates cover."
  }
  option "address" {
    type        = host
    example     = "10.88.0.21"
    description = "The address the other hosts reach the member at: its apiserver (port apiserver.securePort) and its etcd member (2379 for clients, 2380 for peers)."
  }
}

options "services.kubernetes.controlPlane" {
  option "members" {
    type        = listOf(submodule.kubernetesControlPlaneMember)
    default     = []
    example     = [{ name = "master01", address = "10.88.0.21" }, { name = "master02", address = "10.88.0.22" }, { name = "master03", address = "10.88.0.23" }]
    description = <<-EOT
      The members of a highly available control plane, the same list on
      every host of the cluster: every master is one of them (its
      networking.hostName is a member's name) and runs an etcd member, an
      apiserver, a controller manager and a scheduler. Empty: one master,
      at services.kubernetes.masterAddress. Use an odd number (3 or 5):
      etcd keeps working while a majority of the members do.
    EOT
  }
  option "caHost" {
    type         = nullOr(word)
    default      = null
    default_text = "the first member's name"
    example      = "master01"
    description  = <<-EOT
      The member that runs the easyCerts CA (cfssl). Every other host asks
      it for its certificates, with the CA's API token
      (apitoken.secret, which deployment.keys brings). While it is down,
      issuance and renewal wait; the certificates already issued keep
      working. services.kubernetes.masterAddress defaults to its address.
    EOT
  }
  option "serviceAccountKeyFile" {
    type        = path
    default     = "${config.services.kubernetes.secretsPath}/service-account-key.pem"
    description = <<-EOT
      Where the masters find the key that signs ServiceAccount tokens: the
      same RSA private key on every master (a token one apiserver signed
      is checked by the others), put there by deployment.keys (root's,
      mode 0400; kube-service-account-key.service gives the apiserver and
      the controller manager a copy of their own). Make it once with
      `openssl genrsa -out secrets/service-account-key.pem 2048`.
    EOT
  }
  option "loadBalancer.port" {
    type        = int
    default     = 6444
    description = "The port of the local load balancer on 127.0.0.1, where every component of the host reaches the apiservers."
  }
  option "loadBalancer.package" {
    type        = package
    default     = "/usr"
    description = "nginx: sbin/nginx (Debian's nginx package)."
  }
  option "loadBalancer.modulesDir" {
    type        = path
    default     = "/usr/lib/nginx/modules"
    description = "The directory of nginx's dynamic modules, with ngx_stream_module.so (Debian's libnginx-mod-stream)."
  }
  option "enable" {
    type        = bool
    read_only   = true
    internal    = true
    default     = length(config.services.kubernetes.controlPlane.members) > 0
    description = "Whether the control plane is highly available: members are listed."
  }
  option "isCAHost" {
    type        = bool
    read_only   = true
    default     = length(config.services.kubernetes.controlPlane.members) == 0 || config.networking.hostName == config.services.kubernetes.controlPlane.caHost
    description = "Whether this host runs the easyCerts CA: the only master without members, the caHost member with them. A host file reads it to put the CA's API token where cfssl (/var/lib/cfssl) or the other hosts (services.kubernetes.secretsPath) read it."
  }
}

config "services.kubernetes.controlPlane" {
  when   = local.ha
  caHost = mkDefault(local.cp.members[0].name)
}

config "services.kubernetes" {
  when = local.ha
  # The CA's host: where cfssl serves (pki.hcl's remote) and what its TLS
  # certificate covers.
  masterAddress = mkDefault(length(local.caHosts) > 0 ? local.caHosts[0].address : local.cp.members[0].address)
  # Every component talks to the local load balancer (over the default's
  # mkDefault, under a host's own setting).
  apiserverAddress = mkOverride(900, "https://127.0.0.1:${local.cp.loadBalancer.port}")
  pki = {
    cfsslAPIExtraSANs = length(local.caHosts) > 0 ? [local.caHosts[0].name] : []
  }
}

# A member: its etcd member, and an apiserver that reaches every member's.
config "services.etcd" {
  when                     = local.ha && local.isMember && root.services.etcd.enable && local.top.pki.enable && local.top.apiserver.enable
  name                     = local.self[0].name
  listenClientUrls         = ["https://${local.hostPort[local.self[0].name]}:2379", "https://127.0.0.1:2379"]
  listenPeerUrls           = ["https://${local.hostPort[local.self[0].name]}:2380"]
  advertiseClientUrls      = ["https://${local.hostPort[local.self[0].name]}:2379"]
  initialAdvertisePeerUrls = ["https://${local.hostPort[local.self[0].name]}:2380"]
  initialCluster           = [for m in local.cp.members : "${m.name}=https://${local.hostPort[m.name]}:2380"]
  initialClusterToken      = mkDefault("etcd-${join("-", local.memberNames)}")
  certFile                 = mkDefault(local.top.pki.certs.etcd.cert)
  keyFile                  = mkDefault(local.top.pki.certs.etcd.key)
  trustedCaFile            = mkDefault(local.top.pki.certs.etcd.caCert)
}

# A new cluster's member is ready once a majority has met: until then its
# start may time out, and it tries again.
config "systemd.services.etcd" {
  when = local.ha && local.isMember && root.services.etcd.enable
  serviceConfig = {
    Restart    = "on-failure"
    RestartSec = "5s"
  }
}

config "services.kubernetes.pki.certs.etcd" {
  when  = local.ha && local.isMember && local.top.apiserver.enable
  CN    = local.self[0].name
  hosts = [local.self[0].name, local.self[0].address, "127.0.0.1", "localhost"]
}

config "services.kubernetes.apiserver" {
  when             = local.ha && local.top.apiserver.enable
  advertiseAddress = mkIf(local.isMember, mkDefault(local.isMember ? local.self[0].address : null))
  etcd = {
    servers = [for m in local.cp.members : "https://${local.hostPort[m.name]}:2379"]
  }
  # What clients dial: any member by name or address, and the load
  # balancer on the loopback (127.0.0.1 is among the library's SANs).
  extraSANs                    = concat(local.memberNames, [for m in local.cp.members : m.address])
  serviceAccountKeyFile        = "${local.top.secretsPath}/service-account-signing-key.pem"
  serviceAccountSigningKeyFile = "${local.top.secretsPath}/service-account-signing-key.pem"
}

config "services.kubernetes.controllerManager" {
  when                  = local.ha && local.top.controllerManager.enable
  serviceAccountKeyFile = "${local.top.secretsPath}/service-account-signing-key.pem"
}

# The shared ServiceAccount key, which deployment.keys writes as root's, in
# a copy the kubernetes user reads.
config "systemd.services.kube-service-account-key" {
  when        = local.ha && (local.top.apiserver.enable || local.top.controllerManager.enable)
  description = "The ServiceAccount signing key the masters share, for the kubernetes user"
  wantedBy    = ["kubernetes.target"]
  before      = ["kube-apiserver.service", "kube-controller-manager.service"]
  requiredBy  = compact([local.top.apiserver.enable ? "kube-apiserver.service" : "", local.top.controllerManager.enable ? "kube-controller-manager.service" : ""])
  after       = ["systemd-sysusers.service"]
  path        = [local.top.toolsPackage]
  unitConfig  = { ConditionPathExists = local.cp.serviceAccountKeyFile }
  serviceConfig = {
    Type            = "oneshot"
    RemainAfterExit = true
  }
  script = "install -m 0400 -o kubernetes -g kubernetes ${local.cp.serviceAccountKeyFile} ${local.top.secretsPath}/service-account-signing-key.pem\n"
}

# The local load balancer, on every host with a component.
config "environment.etc.\"kubernetes/apiserver-lb.conf\"" {
  when   = local.ha && local.top.anyComponent
  origin = "services.kubernetes.controlPlane"
  text   = local.lbConfig
}

config "systemd.services.kube-apiserver-lb" {
  when        = local.ha && local.top.anyComponent
  description = "Local load balancer of the Kubernetes apiservers (127.0.0.1:${local.cp.loadBalancer.port})"
  wantedBy    = ["kubernetes.target"]
  after       = ["network.target"]
  before      = ["kubelet.service", "kube-proxy.service", "kube-controller-manager.service", "kube-scheduler.service", "kube-addon-manager.service", "flannel.service"]
  serviceConfig = {
    Slice            = "kubernetes.slice"
    RuntimeDirectory = "kube-apiserver-lb"
    ExecStartPre     = "${local.cp.loadBalancer.package}/sbin/nginx -t -q -e stderr -c /etc/${local.lbConfigFile}"
    ExecStart        = "${local.cp.loadBalancer.package}/sbin/nginx -e stderr -c /etc/${local.lbConfigFile}"
    ExecReload       = "${local.cp.loadBalancer.package}/sbin/nginx -e stderr -c /etc/${local.lbConfigFile} -s reload"
    Restart          = "always"
    RestartSec       = 2
  }
  # New members: nginx reads its configuration again, keeping connections.
  reloadTriggers = [local.lbConfig]
  provides       = { urls = ["https://127.0.0.1:${local.cp.loadBalancer.port}"] }
}

config "environment.packages.nginx" {
  when     = local.ha && local.top.anyComponent && local.cp.loadBalancer.package == "/usr"
  provides = ["/usr/sbin/nginx"]
}

config "environment.packages.libnginx-mod-stream" {
  when     = local.ha && local.top.anyComponent && local.cp.loadBalancer.modulesDir == "/usr/lib/nginx/modules"
  provides = ["/usr/lib/nginx/modules/ngx_stream_module.so"]
}

assert {
  condition = !local.ha || length(distinct(local.memberNames)) == length(local.memberNames)
  message   = "services.kubernetes.controlPlane.members: each member's name appears once, not ${join(", ", local.memberNames)}."
}

assert {
  condition = !local.ha || length(local.caHosts) == 1
  message   = "services.kubernetes.controlPlane.caHost: ${jsonencode(local.cp.caHost)} is not a member's name (the members: ${join(", ", local.memberNames)})."
}

assert {
  condition = !local.ha || !local.isMaster || local.isMember
  message   = "services.kubernetes.controlPlane.members: this master's networking.hostName ${jsonencode(config.networking.hostName)} is not a member's name (the members: ${join(", ", local.memberNames)}); every master of a highly available control plane is a member."
}
