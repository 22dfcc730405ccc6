# The nginx web server, ported from NixOS's
# services/web-servers/nginx/default.nix to Debian's nginx (/usr/sbin/nginx,
# nginx 1.22 on bookworm). The options of a virtual host and of a location
# are in vhost-options.hcl.
#
# NixOS writes nginx.conf to the store and points nginx at it, or at
# /etc/nginx/nginx.conf with enableReload; nodegen has no store, so the
# file is always /etc/nginx/nginx.conf (replacing Debian's): without
# enableReload a change restarts nginx (restartTriggers), with it
# nginx-config-reload reloads it, as in NixOS.
#
# Debian's nginx keeps its temporary files in /var/lib/nginx, which
# ProtectSystem=strict makes read-only; NixOS's nginx is built with them in
# /var/cache/nginx (CacheDirectory), and the http block here names those
# paths.
#
# Not ported: ACME (no security.acme in the library), basic auth,
# package and additionalModules (Debian's nginx is the package; its
# dynamic modules are loaded by appendConfig's load_module or config),
# QUIC, and logrotate (Debian's nginx package ships /etc/logrotate.d/nginx).

locals {
  nginx    = config.services.nginx
  nginxBin = "/usr/sbin/nginx"
  # NixOS's execCommand, with configPath always /etc/nginx/nginx.conf.
  nginxExec = "${local.nginxBin} -c '/etc/nginx/nginx.conf'"
  # NixOS's recommendedProxyConfig, a file of its own (pkgs.writeText).
  nginxProxyHeaders = "/etc/nginx/nginx-recommended-proxy-headers.conf"

  # Mime.types values are taken from brotli sample configuration - https://github.com/google/ngx_brotli
  # and Nginx Server Configs - https://github.com/h5bp/server-configs-nginx
  # "text/html" is implicitly included in {brotli,gzip,zstd}_types
  nginxCompressMimeTypes = [
    "application/atom+xml",
    "application/geo+json",
    "application/json",
    "application/ld+json",
    "application/manifest+json",
    "application/rdf+xml",
    "application/vnd.ms-fontobject",
    "application/wasm",
    "application/x-rss+xml",
    "application/x-web-app-manifest+json",
    "application/xhtml+xml",
    "application/xliff+xml",
    "application/xml",
    "font/collection",
    "font/otf",
    "font/ttf",
    "image/bmp",
    "image/svg+xml",
    "image/vnd.microsoft.icon",
    "text/cache-manifest",
    "text/calendar",
    "text/css",
    "text/csv",
    "text/javascript",
    "text/markdown",
    "text/plain",
    "text/vcard",
    "text/vnd.rim.location.xloc",
    "text/vtt",
    "text/x-component",
    "text/xml",
  ]

  nginxDefaultFastcgiParams = {
    SCRIPT_FILENAME = "$document_root$fastcgi_script_name"
    QUERY_STRING    = "$query_string"
    REQUEST_METHOD  = "$request_method"
    CONTENT_TYPE    = "$content_type"
    CONTENT_LENGTH  = "$content_length"

    SCRIPT_NAME     = "$fastcgi_script_name"
    REQUEST_URI     = "$request_uri"
    DOCUMENT_URI    = "$document_uri"
    DOCUMENT_ROOT   = "$document_root"
    SERVER_PROTOCOL = "$server_protocol"
    REQUEST_SCHEME  = "$scheme"
    HTTPS           = "$https if_not_empty"

    GATEWAY_INTERFACE = "CGI/1.1"
    SERVER_SOFTWARE   = "nginx/$nginx_version"

    REMOTE_ADDR = "$remote_addr"
    REMOTE_PORT = "$remote_port"
    SERVER_ADDR = "$server_addr"
    SERVER_PORT = "$server_port"
    SERVER_NAME = "$server_name"

    REDIRECT_STATUS = "200"
  }
}

submodule "nginxDefaultListen" {
  option "addr" {
    type        = str
    description = "IP address."
  }
  option "port" {
    type        = nullOr(port)
    default     = null
    description = "Port number."
  }
  option "ssl" {
    type        = nullOr(bool)
    default     = null
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
    example     = ["backlog=1024", "deferred"]
    description = "Extra parameters of this listen directive."
  }
}

submodule "nginxProxyCachePath" {
  option "enable" {
    type        = bool
    default     = false
    description = "Whether to enable this proxy cache path entry."
  }
  option "keysZoneName" {
    type        = str
    default     = "cache"
    example     = "my_cache"
    description = "Set name to shared memory zone."
  }
  option "keysZoneSize" {
    type        = str
    default     = "10m"
    example     = "32m"
    description = "Set size to shared memory zone."
  }
  option "levels" {
    type        = str
    default     = "1:2"
    example     = "1:2:2"
    description = "The levels parameter defines structure of subdirectories in cache: from 1 to 3, each level accepts values 1 or 2. Can be used any combination of 1 and 2 in these formats: x, x:x and x:x:x."
  }
  option "useTempPath" {
    type        = bool
    default     = false
    example     = true
    description = "Nginx first writes files that are destined for the cache to a temporary storage area, and the use_temp_path=off directive instructs Nginx to write them to the same directories where they will be cached. Recommended that you set this parameter to off to avoid unnecessary copying of data between file systems."
  }
  option "inactive" {
    type        = str
    default     = "10m"
    example     = "1d"
    description = "Cached data that has not been accessed for the time specified by the inactive parameter is removed from the cache, regardless of its freshness."
  }
  option "maxSize" {
    type        = str
    default     = "1g"
    example     = "2048m"
    description = "Set maximum cache size"
  }
}

submodule "nginxResolver" {
  option "addresses" {
    type        = listOf(str)
    default     = []
    example     = ["[::1]", "127.0.0.1:5353"]
    description = "List of resolvers to use"
  }
  option "valid" {
    type        = str
    default     = ""
    example     = "30s"
    description = "By default, nginx caches answers using the TTL value of a response. An optional valid parameter allows overriding it"
  }
  option "ipv6" {
    type        = bool
    default     = true
    description = "By default, nginx will look up both IPv4 and IPv6 addresses while resolving. If looking up of IPv6 addresses is not desired, the ipv6=off parameter can be specified."
  }
}

submodule "nginxUpstreamServer" {
  freeform = attrsOf(oneOf([bool, int, str]))
  option "backup" {
    type        = bool
    default     = false
    description = "Marks the server as a backup server. It will be passed requests when the primary servers are unavailable."
  }
}

submodule "nginxUpstream" {
  option "servers" {
    type        = attrsOf(submodule.nginxUpstreamServer)
    default     = {}
    description = "Defines the address and other parameters of the upstream servers. See the documentation (https://nginx.org/en/docs/http/ngx_http_upstream_module.html#server) for the available parameters."
  }
  option "extraConfig" {
    type        = lines
    default     = ""
    description = "These lines go to the end of the upstream verbatim."
  }
}

options "services.nginx" {
  option "enable" {
    type        = bool
    default     = false
    description = "Whether to enable Nginx Web Server."
  }
  option "statusPage" {
    type        = bool
    default     = false
    description = "Enable status page reachable from localhost on http://127.0.0.1/nginx_status."
  }
  option "recommendedTlsSettings" {
    type        = bool
    default     = false
    description = "Enable recommended TLS settings."
  }
  option "recommendedOptimisation" {
    type        = bool
    default     = false
    description = "Enable recommended optimisation settings."
  }
  option "recommendedBrotliSettings" {
    type        = bool
    default     = false
    description = "Enable recommended brotli settings. Learn more about compression in Brotli format at https://github.com/google/ngx_brotli/. Debian's nginx needs the brotli module (libnginx-mod-http-brotli-filter) loaded for these directives."
  }
  option "recommendedGzipSettings" {
    type        = bool
    default     = false
    description = "Enable recommended gzip settings. Learn more about compression in Gzip format at https://docs.nginx.com/nginx/admin-guide/web-server/compression/."
  }
  option "recommendedZstdSettings" {
    type        = bool
    default     = false
    description = "Enable recommended zstd settings. Learn more about compression in Zstd format at https://github.com/tokers/zstd-nginx-module. Debian's nginx needs a zstd module loaded for these directives."
  }
  option "recommendedProxySettings" {
    type        = bool
    default     = false
    description = "Whether to enable recommended proxy settings if a vhost does not specify the option manually."
  }
  option "proxyTimeout" {
    type        = str
    default     = "60s"
    example     = "20s"
    description = "Change the proxy related timeouts in recommendedProxySettings."
  }
  option "defaultListen" {
    type        = listOf(submodule.nginxDefaultListen)
    default     = []
    example     = [{ addr = "10.0.0.12", proxyProtocol = true, ssl = true }, { addr = "0.0.0.0" }, { addr = "[::0]" }]
    description = "If vhosts do not specify listen, use these addresses by default. This option takes precedence over defaultListenAddresses and other listen-related defaults options."
  }
  option "defaultListenAddresses" {
    type         = listOf(str)
    default      = concat(["0.0.0.0"], config.networking.enableIPv6 ? ["[::0]"] : [])
    default_text = "[\"0.0.0.0\"] ++ lib.optional config.networking.enableIPv6 \"[::0]\""
    example      = ["10.0.0.12", "[2002:a00:1::]"]
    description  = "If vhosts do not specify listenAddresses, use these addresses by default. This is akin to writing defaultListen = [ { addr = \"0.0.0.0\" } ]."
  }
  option "defaultHTTPListenPort" {
    type        = port
    default     = 80
    example     = 8080
    description = "If vhosts do not specify listen.port, use these ports for HTTP by default."
  }
  option "defaultSSLListenPort" {
    type        = port
    default     = 443
    example     = 8443
    description = "If vhosts do not specify listen.port, use these ports for SSL by default."
  }
  option "defaultMimeTypes" {
    type        = path
    default     = "/etc/nginx/mime.types"
    description = "Default MIME types for NGINX. NixOS uses the ones of the mailcap package; the default here is Debian's (nginx-common's /etc/nginx/mime.types)."
  }
  option "logError" {
    type        = str
    default     = "stderr"
    description = "Configures logging. The first parameter defines a file that will store the log. The special value stderr selects the standard error file. Logging to syslog can be configured by specifying the \"syslog:\" prefix. The second parameter determines the level of logging, and can be one of the following: debug, info, notice, warn, error, crit, alert, or emerg. Log levels above are listed in the order of increasing severity. Setting a certain log level will cause all messages of the specified and more severe log levels to be logged. If this parameter is omitted then error is used."
  }
  option "preStart" {
    type        = lines
    default     = ""
    description = "Shell commands executed before the service's nginx is started."
  }
  option "config" {
    type        = str
    default     = ""
    description = "Verbatim nginx.conf configuration. This is mutually exclusive to any other config option for nginx.conf except for appendConfig, httpConfig and logError. If additional verbatim config in addition to other options is needed, appendConfig should be used instead."
  }
  option "appendConfig" {
    type        = lines
    default     = ""
    description = "Configuration lines appended to the generated Nginx configuration file. Commonly used by different modules providing http snippets. appendConfig can be specified more than once and its value will be concatenated (contrary to config which can be set only once)."
  }
  option "commonHttpConfig" {
    type        = lines
    default     = ""
    example     = "resolver 127.0.0.1 valid=5s;\n\nlog_format myformat '$remote_addr - $remote_user [$time_local] '\n                    '\"$request\" $status $body_bytes_sent '\n                    '\"$http_referer\" \"$http_user_agent\"';\n"
    description = "With nginx you must provide common http context definitions before they are used, e.g. log_format, resolver, etc. inside of server or location contexts. Use this attribute to set these definitions at the appropriate location."
  }
  option "commonServerConfig" {
    type        = lines
    default     = ""
    description = "Use this setting to add a common configuration snippet to every server block defined in nix options."
  }
  option "httpConfig" {
    type        = lines
    default     = ""
    description = "Configuration lines to be set inside the http block. This is mutually exclusive with the structured configuration via virtualHosts and the recommendedXyzSettings configuration options. See appendHttpConfig for appending to the generated http block."
  }
  option "streamConfig" {
    type        = lines
    default     = ""
    example     = "server {\n  listen 127.0.0.1:53 udp reuseport;\n  proxy_timeout 20s;\n  proxy_pass 192.168.0.1:53535;\n}\n"
    description = "Configuration lines to be set inside the stream block."
  }
  option "eventsConfig" {
    type        = lines
    default     = ""
    description = "Configuration lines to be set inside the events block."
  }
  option "appendHttpConfig" {
    type        = lines
    default     = ""
    description = "Configuration lines to be appended to the generated http block. This is mutually exclusive with using config and httpConfig for specifying the whole http block verbatim."
  }
  option "enableReload" {
    type        = bool
    default     = false
    description = "Reload nginx when configuration file changes (instead of restart). The configuration file is /etc/nginx/nginx.conf. See also systemd.services.*.restartIfChanged."
  }
  option "user" {
    type        = str
    default     = "nginx"
    description = "User account under which nginx runs."
  }
  option "group" {
    type        = str
    default     = "nginx"
    description = "Group account under which nginx runs."
  }
  option "serverTokens" {
    type        = bool
    default     = false
    description = "Show nginx version in headers and error pages."
  }
  option "clientMaxBodySize" {
    type        = str
    default     = "10m"
    description = "Set nginx global client_max_body_size."
  }
  option "sslCiphers" {
    type = nullOr(str)
    # Keep in sync with https://ssl-config.mozilla.org/#server=nginx&config=intermediate
    default     = "ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-RSA-AES128-GCM-SHA256:ECDHE-ECDSA-AES256-GCM-SHA384:ECDHE-RSA-AES256-GCM-SHA384:ECDHE-ECDSA-CHACHA20-POLY1305:ECDHE-RSA-CHACHA20-POLY1305:DHE-RSA-AES128-GCM-SHA256:DHE-RSA-AES256-GCM-SHA384"
    description = "Ciphers to choose from when negotiating TLS handshakes."
  }
  option "sslProtocols" {
    type        = str
    default     = "TLSv1.2 TLSv1.3"
    example     = "TLSv1 TLSv1.1 TLSv1.2 TLSv1.3"
    description = "Allowed TLS protocol versions."
  }
  option "sslDhparam" {
    type        = nullOr(path)
    default     = null
    example     = "/path/to/dhparams.pem"
    description = "Path to DH parameters file."
  }
  option "proxyResolveWhileRunning" {
    type        = bool
    default     = false
    description = "Resolves domains of proxyPass targets at runtime and not only at start, you have to set services.nginx.resolver, too."
  }
  option "mapHashBucketSize" {
    type        = nullOr(enum([32, 64, 128]))
    default     = null
    description = "Sets the bucket size for the map variables hash tables. Default value depends on the processor's cache line size."
  }
  option "mapHashMaxSize" {
    type        = nullOr(ints.positive)
    default     = null
    description = "Sets the maximum size of the map variables hash tables."
  }
  option "serverNamesHashBucketSize" {
    type        = nullOr(ints.positive)
    default     = null
    description = "Sets the bucket size for the server names hash tables. Default value depends on the processor's cache line size."
  }
  option "serverNamesHashMaxSize" {
    type        = nullOr(ints.positive)
    default     = null
    description = "Sets the maximum size of the server names hash tables."
  }
  option "proxyCachePath" {
    type        = attrsOf(submodule.nginxProxyCachePath)
    default     = {}
    description = "Configure a proxy cache path entry. See http://nginx.org/en/docs/http/ngx_http_proxy_module.html#proxy_cache_path for documentation."
  }
  option "resolver" {
    type        = submodule.nginxResolver
    default     = {}
    description = "Configures name servers used to resolve names of upstream servers into addresses"
  }
  option "upstreams" {
    type        = attrsOf(submodule.nginxUpstream)
    default     = {}
    description = "Defines a group of servers to use as proxy target."
    example = {
      backend = {
        servers = {
          "backend1.example.com:8080" = { weight = 5 }
          "backend2.example.com"      = { max_fails = 3, fail_timeout = "30s" }
          "backend3.example.com"      = {}
          "backup1.example.com"       = { backup = true }
          "backup2.example.com"       = { backup = true }
        }
        extraConfig = "keepalive 16;\n"
      }
      memcached = {
        servers = { "unix:/run//memcached/memcached.sock" = {} }
      }
    }
  }
  option "virtualHosts" {
    type        = attrsOf(submodule.nginxVirtualHost)
    default     = { localhost = {} }
    example     = { "hydra.example.com" = { forceSSL = true, locations = { "/" = { proxyPass = "http://localhost:3000" } } } }
    description = "Declarative vhost config"
  }
}

renamed_option "services.nginx.proxyCache.inactive" { to = "services.nginx.proxyCachePath.\"\".inactive" }
renamed_option "services.nginx.proxyCache.useTempPath" { to = "services.nginx.proxyCachePath.\"\".useTempPath" }
renamed_option "services.nginx.proxyCache.levels" { to = "services.nginx.proxyCachePath.\"\".levels" }
renamed_option "services.nginx.proxyCache.keysZoneSize" { to = "services.nginx.proxyCachePath.\"\".keysZoneSize" }
renamed_option "services.nginx.proxyCache.keysZoneName" { to = "services.nginx.proxyCachePath.\"\".keysZoneName" }
renamed_option "services.nginx.proxyCache.enable" { to = "services.nginx.proxyCachePath.\"\".enable" }
removed_option "services.nginx.stateDir" {
  message = "The Nginx log directory has been moved to /var/log/nginx, the cache directory to /var/cache/nginx. The option services.nginx.stateDir has been removed."
}

locals {
  # Each virtual host's server name (NixOS's virtualHosts, with serverName
  # defaulting to the attribute name).
  nginxServerNames = { for n, v in local.nginx.virtualHosts : n => v.serverName != null ? v.serverName : n }

  # NixOS's defaultListen of each host: its listen, or the default listens
  # (mkDefaultListenVhost) of defaultListen or of the listen addresses, with
  # an SSL variant where the host has SSL and a plain one unless onlySSL.
  nginxDefaultListen = {
    for n, v in local.nginx.virtualHosts : n => length(v.listen) > 0 ? [
      for l in v.listen : { addr = l.addr, port = l.port, ssl = l.ssl, proxyProtocol = l.proxyProtocol, extraParameters = l.extraParameters }
    ] : concat(
      v.onlySSL || v.addSSL || v.forceSSL || v.rejectSSL ? [
        for l in local.nginxListenLines[n] : merge(l, { port = coalesce(l.port, local.nginx.defaultSSLListenPort), ssl = true }) if l.ssl != false
      ] : [],
      !v.onlySSL ? [
        for l in local.nginxListenLines[n] : merge(l, { port = coalesce(l.port, local.nginx.defaultHTTPListenPort), ssl = false }) if l.ssl != true
      ] : [],
    )
  }
  # The lines mkDefaultListenVhost reads: defaultListen, or the host's
  # listenAddresses, or defaultListenAddresses.
  nginxListenLines = {
    for n, v in local.nginx.virtualHosts : n => length(local.nginx.defaultListen) > 0 ? [
      for l in local.nginx.defaultListen : { addr = l.addr, port = l.port, ssl = l.ssl, proxyProtocol = l.proxyProtocol, extraParameters = l.extraParameters }
    ] : [
      for a in (length(v.listenAddresses) > 0 ? v.listenAddresses : local.nginx.defaultListenAddresses) : { addr = a, port = null, ssl = null, proxyProtocol = false, extraParameters = [] }
    ]
  }
  # NixOS's listenString of each of a host's listens, with its ssl.
  nginxListenStrings = {
    for n, v in local.nginx.virtualHosts : n => [
      for l in local.nginxDefaultListen[n] : {
        ssl = l.ssl
        text = "${join(" ", concat(
          ["listen", l.port == null ? l.addr : "${l.addr}:${l.port}"],
          l.ssl && v.http2 ? ["http2"] : [],
          l.ssl ? ["ssl"] : [],
          v.default ? ["default_server"] : [],
          v.reuseport ? ["reuseport"] : [],
          l.proxyProtocol ? ["proxy_protocol"] : [],
          l.extraParameters,
        ))};"
      }
    ]
  }

  # Each host's locations in NixOS's order (sortProperties: by priority,
  # then by name, the order of the attribute set).
  nginxLocationOrder = {
    for n, v in local.nginx.virtualHosts : n => [
      for l in sortOn([for ln, l in v.locations : { name = ln, priority = l.priority }], fn.nginxLocationKey) : l.name
    ]
  }

  # NixOS's mkLocations: a host's location blocks.
  nginxLocations = {
    for n, v in local.nginx.virtualHosts : n => join("\n", [
      for ln in local.nginxLocationOrder[n] : <<-EOT
        location ${ln} {
          %{~if v.locations[ln].proxyPass != null && !local.nginx.proxyResolveWhileRunning}
          proxy_pass ${v.locations[ln].proxyPass};
          %{~endif}
          %{~if v.locations[ln].proxyPass != null && local.nginx.proxyResolveWhileRunning}
          set $nix_proxy_target "${v.locations[ln].proxyPass}";
          proxy_pass $nix_proxy_target;
          %{~endif}
          %{~if v.locations[ln].proxyWebsockets}
          proxy_http_version 1.1;
          proxy_set_header Upgrade $http_upgrade;
          proxy_set_header Connection $connection_upgrade;
          %{~endif}
          ${join("\n", [for k, p in (length(v.locations[ln].fastcgiParams) > 0 ? merge(local.nginxDefaultFastcgiParams, v.locations[ln].fastcgiParams) : {}) : "fastcgi_param ${k} \"${p}\";"])}
          ${v.locations[ln].index != null ? "index ${v.locations[ln].index};" : ""}
          ${v.locations[ln].tryFiles != null ? "try_files ${v.locations[ln].tryFiles};" : ""}
          ${v.locations[ln].root != null ? "root ${v.locations[ln].root};" : ""}
          ${v.locations[ln].alias != null ? "alias ${v.locations[ln].alias};" : ""}
          ${v.locations[ln].return != null ? "return ${v.locations[ln].return};" : ""}
          ${v.locations[ln].extraConfig}
          ${v.locations[ln].proxyPass != null && v.locations[ln].recommendedProxySettings ? "include ${local.nginxProxyHeaders};" : ""}
        }
      EOT
    ])
  }

  # NixOS's vhosts: a host's server blocks, with the redirecting one
  # before it under forceSSL.
  nginxVhosts = join("\n", [
    for n, v in local.nginx.virtualHosts : <<-EOT
      %{~if v.forceSSL}
      server {
        ${join("\n", [for l in local.nginxListenStrings[n] : l.text if !l.ssl])}
        server_name ${join(" ", concat([local.nginxServerNames[n]], v.serverAliases))};
        location / {
          return 301 https://$host$request_uri;
        }
      }
      %{~endif}
      server {
        ${join("\n", [for l in local.nginxListenStrings[n] : l.text if !v.forceSSL || l.ssl])}
        server_name ${join(" ", concat([local.nginxServerNames[n]], v.serverAliases))};
        ${local.nginx.commonServerConfig}
        ${v.root != null ? "root ${v.root};" : ""}
        %{~if v.globalRedirect != null}
        location / {
          return 301 http${v.onlySSL || v.addSSL || v.forceSSL ? "s" : ""}://${v.globalRedirect}$request_uri;
        }
        %{~endif}
        %{~if v.onlySSL || v.addSSL || v.forceSSL}
        ssl_certificate ${v.sslCertificate};
        ssl_certificate_key ${v.sslCertificateKey};
        %{~endif}
        ${(v.onlySSL || v.addSSL || v.forceSSL) && v.sslTrustedCertificate != null ? "ssl_trusted_certificate ${v.sslTrustedCertificate};" : ""}
        ${v.rejectSSL ? "ssl_reject_handshake on;" : ""}
        ${(v.onlySSL || v.addSSL || v.forceSSL) && v.kTLS ? "ssl_conf_command Options KTLS;" : ""}
        ${local.nginxLocations[n]}
        ${v.extraConfig}
      }
    EOT
  ])

  # NixOS's toUpstreamParameter and upstreamConfig.
  nginxUpstreams = join("\n", [
    for n, u in local.nginx.upstreams : <<-EOT
      upstream ${n} {
        ${join("\n", [for s, p in u.servers : "server ${join(" ", concat([s], compact([for k, x in p : x == true ? k : x == false ? "" : "${k}=${x}"])))};"])}
        ${u.extraConfig}
      }
    EOT
  ])

  nginxProxyCachePaths = join("\n", [
    for n, c in local.nginx.proxyCachePath : "proxy_cache_path ${join(" ", [
      "/var/cache/nginx/${n}",
      "keys_zone=${c.keysZoneName}:${c.keysZoneSize}",
      "levels=${c.levels}",
      "use_temp_path=${c.useTempPath ? "on" : "off"}",
      "inactive=${c.inactive}",
      "max_size=${c.maxSize}",
    ])};" if c.enable
  ])

  # NixOS's commonHttpConfig (the internal one), with Debian's paths, and
  # the temporary paths that NixOS's nginx is built with.
  nginxCommonHttpConfig = <<-EOT
    # Load mime types.
    include ${local.nginx.defaultMimeTypes};
    # When recommendedOptimisation is disabled nginx fails to start because the mailmap mime.types database
    # contains 1026 entries and the default is only 1024. Setting to a higher number to remove the need to
    # overwrite it because nginx does not allow duplicated settings.
    types_hash_max_size 4096;

    include /etc/nginx/fastcgi.conf;
    include /etc/nginx/uwsgi_params;

    default_type application/octet-stream;

    # Debian's nginx keeps these in /var/lib/nginx, read-only to the unit.
    client_body_temp_path /var/cache/nginx/client_body;
    proxy_temp_path /var/cache/nginx/proxy;
    fastcgi_temp_path /var/cache/nginx/fastcgi;
    uwsgi_temp_path /var/cache/nginx/uwsgi;
    scgi_temp_path /var/cache/nginx/scgi;
  EOT

  # NixOS's configFile before writeNginxConfig formats it.
  nginxConfigText = <<-EOT
    pid /run/nginx/nginx.pid;
    error_log ${local.nginx.logError};
    daemon off;

    ${local.nginx.config}

    %{~if local.nginx.eventsConfig != "" || local.nginx.config == ""}
    events {
      ${local.nginx.eventsConfig}
    }
    %{~endif}

    %{~if local.nginx.httpConfig == "" && local.nginx.config == ""}
    http {
      ${local.nginxCommonHttpConfig}

      %{~if length(local.nginx.resolver.addresses) > 0}
      resolver ${join(" ", local.nginx.resolver.addresses)} ${local.nginx.resolver.valid != "" ? "valid=${local.nginx.resolver.valid}" : ""} ${!local.nginx.resolver.ipv6 ? "ipv6=off" : ""};
      %{~endif}
      ${local.nginxUpstreams}

      %{~if local.nginx.recommendedOptimisation}
      # optimisation
      sendfile on;
      tcp_nopush on;
      tcp_nodelay on;
      keepalive_timeout 65;
      %{~endif}

      ssl_protocols ${local.nginx.sslProtocols};
      ${local.nginx.sslCiphers != null ? "ssl_ciphers ${local.nginx.sslCiphers};" : ""}
      ${local.nginx.sslDhparam != null ? "ssl_dhparam ${local.nginx.sslDhparam};" : ""}

      %{~if local.nginx.recommendedTlsSettings}
      # Keep in sync with https://ssl-config.mozilla.org/#server=nginx&config=intermediate

      ssl_session_timeout 1d;
      ssl_session_cache shared:SSL:10m;
      # Breaks forward secrecy: https://github.com/mozilla/server-side-tls/issues/135
      ssl_session_tickets off;
      # We don't enable insecure ciphers by default, so this allows
      # clients to pick the most performant, per https://github.com/mozilla/server-side-tls/issues/260
      ssl_prefer_server_ciphers off;

      # OCSP stapling
      ssl_stapling on;
      ssl_stapling_verify on;
      %{~endif}

      %{~if local.nginx.recommendedBrotliSettings}
      brotli on;
      brotli_static on;
      brotli_comp_level 5;
      brotli_window 512k;
      brotli_min_length 256;
      brotli_types ${join(" ", local.nginxCompressMimeTypes)};
      %{~endif}

      %{~if local.nginx.recommendedGzipSettings}
      gzip on;
      gzip_static on;
      gzip_vary on;
      gzip_comp_level 5;
      gzip_min_length 256;
      gzip_proxied expired no-cache no-store private auth;
      gzip_types ${join(" ", local.nginxCompressMimeTypes)};
      %{~endif}

      %{~if local.nginx.recommendedZstdSettings}
      zstd on;
      zstd_comp_level 9;
      zstd_min_length 256;
      zstd_static on;
      zstd_types ${join(" ", local.nginxCompressMimeTypes)};
      %{~endif}

      %{~if local.nginx.recommendedProxySettings}
      proxy_redirect          off;
      proxy_connect_timeout   ${local.nginx.proxyTimeout};
      proxy_send_timeout      ${local.nginx.proxyTimeout};
      proxy_read_timeout      ${local.nginx.proxyTimeout};
      proxy_http_version      1.1;
      # don't let clients close the keep-alive connection to upstream. See the nginx blog for details:
      # https://www.nginx.com/blog/avoiding-top-10-nginx-configuration-mistakes/#no-keepalives
      proxy_set_header        "Connection" "";
      include ${local.nginxProxyHeaders};
      %{~endif}

      ${local.nginx.mapHashBucketSize != null ? "map_hash_bucket_size ${local.nginx.mapHashBucketSize};" : ""}
      ${local.nginx.mapHashMaxSize != null ? "map_hash_max_size ${local.nginx.mapHashMaxSize};" : ""}
      ${local.nginx.serverNamesHashBucketSize != null ? "server_names_hash_bucket_size ${local.nginx.serverNamesHashBucketSize};" : ""}
      ${local.nginx.serverNamesHashMaxSize != null ? "server_names_hash_max_size ${local.nginx.serverNamesHashMaxSize};" : ""}

      # $connection_upgrade is used for websocket proxying
      map $http_upgrade $connection_upgrade {
          default upgrade;
          ''      close;
      }
      client_max_body_size ${local.nginx.clientMaxBodySize};

      server_tokens ${local.nginx.serverTokens ? "on" : "off"};

      ${local.nginx.commonHttpConfig}

      ${local.nginxProxyCachePaths}

      %{~if local.nginx.statusPage}
      server {
        listen ${local.nginx.defaultHTTPListenPort};
        ${config.networking.enableIPv6 ? "listen [::]:${local.nginx.defaultHTTPListenPort};" : ""}

        server_name localhost;

        location /nginx_status {
          stub_status on;
          access_log off;
          allow 127.0.0.1;
          ${config.networking.enableIPv6 ? "allow ::1;" : ""}
          deny all;
        }
      }
      %{~endif}

      ${local.nginxVhosts}

      ${local.nginx.appendHttpConfig}
    }
    %{~endif}

    %{~if local.nginx.httpConfig != ""}
    http {
      ${local.nginxCommonHttpConfig}
      ${local.nginx.httpConfig}
    }
    %{~endif}

    %{~if local.nginx.streamConfig != ""}
    stream {
      ${local.nginx.streamConfig}
    }
    %{~endif}

    ${local.nginx.appendConfig}
  EOT

  # NixOS's writeNginxConfig formats the file (nginxfmt): each line
  # trimmed and indented by the braces open before it, blank lines
  # dropped; here a blank line goes before each block that opens outside
  # a server, unless a comment is right above it.
  nginxConfigLines = [for l in split("\n", local.nginxConfigText) : trimspace(l) if trimspace(l) != ""]
  nginxConfigOpens = [for l in local.nginxConfigLines : endswith(l, "{") && !startswith(l, "#") ? 1 : 0]
  # A character a line: o opens a block, c closes one, b does both, n
  # neither. A line's depth is the blocks opened before it less those
  # closed up to it. Counting in each line's prefix takes time and memory
  # by the square of the lines: the lines are counted in chunks of 64, each
  # chunk's depth folded from the chunks before it (NixOS folds over the
  # lines), each line's counted from its chunk's start.
  nginxConfigMarks = [
    for i, l in local.nginxConfigLines : local.nginxConfigOpens[i] == 1 ? (startswith(l, "}") ? "b" : "o") : (startswith(l, "}") ? "c" : "n")
  ]
  nginxConfigChunks = [
    for k in range(ceil(length(local.nginxConfigMarks) / 64)) : join("", slice(local.nginxConfigMarks, 64 * k, min(64 * k + 64, length(local.nginxConfigMarks))))
  ]
  # The depth at the start of each chunk (and one after the last).
  nginxConfigChunkDepths = foldl(local.nginxConfigChunks, [0], fn.nginxChunkDepths)
  nginxConfigDepths = [
    for i, l in local.nginxConfigLines : local.nginxConfigChunkDepths[floor(i / 64)]
    + nginxOpened(substr(local.nginxConfigChunks[floor(i / 64)], 0, i % 64))
    -nginxClosed(substr(local.nginxConfigChunks[floor(i / 64)], 0, i % 64 + 1))
  ]
  nginxConfig = join("", [
    for i, l in local.nginxConfigLines : format("%s%s%s\n",
      i > 0 && local.nginxConfigOpens[i] == 1 && local.nginxConfigDepths[i] <= 1 && local.nginxConfigOpens[i - 1] == 0 && !startswith(local.nginxConfigLines[i - 1], "#") ? "\n" : "",
      join("", [for d in range(local.nginxConfigDepths[i]) : "  "]),
    l)
  ])
}

assert {
  condition = !local.nginx.enable || alltrue(flatten([for v in values(local.nginx.virtualHosts) : [for l in values(v.locations) : l.root == null || l.alias == null]]))
  message   = "Only one of nginx root or alias can be specified on a location."
}
assert {
  condition = !local.nginx.enable || alltrue([for v in values(local.nginx.virtualHosts) : length([for b in [v.addSSL, v.onlySSL, v.forceSSL, v.rejectSSL] : b if b]) <= 1])
  message   = "Options services.nginx.service.virtualHosts.<name>.addSSL, services.nginx.virtualHosts.<name>.onlySSL, services.nginx.virtualHosts.<name>.forceSSL and services.nginx.virtualHosts.<name>.rejectSSL are mutually exclusive."
}

config "systemd.services.nginx" {
  when        = local.nginx.enable
  description = "Nginx Web Server"
  wantedBy    = ["multi-user.target"]
  after       = ["network.target"]
  # NixOS runs nginx from a store path that changes with the file; here
  # the file's text restarts it, unless enableReload reloads it.
  restartTriggers = local.nginx.enableReload ? [] : [local.nginxConfig]
  stopIfChanged   = false
  preStart        = <<-EOT
    ${local.nginx.preStart}
    ${local.nginxExec} -t
  EOT
  unitConfig = {
    StartLimitIntervalSec = 60
  }
  serviceConfig = {
    ExecStart = local.nginxExec
    ExecReload = [
      "${local.nginxExec} -t",
      "/bin/kill -HUP $MAINPID",
    ]
    Restart    = "always"
    RestartSec = "10s"
    # User and group
    User  = local.nginx.user
    Group = local.nginx.group
    # Runtime directory and mode
    RuntimeDirectory     = "nginx"
    RuntimeDirectoryMode = "0750"
    # Cache directory and mode
    CacheDirectory     = "nginx"
    CacheDirectoryMode = "0750"
    # Logs directory and mode
    LogsDirectory     = "nginx"
    LogsDirectoryMode = "0750"
    # Proc filesystem
    ProcSubset  = "pid"
    ProtectProc = "invisible"
    # New file permissions
    UMask = "0027" # 0640 / 0750
    # Capabilities
    AmbientCapabilities   = ["CAP_NET_BIND_SERVICE", "CAP_SYS_RESOURCE"]
    CapabilityBoundingSet = ["CAP_NET_BIND_SERVICE", "CAP_SYS_RESOURCE"]
    # Security
    NoNewPrivileges = true
    # Sandboxing (sorted by occurrence in https://www.freedesktop.org/software/systemd/man/systemd.exec.html)
    ProtectSystem           = "strict"
    ProtectHome             = mkDefault(true)
    PrivateTmp              = true
    PrivateDevices          = true
    ProtectHostname         = true
    ProtectClock            = true
    ProtectKernelTunables   = true
    ProtectKernelModules    = true
    ProtectKernelLogs       = true
    ProtectControlGroups    = true
    RestrictAddressFamilies = ["AF_UNIX", "AF_INET", "AF_INET6"]
    RestrictNamespaces      = true
    LockPersonality         = true
    MemoryDenyWriteExecute  = true
    RestrictRealtime        = true
    RestrictSUIDSGID        = true
    RemoveIPC               = true
    PrivateMounts           = true
    # System Call Filtering
    SystemCallArchitectures = "native"
    SystemCallFilter        = ["~@cpu-emulation @debug @keyring @mount @obsolete @privileged @setuid", "~@ipc"]
  }
}

config "environment.etc.\"nginx/nginx.conf\"" {
  when   = local.nginx.enable
  origin = "services.nginx"
  text   = local.nginxConfig
}

config "environment.etc.\"nginx/nginx-recommended-proxy-headers.conf\"" {
  when   = local.nginx.enable
  origin = "services.nginx.recommendedProxySettings"
  text   = <<-EOT
    proxy_set_header        Host $host;
    proxy_set_header        X-Real-IP $remote_addr;
    proxy_set_header        X-Forwarded-For $proxy_add_x_forwarded_for;
    proxy_set_header        X-Forwarded-Proto $scheme;
    proxy_set_header        X-Forwarded-Host $host;
    proxy_set_header        X-Forwarded-Server $host;
  EOT
}

# This service reloads nginx when its configuration changes (NixOS's
# nginx-config-reload, without the ACME certificates it also waits for).
config "systemd.services.nginx-config-reload" {
  when            = local.nginx.enable && local.nginx.enableReload
  wants           = ["nginx.service"]
  wantedBy        = ["multi-user.target"]
  restartTriggers = [local.nginxConfig]
  serviceConfig = {
    Type          = "oneshot"
    TimeoutSec    = 60
    ExecCondition = "/usr/bin/systemctl -q is-active nginx.service"
    ExecStart     = "/usr/bin/systemctl reload nginx.service"
  }
}

config "users.users.nginx" {
  when         = local.nginx.enable && local.nginx.user == "nginx"
  group        = local.nginx.group
  isSystemUser = true
}
config "users.groups.nginx" {
  when = local.nginx.enable && local.nginx.group == "nginx"
}

# What NixOS takes from pkgs.nginx: Debian's package, installed by nodegen
# switch; /bin/kill is procps'.
config "environment.packages.nginx" {
  when     = local.nginx.enable
  provides = [local.nginxBin]
}
config "environment.packages.procps" {
  when     = local.nginx.enable
  provides = ["/bin/kill"]
}

# A location's key in the order of sortProperties: priority, then name.
function "nginxLocationKey" {
  params = [l]
  result = [l.priority, l.name]
}

# The blocks a string of marks (local.nginxConfigMarks) opens and closes:
# o and b open one, c and b close one.
function "nginxOpened" {
  params = [marks]
  result = length(replace(replace(marks, "n", ""), "c", ""))
}
function "nginxClosed" {
  params = [marks]
  result = length(replace(replace(marks, "n", ""), "o", ""))
}

# A step of the fold over the chunks of marks: the depths so far, then the
# depth after the chunk.
function "nginxChunkDepths" {
  params = [depths, chunk]
  result = concat(depths, [depths[length(depths) - 1] + nginxOpened(chunk) - nginxClosed(chunk)])
}
