# The options of a virtual host and of its locations, ported from NixOS's
# services/web-servers/nginx/vhost-options.nix and location-options.nix
# (the submodules of services.nginx.virtualHosts and of each host's
# locations; default.hcl renders them).
#
# Not ported: the ACME options (enableACME, useACMEHost, acmeRoot,
# acmeFallbackHost: the library has no security.acme), basicAuth and
# basicAuthFile, and QUIC/HTTP/3 (quic, http3, http3_hq), which Debian's
# nginx 1.22 does not build.

submodule "nginxListen" {
  option "addr" {
    type        = str
    description = "Listen address."
  }
  option "port" {
    type        = nullOr(port)
    default     = null
    description = "Port number to listen on. If unset and the listen address is not a socket then nginx defaults to 80."
  }
  option "ssl" {
    type        = bool
    default     = false
    description = "Enable SSL."
  }
  option "proxyProtocol" {
    type        = bool
    default     = false
    description = "Enable PROXY protocol."
  }
  option "extraParameters" {
    type        = listOf(str)
    default     = []
    description = "Extra parameters of this listen directive."
    example     = ["backlog=1024", "deferred"]
  }
}

submodule "nginxVirtualHost" {
  option "serverName" {
    type        = nullOr(str)
    default     = null
    description = "Name of this virtual host. Defaults to attribute name in virtualHosts."
    example     = "example.org"
  }
  option "serverAliases" {
    type        = listOf(str)
    default     = []
    example     = ["www.example.org", "example.org"]
    description = "Additional names of virtual hosts served by this virtual host configuration."
  }
  option "listen" {
    type        = listOf(submodule.nginxListen)
    default     = []
    example     = [{ addr = "195.154.1.1", port = 443, ssl = true }, { addr = "192.154.1.1", port = 80 }, { addr = "unix:/var/run/nginx.sock" }]
    description = "Listen addresses and ports for this virtual host. IPv6 addresses must be enclosed in square brackets. Note: this option overrides addSSL and onlySSL. If you only want to set the addresses manually and not the ports, take a look at listenAddresses."
  }
  option "listenAddresses" {
    type        = listOf(str)
    default     = []
    example     = ["127.0.0.1", "[::1]"]
    description = "Listen addresses for this virtual host. Compared to listen this only sets the addresses and the ports are chosen automatically. Note: This option overrides networking.enableIPv6"
  }
  option "addSSL" {
    type        = bool
    default     = false
    description = "Whether to enable HTTPS in addition to plain HTTP. This will set defaults for listen to listen on all interfaces on the respective default ports (80, 443)."
  }
  option "onlySSL" {
    type        = bool
    default     = false
    description = "Whether to enable HTTPS and reject plain HTTP connections. This will set defaults for listen to listen on all interfaces on port 443."
  }
  option "forceSSL" {
    type        = bool
    default     = false
    description = "Whether to add a separate nginx server block that redirects (301) all plain HTTP traffic to HTTPS. This will set defaults for listen to listen on all interfaces on the respective default ports (80, 443), where the non-SSL listens are used for the redirect vhosts."
  }
  option "rejectSSL" {
    type        = bool
    default     = false
    description = "Whether to listen for and reject all HTTPS connections to this vhost. Useful in default server blocks to avoid serving the certificate for another vhost. Uses the ssl_reject_handshake directive available in nginx versions 1.19.4 and above."
  }
  option "kTLS" {
    type        = bool
    default     = false
    description = "Whether to enable kTLS support. Implementing TLS in the kernel (kTLS) improves performance by significantly reducing the need for copying operations between user space and the kernel. Required Nginx version 1.21.4 or later."
  }
  option "sslCertificate" {
    type        = path
    example     = "/var/host.cert"
    description = "Path to server SSL certificate."
  }
  option "sslCertificateKey" {
    type        = path
    example     = "/var/host.key"
    description = "Path to server SSL certificate key."
  }
  option "sslTrustedCertificate" {
    type        = nullOr(path)
    default     = null
    example     = "/etc/ssl/certs/ca-certificates.crt"
    description = "Path to root SSL certificate for stapling and client certificates."
  }
  option "http2" {
    type        = bool
    default     = true
    description = "Whether to enable the HTTP/2 protocol. Note that (as of writing) due to nginx's implementation, to disable HTTP/2 you have to disable it on all vhosts that use a given IP address / port. If there is one server block configured to enable http2, then it is enabled for all server blocks on this IP."
  }
  option "reuseport" {
    type        = bool
    default     = false
    description = "Create an individual listening socket. It is required to specify only once on one of the hosts."
  }
  option "root" {
    type        = nullOr(path)
    default     = null
    example     = "/data/webserver/docs"
    description = "The path of the web root directory."
  }
  option "default" {
    type        = bool
    default     = false
    description = "Makes this vhost the default."
  }
  option "extraConfig" {
    type        = lines
    default     = ""
    description = "These lines go to the end of the vhost verbatim."
  }
  option "globalRedirect" {
    type        = nullOr(str)
    default     = null
    example     = "newserver.example.org"
    description = "If set, all requests for this host are redirected permanently to the given hostname."
  }
  option "locations" {
    type        = attrsOf(submodule.nginxLocation)
    default     = {}
    example     = { "/" = { proxyPass = "http://localhost:3000" } }
    description = "Declarative location config"
  }
}

submodule "nginxLocation" {
  option "proxyPass" {
    type        = nullOr(str)
    default     = null
    example     = "http://www.example.org/"
    description = "Adds proxy_pass directive and sets recommended proxy headers if recommendedProxySettings is enabled."
  }
  option "proxyWebsockets" {
    type        = bool
    default     = false
    example     = true
    description = "Whether to support proxying websocket connections with HTTP/1.1."
  }
  option "index" {
    type        = nullOr(str)
    default     = null
    example     = "index.php index.html"
    description = "Adds index directive."
  }
  option "tryFiles" {
    type        = nullOr(str)
    default     = null
    example     = "$uri =404"
    description = "Adds try_files directive."
  }
  option "root" {
    type        = nullOr(path)
    default     = null
    example     = "/your/root/directory"
    description = "Root directory for requests."
  }
  option "alias" {
    type        = nullOr(path)
    default     = null
    example     = "/your/alias/directory"
    description = "Alias directory for requests."
  }
  option "return" {
    type        = nullOr(str)
    default     = null
    example     = "301 http://example.com$request_uri"
    description = "Adds a return directive, for e.g. redirections."
  }
  option "fastcgiParams" {
    type        = attrsOf(either(str, path))
    default     = {}
    description = "FastCGI parameters to override. Unlike in the Nginx configuration file, overriding only some default parameters won't unset the default values for other parameters."
  }
  option "extraConfig" {
    type        = lines
    default     = ""
    description = "These lines go to the end of the location verbatim."
  }
  option "priority" {
    type        = int
    default     = 1000
    description = "Order of this location block in relation to the others in the vhost. The semantics are the same as with lib.mkOrder. Smaller values have a greater priority."
  }
  option "recommendedProxySettings" {
    type         = bool
    default      = root.services.nginx.recommendedProxySettings
    default_text = "config.services.nginx.recommendedProxySettings"
    description  = "Enable recommended proxy settings."
  }
}
