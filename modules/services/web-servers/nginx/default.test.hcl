# Tests of services.nginx (default.hcl, vhost-options.hcl).

run "the default host listens on every address" {
  config "services.nginx" {
    enable = true
  }
  assert {
    condition     = strcontains(config.environment.etc["nginx/nginx.conf"].text, "  server {\n    listen 0.0.0.0:80;\n    listen [::0]:80;\n    server_name localhost;\n  }\n")
    error_message = "virtualHosts defaults to localhost on defaultListenAddresses"
  }
  assert {
    condition     = startswith(config.environment.etc["nginx/nginx.conf"].text, "pid /run/nginx/nginx.pid;\nerror_log stderr;\ndaemon off;\n\nevents {\n}\n\nhttp {\n  # Load mime types.\n  include /etc/nginx/mime.types;\n")
    error_message = "the file starts as NixOS's"
  }
}

run "forceSSL redirects plain HTTP to a TLS server" {
  config "networking" {
    enableIPv6 = false
  }
  config "services.nginx" {
    enable = true
    virtualHosts = {
      site = {
        serverName        = "example.org"
        serverAliases     = ["www.example.org"]
        forceSSL          = true
        sslCertificate    = "/etc/certs/site.crt"
        sslCertificateKey = "/etc/certs/site.key"
        root              = "/srv/site"
      }
    }
  }
  assert {
    condition     = strcontains(config.environment.etc["nginx/nginx.conf"].text, "  server {\n    listen 0.0.0.0:80;\n    server_name example.org www.example.org;\n    location / {\n      return 301 https://$host$request_uri;\n    }\n  }\n")
    error_message = "the plain listen redirects"
  }
  assert {
    condition     = strcontains(config.environment.etc["nginx/nginx.conf"].text, "  server {\n    listen 0.0.0.0:443 http2 ssl;\n    server_name example.org www.example.org;\n    root /srv/site;\n    ssl_certificate /etc/certs/site.crt;\n    ssl_certificate_key /etc/certs/site.key;\n  }\n")
    error_message = "the TLS listen serves the host"
  }
}

run "listen, defaultListen and listenAddresses" {
  config "services.nginx" {
    enable        = true
    defaultListen = [{ addr = "10.0.0.1", ssl = true, proxyProtocol = true }, { addr = "10.0.0.2" }]
    virtualHosts = {
      a = {
        addSSL            = true
        sslCertificate    = "/c"
        sslCertificateKey = "/k"
      }
      b = {
        default   = true
        reuseport = true
        listen    = [{ addr = "unix:/run/b.sock" }, { addr = "127.0.0.1", port = 8443, ssl = true, extraParameters = ["backlog=1024"] }]
      }
    }
  }
  assert {
    condition     = strcontains(config.environment.etc["nginx/nginx.conf"].text, "    listen 10.0.0.1:443 http2 ssl proxy_protocol;\n    listen 10.0.0.2:443 http2 ssl;\n    listen 10.0.0.2:80;\n    server_name a;\n")
    error_message = "defaultListen: SSL variants first, an explicit ssl only in its own"
  }
  assert {
    condition     = strcontains(config.environment.etc["nginx/nginx.conf"].text, "    listen unix:/run/b.sock default_server reuseport;\n    listen 127.0.0.1:8443 http2 ssl default_server reuseport backlog=1024;\n    server_name b;\n")
    error_message = "a host's own listen, a socket without a port"
  }
}

run "locations are ordered by priority then name" {
  config "services.nginx" {
    enable = true
    virtualHosts = {
      localhost = {
        locations = {
          "/"       = { root = "/srv" }
          "/b"      = { return = "204" }
          "/a"      = { proxyPass = "http://127.0.0.1:1", proxyWebsockets = true }
          "= /late" = { priority = 1500, extraConfig = "add_header X-Late 1;" }
          "~ early" = { priority = -5, index = "index.html", tryFiles = "$uri =404" }
          "/php"    = { fastcgiParams = { SCRIPT_FILENAME = "/srv/x.php" } }
        }
      }
    }
  }
  assert {
    condition = strcontains(config.environment.etc["nginx/nginx.conf"].text, join("", [
      "    location ~ early {\n      index index.html;\n      try_files $uri =404;\n    }\n",
      "    location / {\n      root /srv;\n    }\n",
      "    location /a {\n      proxy_pass http://127.0.0.1:1;\n      proxy_http_version 1.1;\n      proxy_set_header Upgrade $http_upgrade;\n      proxy_set_header Connection $connection_upgrade;\n    }\n",
      "    location /b {\n      return 204;\n    }\n",
    ]))
    error_message = "-5 first, then the priority 1000 ones by name"
  }
  assert {
    condition     = strcontains(config.environment.etc["nginx/nginx.conf"].text, "      fastcgi_param SCRIPT_FILENAME \"/srv/x.php\";\n      fastcgi_param SCRIPT_NAME \"$fastcgi_script_name\";\n")
    error_message = "fastcgiParams override NixOS's defaults"
  }
  assert {
    condition     = endswith(config.environment.etc["nginx/nginx.conf"].text, "    location = /late {\n      add_header X-Late 1;\n    }\n  }\n}\n")
    error_message = "priority 1500 goes last"
  }
}

run "upstreams and the resolver" {
  config "services.nginx" {
    enable = true
    resolver = {
      addresses = ["127.0.0.53"]
      valid     = "30s"
      ipv6      = false
    }
    upstreams = {
      app = {
        servers = {
          "10.0.0.1:80" = { weight = 2, backup = true }
          "10.0.0.2:80" = { down = false }
        }
        extraConfig = "keepalive 8;"
      }
    }
  }
  assert {
    condition     = strcontains(config.environment.etc["nginx/nginx.conf"].text, "  resolver 127.0.0.53 valid=30s ipv6=off;\n\n  upstream app {\n    server 10.0.0.1:80 backup weight=2;\n    server 10.0.0.2:80;\n    keepalive 8;\n  }\n")
    error_message = "a true parameter is its name, a false one is left out"
  }
}

run "the recommended settings" {
  config "services.nginx" {
    enable                   = true
    recommendedTlsSettings   = true
    recommendedOptimisation  = true
    recommendedGzipSettings  = true
    recommendedProxySettings = true
    proxyTimeout             = "5s"
    virtualHosts = {
      localhost = {
        locations = {
          "/"  = { proxyPass = "http://127.0.0.1:1" }
          "/x" = { proxyPass = "http://127.0.0.1:2", recommendedProxySettings = false }
        }
      }
    }
  }
  assert {
    condition = alltrue([for s in [
      "  ssl_session_cache shared:SSL:10m;\n",
      "  sendfile on;\n",
      "  gzip_proxied expired no-cache no-store private auth;\n",
      "  proxy_read_timeout      5s;\n",
      "    location / {\n      proxy_pass http://127.0.0.1:1;\n      include /etc/nginx/nginx-recommended-proxy-headers.conf;\n    }\n",
      "    location /x {\n      proxy_pass http://127.0.0.1:2;\n    }\n",
    ] : strcontains(config.environment.etc["nginx/nginx.conf"].text, s)])
    error_message = "each recommended group writes its directives; a location can opt out of the proxy headers"
  }
  assert {
    condition     = startswith(config.environment.etc["nginx/nginx-recommended-proxy-headers.conf"].text, "proxy_set_header        Host $host;\n")
    error_message = "the proxy headers are a file of their own"
  }
}

run "common and appended http config, the status page" {
  config "networking" {
    enableIPv6 = false
  }
  config "services.nginx" {
    enable           = true
    statusPage       = true
    commonHttpConfig = "log_format x '$remote_addr';"
    appendHttpConfig = "access_log off;"
    appendConfig     = "worker_processes 2;"
    virtualHosts     = {}
  }
  assert {
    condition     = strcontains(config.environment.etc["nginx/nginx.conf"].text, "  server_tokens off;\n  log_format x '$remote_addr';\n\n  server {\n    listen 80;\n    server_name localhost;\n    location /nginx_status {\n      stub_status on;\n      access_log off;\n      allow 127.0.0.1;\n      deny all;\n    }\n  }\n  access_log off;\n}\nworker_processes 2;\n")
    error_message = "commonHttpConfig before the servers, appendHttpConfig after, appendConfig outside http"
  }
}

run "a verbatim http block" {
  config "services.nginx" {
    enable       = true
    httpConfig   = "server { listen 8080; }"
    streamConfig = <<-EOT
      server {
        listen 127.0.0.1:53 udp;
        proxy_pass 127.0.0.1:5353;
      }
    EOT
  }
  assert {
    condition     = strcontains(config.environment.etc["nginx/nginx.conf"].text, "  scgi_temp_path /var/cache/nginx/scgi;\n  server { listen 8080; }\n}\n\nstream {\n  server {\n    listen 127.0.0.1:53 udp;\n    proxy_pass 127.0.0.1:5353;\n  }\n}\n")
    error_message = "httpConfig replaces the generated http block"
  }
}

run "the unit" {
  config "services.nginx" {
    enable = true
  }
  assert {
    condition     = config.systemd.services.nginx.serviceConfig.ExecStart == "/usr/sbin/nginx -c '/etc/nginx/nginx.conf'" && config.systemd.services.nginx.serviceConfig.ExecReload == ["/usr/sbin/nginx -c '/etc/nginx/nginx.conf' -t", "/bin/kill -HUP $MAINPID"]
    error_message = "nginx runs the file, and a reload tests it first"
  }
  assert {
    condition     = config.systemd.services.nginx.serviceConfig.ProtectSystem == "strict" && config.systemd.services.nginx.serviceConfig.CapabilityBoundingSet == ["CAP_NET_BIND_SERVICE", "CAP_SYS_RESOURCE"] && config.systemd.services.nginx.serviceConfig.User == "nginx"
    error_message = "NixOS's hardening, as the nginx user"
  }
  assert {
    condition     = length(config.systemd.services.nginx.restartTriggers) == 1 && !contains(keys(config.systemd.services), "nginx-config-reload")
    error_message = "without enableReload a change restarts nginx"
  }
  assert {
    condition     = config.users.users.nginx.isSystemUser && contains(keys(config.users.groups), "nginx")
    error_message = "the nginx user and group"
  }
}

run "enableReload reloads instead" {
  config "services.nginx" {
    enable       = true
    enableReload = true
    user         = "www-data"
    group        = "www-data"
  }
  assert {
    condition     = length(config.systemd.services.nginx.restartTriggers) == 0 && config.systemd.services.nginx-config-reload.serviceConfig.ExecStart == "/usr/bin/systemctl reload nginx.service"
    error_message = "nginx-config-reload reloads nginx on a change"
  }
  assert {
    condition     = !contains(keys(config.users.users), "nginx")
    error_message = "another user is not created"
  }
}

run "root and alias exclude each other" {
  config "services.nginx" {
    enable       = true
    virtualHosts = { localhost = { locations = { "/" = { root = "/a", alias = "/b" } } } }
  }
  expect_error = "Only one of nginx root or alias can be specified on a location."
}

run "the SSL modes exclude each other" {
  config "services.nginx" {
    enable       = true
    virtualHosts = { localhost = { addSSL = true, onlySSL = true, sslCertificate = "/c", sslCertificateKey = "/k" } }
  }
  expect_error = "are mutually exclusive"
}

# The file is indented by its braces in chunks of lines (nginxConfigDepths):
# thousands of lines, across many chunks, are indented as a few are.
run "a large file is indented as a small one" {
  config "services.nginx" {
    enable = true
    virtualHosts = {
      for i in range(300) : "h${i}" => {
        locations = { "/" = { root = "/srv/${i}" }, "/a" = { return = "204" } }
      }
    }
  }
  assert {
    condition     = length(split("\n", config.environment.etc["nginx/nginx.conf"].text)) > 3000
    error_message = "the test needs a file of many chunks"
  }
  assert {
    condition     = endswith(config.environment.etc["nginx/nginx.conf"].text, "\n  server {\n    listen 0.0.0.0:80;\n    listen [::0]:80;\n    server_name h99;\n    location / {\n      root /srv/99;\n    }\n    location /a {\n      return 204;\n    }\n  }\n}\n")
    error_message = "the last host is indented as the first"
  }
  assert {
    condition     = strcontains(config.environment.etc["nginx/nginx.conf"].text, "\n  server {\n    listen 0.0.0.0:80;\n    listen [::0]:80;\n    server_name h0;\n    location / {\n      root /srv/0;\n    }\n")
    error_message = "the first host"
  }
}

run "proxy cache paths, hash sizes and TLS parameters" {
  config "services.nginx" {
    enable                    = true
    proxyCache                = { enable = true, inactive = "1d" }
    proxyCachePath            = { media = { enable = true, keysZoneName = "media", maxSize = "5g", useTempPath = true } }
    serverNamesHashBucketSize = 128
    mapHashMaxSize            = 4096
    sslDhparam                = "/etc/nginx/dhparam.pem"
    sslCiphers                = null
    sslProtocols              = "TLSv1.3"
    clientMaxBodySize         = "1g"
    serverTokens              = true
    logError                  = "syslog:server=unix:/dev/log info"
  }
  assert {
    condition = alltrue([for s in [
      "error_log syslog:server=unix:/dev/log info;\n",
      "  ssl_protocols TLSv1.3;\n  ssl_dhparam /etc/nginx/dhparam.pem;\n",
      "  map_hash_max_size 4096;\n  server_names_hash_bucket_size 128;\n",
      "  client_max_body_size 1g;\n  server_tokens on;\n",
      "  proxy_cache_path /var/cache/nginx/ keys_zone=cache:10m levels=1:2 use_temp_path=off inactive=1d max_size=1g;\n  proxy_cache_path /var/cache/nginx/media keys_zone=media:10m levels=1:2 use_temp_path=on inactive=10m max_size=5g;\n",
    ] : strcontains(config.environment.etc["nginx/nginx.conf"].text, s)])
    error_message = "each option writes its directive; proxyCache is renamed to proxyCachePath.\"\""
  }
  assert {
    condition     = !strcontains(config.environment.etc["nginx/nginx.conf"].text, "ssl_ciphers")
    error_message = "sslCiphers = null leaves the directive out"
  }
}
