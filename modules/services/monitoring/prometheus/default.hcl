# The Prometheus server, ported from NixOS's
# services/monitoring/prometheus/default.nix to Debian's prometheus
# (/usr/bin/prometheus and promtool, Prometheus 2.42 on bookworm). The
# exporters are in exporters.hcl.
#
# NixOS writes prometheus.yml and the rules to the store and points
# Prometheus at them, or at /etc/prometheus/prometheus.yaml with
# enableReload; nodegen has no store, so the file is always
# /etc/prometheus/prometheus.yaml (Debian's own is prometheus.yml, left
# alone), the rules are /etc/prometheus/prometheus.rules and the ruleFiles
# are copied below /etc/prometheus/rules/. Without enableReload a change
# restarts Prometheus (restartTriggers), with it prometheus-config-reload
# reloads it, as in NixOS. checkConfig's promtool runs as the files'
# checks: the rules with `promtool check rules`, the configuration with
# `promtool check config --syntax-only` (the rule files it names are on the
# host, not where nodegen evaluates; they are checked on their own).
#
# NixOS's option types are ported for the global configuration, scrape
# configurations with static, file and DNS discovery, relabelling,
# authorization, basic auth and TLS. Not ported: the other discovery
# mechanisms (Consul, Kubernetes, EC2, ...), remoteRead and remoteWrite,
# whose options NixOS declares by the hundred; a scrape configuration that
# needs them sets them through configText.
#
# NixOS declares most options with mkOpt (nullOr TYPE, default null) and
# mkDefOpt (the same, with the Prometheus default named in the
# description): there are no functions, so each is written out, and
# filterValidPrometheus (a recursive filter of nulls) is the local
# prometheusFilter, to the depth these types need.

locals {
  prometheus = config.services.prometheus
  # NixOS's workingDir.
  prometheusWorkingDir = "/var/lib/${local.prometheus.stateDir}"
  prometheusBin        = "/usr/bin/prometheus"
  promtoolBin          = "/usr/bin/promtool"
}

submodule "prometheusGlobalConfig" {
  option "evaluation_interval" {
    type        = nullOr(str)
    default     = null
    description = "How frequently to evaluate rules by default. Defaults to `1m` in prometheus when set to null."
  }
  option "external_labels" {
    type        = nullOr(attrsOf(str))
    default     = null
    description = "The labels to add to any time series or alerts when communicating with external systems (federation, remote storage, Alertmanager)."
  }
  option "query_log_file" {
    type        = nullOr(str)
    default     = null
    description = "Path to the file prometheus should write its query log to."
  }
  option "scrape_interval" {
    type        = nullOr(str)
    default     = null
    description = "How frequently to scrape targets by default. Defaults to `1m` in prometheus when set to null."
  }
  option "scrape_timeout" {
    type        = nullOr(str)
    default     = null
    description = "How long until a scrape request times out. Defaults to `10s` in prometheus when set to null."
  }
}

submodule "prometheusBasicAuth" {
  option "password" {
    type        = nullOr(str)
    default     = null
    description = "HTTP password"
  }
  option "password_file" {
    type        = nullOr(str)
    default     = null
    description = "HTTP password file"
  }
  option "username" {
    type        = str
    description = "HTTP username"
  }
}

submodule "prometheusTlsConfig" {
  option "ca_file" {
    type        = nullOr(str)
    default     = null
    description = "CA certificate to validate API server certificate with."
  }
  option "cert_file" {
    type        = nullOr(str)
    default     = null
    description = "Certificate file for client cert authentication to the server."
  }
  option "insecure_skip_verify" {
    type        = nullOr(bool)
    default     = null
    description = "Disable validation of the server certificate."
  }
  option "key_file" {
    type        = nullOr(str)
    default     = null
    description = "Key file for client cert authentication to the server."
  }
  option "server_name" {
    type        = nullOr(str)
    default     = null
    description = "ServerName extension to indicate the name of the server. http://tools.ietf.org/html/rfc4366#section-3.1"
  }
}

# https://prometheus.io/docs/prometheus/latest/configuration/configuration/#scrape_config
submodule "prometheusScrapeConfig" {
  option "authorization" {
    type        = nullOr(attrs)
    default     = null
    description = "Sets the `Authorization` header on every scrape request with the configured credentials."
  }
  option "basic_auth" {
    type        = nullOr(submodule.prometheusBasicAuth)
    default     = null
    description = "Sets the `Authorization` header on every scrape request with the configured username and password. password and password_file are mutually exclusive."
  }
  option "bearer_token" {
    type        = nullOr(str)
    default     = null
    description = "Sets the `Authorization` header on every scrape request with the configured bearer token. It is mutually exclusive with bearer_token_file."
  }
  option "bearer_token_file" {
    type        = nullOr(str)
    default     = null
    description = "Sets the `Authorization` header on every scrape request with the bearer token read from the configured file. It is mutually exclusive with bearer_token."
  }
  option "body_size_limit" {
    type        = nullOr(str)
    default     = null
    description = "An uncompressed response body larger than this many bytes will cause the scrape to fail. 0 means no limit. Example: 100MB. This is an experimental feature, this behaviour could change or be removed in the future. Defaults to `0` in prometheus when set to null."
  }
  option "dns_sd_configs" {
    type        = nullOr(listOf(submodule.prometheusDnsSdConfig))
    default     = null
    description = "List of DNS service discovery configurations."
  }
  option "file_sd_configs" {
    type        = nullOr(listOf(submodule.prometheusFileSdConfig))
    default     = null
    description = "List of file service discovery configurations."
  }
  option "honor_labels" {
    type        = nullOr(bool)
    default     = null
    description = "Controls how Prometheus handles conflicts between labels that are already present in scraped data and labels that Prometheus would attach server-side (\"job\" and \"instance\" labels, manually configured target labels, and labels generated by service discovery implementations). If honor_labels is set to \"true\", label conflicts are resolved by keeping label values from the scraped data and ignoring the conflicting server-side labels. If honor_labels is set to \"false\", label conflicts are resolved by renaming conflicting labels in the scraped data to \"exported_<original-label>\" (for example \"exported_instance\", \"exported_job\") and then attaching server-side labels. This is useful for use cases such as federation, where all labels specified in the target should be preserved. Defaults to `false` in prometheus when set to null."
  }
  option "honor_timestamps" {
    type        = nullOr(bool)
    default     = null
    description = "honor_timestamps controls whether Prometheus respects the timestamps present in scraped data. If honor_timestamps is set to `true`, the timestamps of the metrics exposed by the target will be used. If honor_timestamps is set to `false`, the timestamps of the metrics exposed by the target will be ignored. Defaults to `true` in prometheus when set to null."
  }
  option "job_name" {
    type        = str
    description = "The job name assigned to scraped metrics by default."
  }
  option "label_limit" {
    type        = nullOr(int)
    default     = null
    description = "Per-scrape limit on number of labels that will be accepted for a sample. If more than this number of labels are present post metric-relabeling, the entire scrape will be treated as failed. 0 means no limit. Defaults to `0` in prometheus when set to null."
  }
  option "label_name_length_limit" {
    type        = nullOr(int)
    default     = null
    description = "Per-scrape limit on length of labels name that will be accepted for a sample. If a label name is longer than this number post metric-relabeling, the entire scrape will be treated as failed. 0 means no limit. Defaults to `0` in prometheus when set to null."
  }
  option "label_value_length_limit" {
    type        = nullOr(int)
    default     = null
    description = "Per-scrape limit on length of labels value that will be accepted for a sample. If a label value is longer than this number post metric-relabeling, the entire scrape will be treated as failed. 0 means no limit. Defaults to `0` in prometheus when set to null."
  }
  option "metric_relabel_configs" {
    type        = nullOr(listOf(submodule.prometheusRelabelConfig))
    default     = null
    description = "List of metric relabel configurations."
  }
  option "metrics_path" {
    type        = nullOr(str)
    default     = null
    description = "The HTTP resource path on which to fetch metrics from targets. Defaults to `/metrics` in prometheus when set to null."
  }
  option "params" {
    type        = nullOr(attrsOf(listOf(str)))
    default     = null
    description = "Optional HTTP URL parameters."
  }
  option "proxy_url" {
    type        = nullOr(str)
    default     = null
    description = "Optional proxy URL."
  }
  option "relabel_configs" {
    type        = nullOr(listOf(submodule.prometheusRelabelConfig))
    default     = null
    description = "List of relabel configurations."
  }
  option "sample_limit" {
    type        = nullOr(int)
    default     = null
    description = "Per-scrape limit on number of scraped samples that will be accepted. If more than this number of samples are present after metric relabelling the entire scrape will be treated as failed. 0 means no limit. Defaults to `0` in prometheus when set to null."
  }
  option "scheme" {
    type        = nullOr(enum(["http", "https"]))
    default     = null
    description = "The URL scheme with which to fetch metrics from targets. Defaults to `http` in prometheus when set to null."
  }
  option "scrape_interval" {
    type        = nullOr(str)
    default     = null
    description = "How frequently to scrape targets from this job. Defaults to the globally configured default."
  }
  option "scrape_timeout" {
    type        = nullOr(str)
    default     = null
    description = "Per-target timeout when scraping this job. Defaults to the globally configured default."
  }
  option "static_configs" {
    type        = nullOr(listOf(submodule.prometheusStaticConfig))
    default     = null
    description = "List of labeled target groups for this job."
  }
  option "target_limit" {
    type        = nullOr(int)
    default     = null
    description = "Per-scrape config limit on number of unique targets that will be accepted. If more than this number of targets are present after target relabeling, Prometheus will mark the targets as failed without scraping them. 0 means no limit. This is an experimental feature, this behaviour could change in the future. Defaults to `0` in prometheus when set to null."
  }
  option "tls_config" {
    type        = nullOr(submodule.prometheusTlsConfig)
    default     = null
    description = "Configures the scrape request's TLS settings."
  }
}

submodule "prometheusDnsSdConfig" {
  option "names" {
    type        = listOf(str)
    description = "A list of DNS SRV record names to be queried."
  }
  option "port" {
    type        = nullOr(port)
    default     = null
    description = "The port number used if the query type is not SRV."
  }
  option "refresh_interval" {
    type        = nullOr(str)
    default     = null
    description = "The time after which the provided names are refreshed. Defaults to `30s` in prometheus when set to null."
  }
  option "type" {
    type        = nullOr(enum(["SRV", "A", "AAAA", "MX", "NS"]))
    default     = null
    description = "The type of DNS query to perform. Defaults to `SRV` in prometheus when set to null."
  }
}

submodule "prometheusFileSdConfig" {
  option "files" {
    type        = listOf(str)
    description = "Patterns for files from which target groups are extracted. Refer to the Prometheus documentation for permitted filename patterns and formats."
  }
  option "refresh_interval" {
    type        = nullOr(str)
    default     = null
    description = "Refresh interval to re-read the files. Defaults to `5m` in prometheus when set to null."
  }
}

submodule "prometheusStaticConfig" {
  option "labels" {
    type        = attrsOf(str)
    default     = {}
    description = "Labels assigned to all metrics scraped from the targets."
  }
  option "targets" {
    type        = listOf(str)
    description = "The targets specified by the target group."
  }
}

submodule "prometheusRelabelConfig" {
  option "action" {
    type        = nullOr(enum(["replace", "lowercase", "uppercase", "keep", "drop", "hashmod", "labelmap", "labeldrop", "labelkeep"]))
    default     = null
    description = "Action to perform based on regex matching. Defaults to `replace` in prometheus when set to null."
  }
  option "modulus" {
    type        = nullOr(int)
    default     = null
    description = "Modulus to take of the hash of the source label values."
  }
  option "regex" {
    type        = nullOr(str)
    default     = null
    description = "Regular expression against which the extracted value is matched. Defaults to `(.*)` in prometheus when set to null."
  }
  option "replacement" {
    type        = nullOr(str)
    default     = null
    description = "Replacement value against which a regex replace is performed if the regular expression matches. Defaults to `$1` in prometheus when set to null."
  }
  option "separator" {
    type        = nullOr(str)
    default     = null
    description = "Separator placed between concatenated source label values. Defaults to `;` in prometheus when set to null."
  }
  option "source_labels" {
    type        = nullOr(listOf(str))
    default     = null
    description = "The source labels select values from existing labels. Their content is concatenated using the configured separator and matched against the configured regular expression."
  }
  option "target_label" {
    type        = nullOr(str)
    default     = null
    description = "Label to which the resulting value is written in a replace action. It is mandatory for replace actions."
  }
}

# NixOS also renames the namespace services.prometheus2 to
# services.prometheus; renamed_option renames one option, not a namespace.
removed_option "services.prometheus.environmentFile" {
  message = "It has been removed since it was causing issues (https://github.com/NixOS/nixpkgs/issues/126083) and Prometheus now has native support for secret files, i.e. `basic_auth.password_file` and `authorization.credentials_file`."
}
removed_option "services.prometheus.alertmanagerTimeout" {
  message = "Deprecated upstream and no longer had any effect"
}

options "services.prometheus" {
  option "enable" {
    type        = bool
    default     = false
    description = "Whether to enable Prometheus monitoring daemon."
  }
  option "alertmanagerNotificationQueueCapacity" {
    type        = int
    default     = 10000
    description = "The capacity of the queue for pending alert manager notifications."
  }
  option "alertmanagers" {
    type        = listOf(attrs)
    default     = []
    example     = [{ scheme = "https", path_prefix = "/alertmanager", static_configs = [{ targets = ["prometheus.domain.tld"] }] }]
    description = "A list of alertmanagers to send alerts to. See the official documentation (https://prometheus.io/docs/prometheus/latest/configuration/configuration/#alertmanager_config) for more information."
  }
  option "checkConfig" {
    type        = either(bool, enum(["syntax-only"]))
    default     = true
    example     = "syntax-only"
    description = "Check configuration with `promtool check`: the rule files with `promtool check rules`, prometheus.yaml with `promtool check config --syntax-only` (its rule files are checked on their own). \"syntax-only\" checks prometheus.yaml alone, as true does here."
  }
  option "configText" {
    type        = nullOr(lines)
    default     = null
    description = "If non-null, this option defines the text that is written to prometheus.yml. If null, the contents of prometheus.yml is generated from the structured config options."
  }
  option "enableAgentMode" {
    type        = bool
    default     = false
    description = "Whether to enable agent mode."
  }
  option "enableReload" {
    type        = bool
    default     = false
    description = "Reload prometheus when configuration file changes (instead of restart). The following property holds: switching to a configuration that changes the prometheus configuration only finishes successfully when prometheus has finished loading the new configuration."
  }
  option "extraFlags" {
    type        = listOf(str)
    default     = []
    description = "Extra commandline options when launching Prometheus."
  }
  option "globalConfig" {
    type        = submodule.prometheusGlobalConfig
    default     = {}
    description = "Parameters that are valid in all  configuration contexts. They also serve as defaults for other configuration sections"
  }
  option "listenAddress" {
    type        = str
    default     = "0.0.0.0"
    description = "Address to listen on for the web interface, API, and telemetry."
  }
  option "port" {
    type        = port
    default     = 9090
    description = "Port to listen on."
  }
  option "retentionTime" {
    type        = nullOr(str)
    default     = null
    example     = "15d"
    description = "How long to retain samples in storage."
  }
  option "ruleFiles" {
    type        = listOf(path)
    default     = []
    description = "Any additional rules files to include in this configuration. Each is copied to /etc/prometheus/rules/."
  }
  option "rules" {
    type        = listOf(str)
    default     = []
    description = "Alerting and/or Recording rules to evaluate at runtime."
  }
  option "scrapeConfigs" {
    type        = listOf(submodule.prometheusScrapeConfig)
    default     = []
    description = "A list of scrape configurations."
  }
  option "stateDir" {
    type        = str
    default     = "prometheus2"
    description = "Directory below `/var/lib` to store Prometheus metrics data. This directory will be created automatically using systemd's StateDirectory mechanism."
  }
  option "webConfigFile" {
    type        = nullOr(path)
    default     = null
    description = "Specifies which file should be used as web.config.file and be passed on startup. See https://prometheus.io/docs/prometheus/latest/configuration/https/ for valid options."
  }
  option "webExternalUrl" {
    type        = nullOr(str)
    default     = null
    example     = "https://example.com/"
    description = "The URL under which Prometheus is externally reachable (for example, if Prometheus is served via a reverse proxy)."
  }
}

locals {
  # NixOS's filterValidPrometheus: the value without its nulls, in objects
  # and in lists of objects, to the depth of the types above (a scrape
  # configuration's fields, their attributes, and the attributes of the
  # elements of its lists). There is no recursion: each level is written
  # out, and an object is told from a list by what fails (try).
  prometheusFilter = {
    globalConfig = { for k, v in local.prometheus.globalConfig : k => v if v != null }
    scrapeConfigs = [
      for sc in local.prometheus.scrapeConfigs : {
        for k, v in sc : k => try(
          { for k2, v2 in v : k2 => v2 if v2 != null && length(keys(v)) >= 0 },
          [for e in slice(v, 0, length(v)) : try({ for k3, v3 in e : k3 => v3 if v3 != null && length(keys(e)) >= 0 }, e)],
          v,
        ) if v != null
      }
    ]
  }

  # The rule files: ruleFiles copied below /etc/prometheus/rules/, then the
  # rules (NixOS's prometheus.rules).
  prometheusRuleFiles = { for i, f in local.prometheus.ruleFiles : "prometheus/rules/${i}-${basename(f)}" => f }

  # NixOS's promConfig.
  prometheusConfig = {
    alerting = { alertmanagers = local.prometheus.alertmanagers }
    global   = local.prometheusFilter.globalConfig
    rule_files = local.prometheus.enableAgentMode ? [] : concat(
      [for n, f in local.prometheusRuleFiles : "/etc/${n}"],
      length(local.prometheus.rules) > 0 ? ["/etc/prometheus/prometheus.rules"] : [],
    )
    scrape_configs = local.prometheusFilter.scrapeConfigs
  }
  prometheusYml = local.prometheus.configText != null ? local.prometheus.configText : yamlencode(local.prometheusConfig)

  # NixOS's cmdlineArgs.
  prometheusArgs = concat(
    local.prometheus.extraFlags,
    [
      "--config.file=/etc/prometheus/prometheus.yaml",
      "--web.listen-address=${local.prometheus.listenAddress}:${local.prometheus.port}",
    ],
    local.prometheus.enableAgentMode ? ["--agent"] : [
      "--alertmanager.notification-queue-capacity=${local.prometheus.alertmanagerNotificationQueueCapacity}",
      "--storage.tsdb.path=${local.prometheusWorkingDir}/data/",
    ],
    local.prometheus.webExternalUrl != null ? ["--web.external-url=${local.prometheus.webExternalUrl}"] : [],
    local.prometheus.retentionTime != null ? ["--storage.tsdb.retention.time=${local.prometheus.retentionTime}"] : [],
    local.prometheus.webConfigFile != null ? ["--web.config.file=${local.prometheus.webConfigFile}"] : [],
  )

  # NixOS's promtoolCheck, as a check of the file.
  prometheusChecks = local.prometheus.checkConfig == false ? {} : {
    config = [{ programs = [local.promtoolBin], script = "${local.promtoolBin} check config --syntax-only \"$1\"\n" }]
    rules  = [{ programs = [local.promtoolBin], script = "${local.promtoolBin} check rules \"$1\"\n" }]
  }
}

assert {
  condition = !local.prometheus.enable || !can(regex("^(.*\\..*|.*]):([[:digit:]]+)$", local.prometheus.listenAddress))
  # Match something with dots (an IPv4 address) or something ending in a
  # square bracket (an IPv6 addresses) followed by a port number.
  message = "Do not specify the port for Prometheus to listen on in the listenAddress option; use the port option instead: services.prometheus.listenAddress = ${try(regex("^(.*\\..*|.*]):([[:digit:]]+)$", local.prometheus.listenAddress)[0], "")}; services.prometheus.port = ${try(regex("^(.*\\..*|.*]):([[:digit:]]+)$", local.prometheus.listenAddress)[1], "")};"
}

config "environment.etc.\"prometheus/prometheus.yaml\"" {
  when   = local.prometheus.enable
  origin = "services.prometheus"
  text   = local.prometheusYml
  checks = lookup(local.prometheusChecks, "config", [])
}

config "environment.etc.\"prometheus/prometheus.rules\"" {
  when   = local.prometheus.enable && length(local.prometheus.rules) > 0 && !local.prometheus.enableAgentMode
  origin = "services.prometheus.rules"
  text   = join("\n", local.prometheus.rules)
  checks = lookup(local.prometheusChecks, "rules", [])
}

config "environment" {
  when = local.prometheus.enable && !local.prometheus.enableAgentMode
  etc = {
    for n, f in local.prometheusRuleFiles : n => {
      source = f
      origin = "services.prometheus.ruleFiles"
      checks = lookup(local.prometheusChecks, "rules", [])
    }
  }
}

# NixOS's reload: a HUP, then wait until Prometheus has loaded the file.
config "environment.etc.\"prometheus/reload-prometheus\"" {
  when   = local.prometheus.enable && local.prometheus.enableReload
  origin = "services.prometheus.enableReload"
  mode   = "0755"
  text   = <<-EOT
    #!/bin/sh
    cursor=$(journalctl --show-cursor -n0 | grep -oP "cursor: \K.*")
    kill -HUP $MAINPID
    journalctl -u prometheus.service --after-cursor="$cursor" -f \
      | grep -m 1 "Completed loading of configuration file" > /dev/null
  EOT
}
# NixOS's triggerReload.
config "environment.etc.\"prometheus/trigger-reload-prometheus\"" {
  when   = local.prometheus.enable && local.prometheus.enableReload
  origin = "services.prometheus.enableReload"
  mode   = "0755"
  text   = <<-EOT
    #!/bin/sh
    if systemctl -q is-active prometheus.service; then
      systemctl reload prometheus.service
    fi
  EOT
}

config "systemd.services.prometheus" {
  when  = local.prometheus.enable
  after = ["network.target"]
  # NixOS points Prometheus at a store path that changes with the file;
  # here the file's text restarts it, unless enableReload reloads it.
  restartTriggers = local.prometheus.enableReload ? [] : [local.prometheusYml]
  serviceConfig = merge(
    {
      # Hardening
      CapabilityBoundingSet = [""]
      DeviceAllow           = ["/dev/null rw"]
      DevicePolicy          = "strict"
      # Each argument is one word of the command line (systemdexecarg).
      ExecStart               = join(" \\\n  ", concat([local.prometheusBin], [for a in local.prometheusArgs : systemdexecarg(a)]))
      LockPersonality         = true
      MemoryDenyWriteExecute  = true
      NoNewPrivileges         = true
      PrivateDevices          = true
      PrivateTmp              = true
      PrivateUsers            = true
      ProtectClock            = true
      ProtectControlGroups    = true
      ProtectHome             = true
      ProtectHostname         = true
      ProtectKernelLogs       = true
      ProtectKernelModules    = true
      ProtectKernelTunables   = true
      ProtectProc             = "invisible"
      ProtectSystem           = "full"
      RemoveIPC               = true
      Restart                 = "always"
      RestrictAddressFamilies = ["AF_INET", "AF_INET6", "AF_UNIX"]
      RestrictNamespaces      = true
      RestrictRealtime        = true
      RestrictSUIDSGID        = true
      RuntimeDirectory        = "prometheus"
      RuntimeDirectoryMode    = "0700"
      StateDirectory          = local.prometheus.stateDir
      StateDirectoryMode      = "0700"
      SystemCallArchitectures = "native"
      SystemCallFilter        = ["@system-service", "~@privileged"]
      User                    = "prometheus"
      WorkingDirectory        = local.prometheusWorkingDir
    },
    local.prometheus.enableReload ? { ExecReload = "+/etc/prometheus/reload-prometheus" } : {},
  )
  wantedBy = ["multi-user.target"]
}

# prometheus-config-reload will activate after prometheus. However, what we
# don't want is that on startup it immediately reloads prometheus because
# prometheus itself might have just started.
#
# Instead we only want to reload prometheus when the config file has
# changed. So on startup prometheus-config-reload will just output a
# harmless message and then stay active (RemainAfterExit).
#
# Then, when the config file has changed, nodegen switch notices that this
# service has changed (restartTriggers) and needs to be reloaded
# (reloadIfChanged). The reload command then reloads prometheus.
config "systemd.services.prometheus-config-reload" {
  when            = local.prometheus.enable && local.prometheus.enableReload
  after           = ["prometheus.service"]
  reloadIfChanged = true
  restartTriggers = [local.prometheusYml]
  serviceConfig = {
    ExecReload      = ["/etc/prometheus/trigger-reload-prometheus"]
    ExecStart       = "/usr/bin/logger 'prometheus-config-reload will only reload prometheus when reloaded itself.'"
    RemainAfterExit = true
    TimeoutSec      = 60
    Type            = "oneshot"
  }
  wantedBy = ["prometheus.service"]
}

config "users" {
  when   = local.prometheus.enable
  groups = { prometheus = {} }
  users = {
    prometheus = {
      description  = "Prometheus daemon user"
      group        = "prometheus"
      isSystemUser = true
    }
  }
}

# What NixOS takes from pkgs.prometheus: Debian's package, installed by
# nodegen switch.
config "environment.packages.prometheus" {
  when     = local.prometheus.enable
  provides = [local.prometheusBin, local.promtoolBin]
}
config "environment.packages.bsdutils" {
  when     = local.prometheus.enable && local.prometheus.enableReload
  provides = ["/usr/bin/logger"]
}
