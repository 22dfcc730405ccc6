# services.cfssl: CloudFlare's PKI API server, the CA of easyCerts. A port
# of the behaviour of nixpkgs' nixos/modules/services/security/cfssl.nix
# (early 2019).

locals {
  cfssl = config.services.cfssl
  # -name="value" when value is set, as NixOS writes them.
  cfsslOpts = [for o in [
    ["address", local.cfssl.address],
    ["port", "${local.cfssl.port}"],
    ["ca", local.cfssl.ca],
    ["ca-key", local.cfssl.caKey],
    ["ca-bundle", local.cfssl.caBundle],
    ["int-bundle", local.cfssl.intBundle],
    ["int-dir", local.cfssl.intDir],
    ["metadata", local.cfssl.metadata],
    ["remote", local.cfssl.remote],
    ["config", local.cfssl.configFile],
    ["responder", local.cfssl.responder],
    ["responder-key", local.cfssl.responderKey],
    ["tls-key", local.cfssl.tlsKey],
    ["tls-cert", local.cfssl.tlsCert],
    ["mutual-tls-ca", local.cfssl.mutualTlsCa],
    ["mutual-tls-cn", local.cfssl.mutualTlsCn],
    ["mutual-tls-client-key", local.cfssl.mutualTlsClientKey],
    ["mutual-tls-client-cert", local.cfssl.mutualTlsClientCert],
    ["tls-remote-ca", local.cfssl.tlsRemoteCa],
    ["db-config", local.cfssl.dbConfig],
    ["loglevel", "${local.cfssl.logLevel}"],
  ] : "-${o[0]}=\"${o[1]}\"" if o[1] != null]
}

options "services.cfssl" {
  option "enable" {
    type        = bool
    default     = false
    example     = true
    description = "Whether to enable the CFSSL CA api-server."
  }
  option "package" {
    type        = package
    default     = "/usr"
    description = "The cfssl package: bin/cfssl and bin/cfssljson."
  }
  option "dataDir" {
    type        = path
    default     = "/var/lib/cfssl"
    description = "Cfssl work directory."
  }
  option "address" {
    type        = str
    default     = "127.0.0.1"
    description = "Address to bind."
  }
  option "port" {
    type        = port
    default     = 8888
    description = "Port to bind."
  }
  option "ca" {
    type         = str
    default      = "${config.services.cfssl.dataDir}/ca.pem"
    default_text = "dataDir + \"/ca.pem\""
    description  = "CA used to sign the new certificate: a file name. (Newer cfssl also accepts 'file:fname' and 'env:varname'; Debian's cfssl 1.2.0 reads a plain file name only.)"
  }
  option "caKey" {
    type         = str
    default      = "${config.services.cfssl.dataDir}/ca-key.pem"
    default_text = "dataDir + \"/ca-key.pem\""
    description  = <<-EOT
      CA private key: a file name. (NixOS's default is "file:" + dataDir +
      "/ca-key.pem", which newer cfssl reads; Debian's cfssl 1.2.0 takes
      "file:..." for a file name, finds no key, and serves without its
      signing endpoints.)
    EOT
  }
  option "caBundle" {
    type        = nullOr(path)
    default     = null
    description = "Path to root certificate store."
  }
  option "intBundle" {
    type        = nullOr(path)
    default     = null
    description = "Path to intermediate certificate store."
  }
  option "intDir" {
    type        = nullOr(path)
    default     = null
    description = "Intermediates directory."
  }
  option "metadata" {
    type        = nullOr(path)
    default     = null
    description = <<-EOT
      Metadata file for root certificate presence.
      The content of the file is a json dictionary (k,v): each key k is
      a SHA-1 digest of a root certificate while value v is a list of key
      store filenames.
    EOT
  }
  option "remote" {
    type        = nullOr(str)
    default     = null
    description = "Remote CFSSL server."
  }
  option "configFile" {
    type        = nullOr(str)
    default     = null
    description = "Path to configuration file. Do not put this in the profile if it contains secrets."
  }
  option "responder" {
    type        = nullOr(path)
    default     = null
    description = "Certificate for OCSP responder."
  }
  option "responderKey" {
    type        = nullOr(str)
    default     = null
    description = "Private key for OCSP responder certificate. Do not put this in the profile."
  }
  option "tlsKey" {
    type        = nullOr(str)
    default     = null
    description = "Other endpoint's CA private key. Do not put this in the profile."
  }
  option "tlsCert" {
    type        = nullOr(path)
    default     = null
    description = "Other endpoint's CA to set up TLS protocol."
  }
  option "mutualTlsCa" {
    type        = nullOr(path)
    default     = null
    description = "Mutual TLS - require clients be signed by this CA."
  }
  option "mutualTlsCn" {
    type        = nullOr(str)
    default     = null
    description = "Mutual TLS - regex for whitelist of allowed client CNs."
  }
  option "tlsRemoteCa" {
    type        = nullOr(path)
    default     = null
    description = "CAs to trust for remote TLS requests."
  }
  option "mutualTlsClientCert" {
    type        = nullOr(path)
    default     = null
    description = "Mutual TLS - client certificate to call remote instance requiring client certs."
  }
  option "mutualTlsClientKey" {
    type        = nullOr(path)
    default     = null
    description = "Mutual TLS - client key to call remote instance requiring client certs. Do not put this in the profile."
  }
  option "dbConfig" {
    type        = nullOr(path)
    default     = null
    description = "Certificate db configuration file. Path must be writeable."
  }
  option "logLevel" {
    type        = enum([0, 1, 2, 3, 4, 5])
    default     = 1
    description = "Log level (0 = DEBUG, 5 = FATAL)."
  }
}

config "systemd.services.cfssl" {
  when        = local.cfssl.enable
  description = "CFSSL CA API server"
  wantedBy    = ["multi-user.target"]
  after       = ["network.target"]
  serviceConfig = {
    WorkingDirectory = local.cfssl.dataDir
    StateDirectory   = mkIf(local.cfssl.dataDir == "/var/lib/cfssl", "cfssl")
    Restart          = "always"
    User             = "cfssl"
    Group            = "cfssl"
    ExecStart        = join(" ", concat(["${local.cfssl.package}/bin/cfssl serve"], local.cfsslOpts))
  }
  provides = { urls = ["${local.cfssl.tlsCert != null ? "https" : "http"}://${local.cfssl.address}:${local.cfssl.port}"] }
}

config "environment.etc.\"sysusers.d/cfssl.conf\"" {
  when   = local.cfssl.enable
  origin = "services.cfssl"
  text   = "u cfssl - \"cfssl user\" ${local.cfssl.dataDir}\n"
}

# The cfssl tools: Debian's golang-cfssl package, when they are run from
# /usr. (Only the CA runs them: the other hosts of easyCerts fetch their
# certificates with nodegen itself.)
config "environment.packages.golang-cfssl" {
  when     = local.cfssl.package == "/usr" && local.cfssl.enable
  provides = ["/usr/bin/cfssl", "/usr/bin/cfssljson", "/usr/bin/mkbundle", "/usr/bin/multirootca"]
}
