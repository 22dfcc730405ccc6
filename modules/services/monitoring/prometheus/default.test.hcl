# Tests of services.prometheus (default.hcl).

run "an empty configuration" {
  config "services.prometheus" {
    enable = true
  }
  assert {
    condition     = config.environment.etc["prometheus/prometheus.yaml"].text == "alerting:\n  alertmanagers: []\nglobal: {}\nrule_files: []\nscrape_configs: []\n"
    error_message = "null options are left out, as filterValidPrometheus does"
  }
  assert {
    condition     = config.systemd.services.prometheus.serviceConfig.ExecStart == "/usr/bin/prometheus \\\n  --config.file=/etc/prometheus/prometheus.yaml \\\n  --web.listen-address=0.0.0.0:9090 \\\n  --alertmanager.notification-queue-capacity=10000 \\\n  --storage.tsdb.path=/var/lib/prometheus2/data/"
    error_message = "NixOS's command line, one argument a line"
  }
  assert {
    condition     = config.users.users.prometheus.isSystemUser && contains(keys(config.users.groups), "prometheus") && config.systemd.services.prometheus.serviceConfig.StateDirectory == "prometheus2"
    error_message = "the prometheus user and its state directory"
  }
  assert {
    condition     = length(config.systemd.services.prometheus.restartTriggers) == 1 && !contains(keys(config.systemd.services), "prometheus-config-reload")
    error_message = "without enableReload a change restarts prometheus"
  }
}

run "the global configuration" {
  config "services.prometheus" {
    enable = true
    globalConfig = {
      scrape_interval = "15s"
      external_labels = { site = "lab" }
    }
  }
  assert {
    condition     = strcontains(config.environment.etc["prometheus/prometheus.yaml"].text, "global:\n  external_labels:\n    site: lab\n  scrape_interval: 15s\n")
    error_message = "set keys only"
  }
}

run "static, file and DNS discovery with relabelling" {
  config "services.prometheus" {
    enable = true
    scrapeConfigs = [{
      job_name               = "a"
      static_configs         = [{ targets = ["h:1"] }]
      file_sd_configs        = [{ files = ["/t/*.json"] }]
      dns_sd_configs         = [{ names = ["x.example"], type = "A", port = 9 }]
      relabel_configs        = [{ source_labels = ["__address__"], target_label = "host", regex = "(.*):.*" }]
      metric_relabel_configs = [{ action = "labeldrop", regex = "tmp_.*" }]
    }]
  }
  assert {
    condition = strcontains(config.environment.etc["prometheus/prometheus.yaml"].text, join("", [
      "  - dns_sd_configs:\n      - names:\n          - x.example\n        port: 9\n        type: A\n",
      "    file_sd_configs:\n      - files:\n          - /t/*.json\n",
      "    job_name: a\n",
      "    metric_relabel_configs:\n      - action: labeldrop\n        regex: tmp_.*\n",
      "    relabel_configs:\n      - regex: (.*):.*\n        source_labels:\n          - __address__\n        target_label: host\n",
      "    static_configs:\n      - labels: {}\n        targets:\n          - h:1\n",
    ]))
    error_message = "each discovery and relabelling without its nulls"
  }
}

run "auth and TLS" {
  config "services.prometheus" {
    enable = true
    scrapeConfigs = [{
      job_name      = "b"
      scheme        = "https"
      basic_auth    = { username = "u", password_file = "/k" }
      tls_config    = { ca_file = "/ca", insecure_skip_verify = true }
      authorization = { type = "Bearer", credentials_file = "/t" }
    }]
  }
  assert {
    condition     = strcontains(config.environment.etc["prometheus/prometheus.yaml"].text, "  - authorization:\n      credentials_file: /t\n      type: Bearer\n    basic_auth:\n      password_file: /k\n      username: u\n    job_name: b\n    scheme: https\n    tls_config:\n      ca_file: /ca\n      insecure_skip_verify: true\n")
    error_message = "basic auth, authorization and TLS without their nulls"
  }
}

run "rules and rule files" {
  config "services.prometheus" {
    enable    = true
    rules     = ["groups: []"]
    ruleFiles = ["./testdata/alerts.yml"]
  }
  assert {
    condition     = strcontains(config.environment.etc["prometheus/prometheus.yaml"].text, "rule_files:\n  - /etc/prometheus/rules/0-alerts.yml\n  - /etc/prometheus/prometheus.rules\n")
    error_message = "the rule files, then the rules"
  }
  assert {
    condition     = config.environment.etc["prometheus/prometheus.rules"].text == "groups: []" && file(config.environment.etc["prometheus/rules/0-alerts.yml"].source) == file("testdata/alerts.yml")
    error_message = "the rules are written, the rule file copied"
  }
  assert {
    condition     = strcontains(config.environment.etc["prometheus/prometheus.rules"].checks[0].script, "promtool check rules")
    error_message = "promtool checks the rules"
  }
}

run "checkConfig false runs no promtool" {
  config "services.prometheus" {
    enable      = true
    checkConfig = false
    rules       = ["groups: []"]
  }
  assert {
    condition     = length(config.environment.etc["prometheus/prometheus.yaml"].checks) == 0 && length(config.environment.etc["prometheus/prometheus.rules"].checks) == 0
    error_message = "no checks"
  }
}

run "listen address, port, retention and the web flags" {
  config "services.prometheus" {
    enable         = true
    listenAddress  = "[::1]"
    port           = 9091
    retentionTime  = "90d"
    webExternalUrl = "https://example.org/prometheus/"
    webConfigFile  = "/etc/prometheus/web.yml"
    extraFlags     = ["--log.level=debug"]
  }
  assert {
    condition     = config.systemd.services.prometheus.serviceConfig.ExecStart == "/usr/bin/prometheus \\\n  --log.level=debug \\\n  --config.file=/etc/prometheus/prometheus.yaml \\\n  --web.listen-address=[::1]:9091 \\\n  --alertmanager.notification-queue-capacity=10000 \\\n  --storage.tsdb.path=/var/lib/prometheus2/data/ \\\n  --web.external-url=https://example.org/prometheus/ \\\n  --storage.tsdb.retention.time=90d \\\n  --web.config.file=/etc/prometheus/web.yml"
    error_message = "extra flags first, then NixOS's in its order"
  }
}

run "agent mode has no rules or storage" {
  config "services.prometheus" {
    enable          = true
    enableAgentMode = true
    rules           = ["groups: []"]
  }
  assert {
    condition     = endswith(config.systemd.services.prometheus.serviceConfig.ExecStart, "--web.listen-address=0.0.0.0:9090 \\\n  --agent") && strcontains(config.environment.etc["prometheus/prometheus.yaml"].text, "rule_files: []\n")
    error_message = "--agent in place of the storage flags"
  }
}

run "configText replaces the generated file" {
  config "services.prometheus" {
    enable     = true
    configText = "scrape_configs: []\n"
  }
  assert {
    condition     = config.environment.etc["prometheus/prometheus.yaml"].text == "scrape_configs: []\n"
    error_message = "the text as written"
  }
}

run "enableReload reloads instead" {
  config "services.prometheus" {
    enable       = true
    enableReload = true
  }
  assert {
    condition     = config.systemd.services.prometheus.serviceConfig.ExecReload == "+/etc/prometheus/reload-prometheus" && length(config.systemd.services.prometheus.restartTriggers) == 0
    error_message = "prometheus reloads on a HUP and waits for the new file"
  }
  assert {
    condition     = config.systemd.services.prometheus-config-reload.reloadIfChanged && length(config.systemd.services.prometheus-config-reload.restartTriggers) == 1 && config.systemd.services.prometheus-config-reload.wantedBy == ["prometheus.service"]
    error_message = "prometheus-config-reload is reloaded on a change"
  }
}

run "a port in listenAddress is refused" {
  config "services.prometheus" {
    enable        = true
    listenAddress = "127.0.0.1:9090"
  }
  expect_error = "services.prometheus.listenAddress = 127.0.0.1; services.prometheus.port = 9090;"
}
