module github.com/nodegen/nodegen

go 1.26.0

require (
	github.com/agext/levenshtein v1.2.3
	github.com/apparentlymart/go-textseg/v15 v15.0.0
	github.com/chromedp/chromedp v0.23.1
	github.com/coreos/ignition/v2 v2.24.0
	github.com/coreos/vcontext v0.0.0-20230201181013-d72178a18687
	github.com/creack/pty v1.1.24
	github.com/google/go-cmp v0.7.0
	github.com/hashicorp/hcl/v2 v2.25.0
	github.com/opencontainers/go-digest v1.0.0
	github.com/opencontainers/image-spec v1.1.1
	github.com/pelletier/go-toml/v2 v2.4.3
	github.com/rogpeppe/go-internal v1.16.0
	github.com/spf13/pflag v1.0.10
	github.com/vincent-petithory/dataurl v1.0.0
	github.com/zclconf/go-cty v1.19.0
	github.com/zclconf/go-cty-debug v0.0.0-20240509010212-0d6042c53940
	go.yaml.in/yaml/v3 v3.0.6
	golang.org/x/sys v0.49.0
	golang.org/x/term v0.47.0
	golang.org/x/tools v0.52.0
	mvdan.cc/sh/v3 v3.12.0
	oras.land/oras-go/v2 v2.7.0
)

require (
	github.com/apparentlymart/go-textseg/v17 v17.0.1 // indirect
	github.com/aws/aws-sdk-go-v2 v1.39.2 // indirect
	github.com/chromedp/cdproto v0.160.1 // indirect
	github.com/coreos/go-json v0.0.0-20230131223807-18775e0fb4fb // indirect
	github.com/coreos/go-semver v0.3.1 // indirect
	github.com/coreos/go-systemd/v22 v22.6.0 // indirect
	github.com/go-json-experiment/json v0.0.0-20260213210345-44df1a37e875 // indirect
	github.com/mitchellh/go-wordwrap v1.0.1 // indirect
	golang.org/x/mod v0.42.0 // indirect
	golang.org/x/sync v0.24.0 // indirect
	golang.org/x/text v0.31.0 // indirect
)
