# The helpers of the Kubernetes modules. NixOS keeps them as functions in
# services.kubernetes.lib (mkKubeConfig, mkKubeConfigOptions, mkCert,
# mkWaitCurl); a nodegen module has no functions, so each helper is a
# submodule whose read-only options compute what the function returned:
#
#   kubernetesKubeconfig  a component's kubeconfig options, and the
#                         kubeconfig YAML they render (text) with the file
#                         it is written to (path)
#   kubernetesCert        a certificate request of the pki module and the
#                         paths of the files nodegen pki fetch writes
#   kubernetesWaitCurl    a shell loop that waits until a URL answers
#
# and services.kubernetes.lib.waitFiles, the files a service waits for.

option "services.kubernetes.lib.waitCurl" {
  type        = attrsOf(submodule.kubernetesWaitCurl)
  default     = {}
  internal    = true
  description = "Wait loops, by name; a module reads the script of its own entry (NixOS's top.lib.mkWaitCurl)."
}

option "services.kubernetes.lib.waitFiles" {
  type        = attrsOf(listOf(str))
  default     = {}
  internal    = true
  example     = { kube-proxy = ["/var/lib/kubernetes/secrets/kube-proxy-client.pem"] }
  description = <<-EOT
    Files a service needs, by service name: the service starts only once they
    all exist (ConditionPathExists); easyCerts starts it when its certificates
    are issued, and restarts it when they are renewed (the certificates'
    actions). (The seed also wrote a path unit of the same name, with
    PathExists= on every file: it triggers as soon as one of them exists,
    and while the condition on the others skips the service, it triggers
    again until systemd stops it, trigger-limit-hit. The library writes none.)
    An empty list adds none.
  EOT
}

option "services.kubernetes.kubeconfigs" {
  type        = attrsOf(submodule.kubernetesKubeconfig)
  default     = {}
  example     = { admin = { server = "https://master:6443", certFile = "/var/lib/kubernetes/secrets/admin.pem", keyFile = "/var/lib/kubernetes/secrets/admin-key.pem" } }
  description = <<-EOT
    Kubeconfig files to write, by name: each becomes /etc/kubernetes/NAME.kubeconfig
    (see its target), with NAME as its user. The components write their own
    kubeconfig from their kubeconfig option the same way.
  EOT
}

# mkKubeConfigOptions, with mkKubeConfig as the text and path options.
submodule "kubernetesKubeconfig" {
  option "server" {
    type        = str
    description = "kube-apiserver server address. A component enabled takes services.kubernetes.kubeconfig.server by default."
  }
  option "caFile" {
    type         = nullOr(path)
    default      = root.services.kubernetes.kubeconfig.caFile
    default_text = "services.kubernetes.kubeconfig.caFile"
    description  = "Certificate authority file used to connect to kube-apiserver."
  }
  option "certFile" {
    type         = nullOr(path)
    default      = root.services.kubernetes.kubeconfig.certFile
    default_text = "services.kubernetes.kubeconfig.certFile"
    description  = "Client certificate file used to connect to kube-apiserver."
  }
  option "keyFile" {
    type         = nullOr(path)
    default      = root.services.kubernetes.kubeconfig.keyFile
    default_text = "services.kubernetes.kubeconfig.keyFile"
    description  = "Client key file used to connect to kube-apiserver."
  }
  option "caData" {
    type        = nullOr(str)
    default     = null
    description = "The certificate authority inline, base64-encoded PEM (certificate-authority-data); replaces caFile."
  }
  option "certData" {
    type        = nullOr(str)
    default     = null
    description = "The client certificate inline, base64-encoded PEM (client-certificate-data); replaces certFile."
  }
  option "keyData" {
    type        = nullOr(str)
    default     = null
    description = "The client key inline, base64-encoded PEM (client-key-data); replaces keyFile."
  }
  option "userName" {
    type         = str
    default      = name
    default_text = "the attribute name; each component sets its own"
    description  = "Name of the user in the kubeconfig, as NixOS's mkKubeConfig's name argument (kubelet, kube-proxy, ...)."
  }
  option "clusterName" {
    type        = str
    default     = "local"
    description = "Name of the cluster in the kubeconfig."
  }
  option "contextName" {
    type        = str
    default     = "local"
    description = "Name of the context in the kubeconfig; it is the current context."
  }
  option "target" {
    type         = str
    default      = "kubernetes/${config.userName}.kubeconfig"
    default_text = "kubernetes/USERNAME.kubeconfig"
    description  = "Where the kubeconfig is written, relative to /etc."
  }
  option "mode" {
    type         = str
    default      = config.keyData != null ? "0600" : "0644"
    default_text = "\"0600\" with keyData, else \"0644\""
    description  = "Mode of the kubeconfig file."
  }
  option "text" {
    type      = str
    read_only = true
    internal  = true
    default = !options.server.isDefined ? "" : yamlencode({
      apiVersion = "v1"
      kind       = "Config"
      clusters = [{
        name = config.clusterName
        cluster = merge(
          { server = config.server },
          config.caData != null ? { "certificate-authority-data" = config.caData } : config.caFile != null ? { "certificate-authority" = config.caFile } : {},
        )
      }]
      users = [{
        name = config.userName
        user = merge(
          config.certData != null ? { "client-certificate-data" = config.certData } : config.certFile != null ? { "client-certificate" = config.certFile } : {},
          config.keyData != null ? { "client-key-data" = config.keyData } : config.keyFile != null ? { "client-key" = config.keyFile } : {},
        )
      }]
      contexts = [{
        name    = config.contextName
        context = { cluster = config.clusterName, user = config.userName }
      }]
      current-context = config.contextName
    })
    description = "The kubeconfig, as YAML (empty while server is not set)."
  }
  option "path" {
    type        = str
    read_only   = true
    default     = "/etc/${config.target}"
    description = "The absolute path of the kubeconfig file, for --kubeconfig."
  }
}

config "environment" {
  etc = {
    for n, k in config.services.kubernetes.kubeconfigs : k.target => {
      text   = k.text
      mode   = k.mode
      origin = "services.kubernetes.kubeconfigs.${n}"
    }
  }
}

config "systemd" {
  services = {
    for n, files in config.services.kubernetes.lib.waitFiles : n => {
      unitConfig = { ConditionPathExists = files }
    } if length(files) > 0
  }
}

# mkCert: a certificate nodegen pki fetch requests from cfssl, and where its files go.
submodule "kubernetesCert" {
  option "name" {
    type         = str
    default      = name
    default_text = "the attribute name"
    description  = "Base name of the certificate's files in services.kubernetes.secretsPath."
  }
  option "CN" {
    type        = str
    description = "Common name of the certificate."
  }
  option "hosts" {
    type        = listOf(str)
    default     = []
    description = "Subject alternative names (host names and addresses)."
  }
  option "fields" {
    type        = attrsOf(str)
    default     = {}
    example     = { O = "system:nodes" }
    description = "Further subject name fields (O, OU, L, ...)."
  }
  option "action" {
    type        = str
    default     = ""
    description = "Shell command run after the certificate, its key or the CA file changed (issued, renewed, or given the owner and mode of its spec); empty runs none."
  }
  option "privateKeyOwner" {
    type        = str
    default     = "kubernetes"
    description = "Owner of the private key file."
  }
  option "caCert" {
    type        = str
    read_only   = true
    default     = "${root.services.kubernetes.secretsPath}/ca.pem"
    description = "The CA certificate that signed it."
  }
  option "cert" {
    type        = str
    read_only   = true
    default     = "${root.services.kubernetes.secretsPath}/${config.name}.pem"
    description = "The certificate file."
  }
  option "key" {
    type        = str
    read_only   = true
    default     = "${root.services.kubernetes.secretsPath}/${config.name}-key.pem"
    description = "The private key file."
  }
}

# The wait loops run curl from services.kubernetes.toolsPackage: from
# Debian's package when that is /usr, and an enabled service runs one.
locals {
  waitScripts = [for n, w in config.services.kubernetes.lib.waitCurl : w.script]
  waitCurlRun = anytrue([
    for n, s in config.systemd.services : s.enable && anytrue([
      for w in local.waitScripts : strcontains(s.preStart, w) || strcontains(s.script, w)
    ])
  ])
}

config "environment" {
  when           = config.services.kubernetes.toolsPackage == "/usr" && local.waitCurlRun
  systemPackages = ["curl"]
}

# mkWaitCurl: wait until a URL answers (the "curl wait loops").
submodule "kubernetesWaitCurl" {
  option "address" {
    type         = str
    default      = root.services.kubernetes.apiserverAddress
    default_text = "services.kubernetes.apiserverAddress"
    description  = "Scheme, host and port to reach."
  }
  option "path" {
    type        = str
    default     = ""
    description = "Path of the URL."
  }
  option "args" {
    type        = str
    default     = "-o /dev/null"
    description = "Further arguments of curl, after the URL (a pipe is allowed)."
  }
  option "cacert" {
    type        = nullOr(str)
    default     = null
    description = "CA certificate to verify the server with."
  }
  option "cert" {
    type        = nullOr(str)
    default     = null
    description = "Client certificate."
  }
  option "key" {
    type        = nullOr(str)
    default     = null
    description = "Client key."
  }
  option "sleep" {
    type        = int
    default     = 2
    description = "Seconds between two attempts."
  }
  option "script" {
    type      = str
    read_only = true
    default = join("", [
      "while ! curl --fail-early -fs",
      config.cacert != null ? " --cacert ${config.cacert}" : "",
      config.cert != null ? " --cert ${config.cert}" : "",
      config.key != null ? " --key ${config.key}" : "",
      " ${config.address}${config.path} ${config.args}; do\n",
      "  sleep ${config.sleep}\n",
      "  echo Waiting to be able to reach ${config.address}${config.path}\n",
      "done\n",
    ])
    description = "The loop, as shell commands."
  }
}
