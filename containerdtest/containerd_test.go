package containerdtest

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/hashicorp/hcl/v2"
	"github.com/pelletier/go-toml/v2"

	"github.com/nodegen/nodegen/eval"
	"github.com/nodegen/nodegen/evalprofile"
	"github.com/nodegen/nodegen/internal/suitereport"
	"github.com/nodegen/nodegen/modules"
	"github.com/nodegen/nodegen/options"
)

const cri = "io.containerd.grpc.v1.cri"

// nri is the NRI plugin, which containerd has from 1.7 on.
const nri = "io.containerd.nri.v1.nri"

// fixtureWant lists, for each fixture, settings its config.toml must hold
// as containerd reads them back: a path in the dump and its value. Every
// fixtures/containerd-* directory with a config.toml needs an entry.
var fixtureWant = map[string][]setting{
	"containerd-default": {
		{path: []string{"version"}, value: int64(2)},
		{path: []string{"plugins", cri, "sandbox_image"}, value: "registry.k8s.io/pause:3.9"},
		{path: []string{"plugins", cri, "containerd", "runtimes", "runc", "runtime_type"}, value: "io.containerd.runc.v2"},
		{path: []string{"plugins", cri, "containerd", "runtimes", "runc", "options", "SystemdCgroup"}, value: true},
	},
	"containerd-mirrors-nri": {
		{path: []string{"plugins", cri, "sandbox_image"}, value: "registry.k8s.io/pause:3.9"},
		{path: []string{"plugins", cri, "enable_selinux"}, value: true},
		{path: []string{"plugins", cri, "containerd", "runtimes", "runc", "options", "SystemdCgroup"}, value: true},
		{path: []string{"plugins", cri, "registry", "mirrors", "docker.io", "endpoint"}, value: []any{"https://docker-cache.internal.example.com", "https://mirror.example.com"}},
		{path: []string{"plugins", cri, "registry", "mirrors", "*", "endpoint"}, value: []any{"https://fallback.example.com"}},
		{path: []string{"plugins", cri, "registry", "mirrors", "registry.k8s.io", "endpoint"}, value: []any{"https://k8s-cache.internal.example.com", "https://registry.k8s.io"}},
		{path: []string{"plugins", nri, "disable"}, value: false},
		{path: []string{"plugins", nri, "plugin_request_timeout"}, value: "2s"},
		{path: []string{"plugins", nri, "plugin_registration_timeout"}, value: "5s"},
	},
	"containerd-nvidia": {
		{path: []string{"plugins", cri, "sandbox_image"}, value: "registry.k8s.io/pause:3.9"},
		{path: []string{"plugins", cri, "containerd", "default_runtime_name"}, value: "runc"},
		{path: []string{"plugins", cri, "containerd", "runtimes", "runc", "options", "SystemdCgroup"}, value: true},
		{path: []string{"plugins", cri, "containerd", "runtimes", "nvidia", "runtime_type"}, value: "io.containerd.runc.v1"},
		{path: []string{"plugins", cri, "containerd", "runtimes", "nvidia", "privileged_without_host_devices"}, value: false},
		{path: []string{"plugins", cri, "containerd", "runtimes", "nvidia", "options", "BinaryName"}, value: "/usr/bin/nvidia-container-runtime"},
		{path: []string{"plugins", cri, "containerd", "runtimes", "nvidia", "options", "SystemdCgroup"}, value: true},
	},
	"containerd-kubenet": {
		{path: []string{"plugins", cri, "sandbox_image"}, value: "registry.k8s.io/pause:3.9"},
		{path: []string{"plugins", cri, "cni", "conf_template"}, value: "/etc/containerd/config-cni.template"},
		{path: []string{"plugins", cri, "containerd", "runtimes", "runc", "options", "SystemdCgroup"}, value: true},
	},
	"containerd-kubenet-ipv6": {
		{path: []string{"plugins", cri, "cni", "conf_template"}, value: "/etc/containerd/config-cni.template"},
		{path: []string{"plugins", cri, "containerd", "runtimes", "runc", "options", "SystemdCgroup"}, value: true},
	},
	"containerd-flatcar": {
		{path: []string{"plugins", cri, "sandbox_image"}, value: "registry.k8s.io/pause:3.9"},
		{path: []string{"plugins", cri, "cni", "conf_template"}, value: "/etc/containerd/config-cni.template"},
		{path: []string{"plugins", cri, "containerd", "runtimes", "runc", "options", "SystemdCgroup"}, value: true},
	},
	"containerd-containeros": {
		{path: []string{"plugins", cri, "sandbox_image"}, value: "registry.k8s.io/pause:3.9"},
		{path: []string{"plugins", cri, "containerd", "runtimes", "runc", "options", "SystemdCgroup"}, value: true},
	},
	"containerd-kubelet": {
		{path: []string{"plugins", cri, "sandbox_image"}, value: "registry.k8s.io/pause:3.9"},
		{path: []string{"plugins", cri, "cni", "conf_template"}, value: "/etc/containerd/config-cni.template"},
		{path: []string{"plugins", cri, "cni", "conf_dir"}, value: "/etc/kubernetes/cni/net.d"},
		{path: []string{"plugins", cri, "containerd", "runtimes", "runc", "options", "SystemdCgroup"}, value: true},
	},
	// Kubernetes workers on containerd (no docker): kubenet through
	// containerd's CNI template, or flannel's CNI config from the
	// default conf_dir, the plugins the kubelet links into /opt/cni/bin;
	// the sandbox image is containerd's own.
	"containerd-worker": {
		{path: []string{"plugins", cri, "cni", "conf_template"}, value: "/etc/containerd/config-cni.template"},
		{path: []string{"plugins", cri, "cni", "bin_dir"}, value: "/opt/cni/bin"},
		{path: []string{"plugins", cri, "cni", "conf_dir"}, value: "/etc/cni/net.d"},
		{path: []string{"plugins", cri, "containerd", "runtimes", "runc", "options", "SystemdCgroup"}, value: true},
	},
	"containerd-worker-flannel": {
		{path: []string{"plugins", cri, "cni", "conf_template"}, value: ""},
		{path: []string{"plugins", cri, "cni", "conf_dir"}, value: "/etc/cni/net.d"},
		{path: []string{"plugins", cri, "cni", "bin_dir"}, value: "/opt/cni/bin"},
		{path: []string{"plugins", cri, "containerd", "runtimes", "runc", "options", "SystemdCgroup"}, value: true},
	},
	"containerd-override": {
		{path: []string{"plugins", cri, "sandbox_image"}, value: "registry.example.com/pause:3.9"},
		{path: []string{"plugins", cri, "containerd", "runtimes", "runc", "options", "SystemdCgroup"}, value: false},
	},
}

// setting is a value at a path of a containerd config.
type setting struct {
	path  []string
	value any
}

// TestConfigDump loads every fixture's config.toml with the real
// containerd and reads back, from `config dump`, the settings listed in
// fixtureWant and every value the file itself sets.
func TestConfigDump(t *testing.T) {
	bin := requireContainerd(t)
	files, err := filepath.Glob("../fixtures/containerd-*/want/etc/containerd/config.toml")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no fixtures/containerd-*/want/etc/containerd/config.toml")
	}
	seen := map[string]bool{}
	for _, file := range files {
		name := filepath.Base(filepath.Dir(filepath.Dir(filepath.Dir(filepath.Dir(file)))))
		seen[name] = true
		t.Run(name, func(t *testing.T) {
			want, ok := fixtureWant[name]
			if !ok {
				t.Fatalf("fixtureWant has no entry for %s: list the settings its config.toml must hold", name)
			}
			for _, p := range checkDump(t, file, configDump(t, bin, file), want) {
				t.Error(p)
			}
		})
	}
	for name := range fixtureWant {
		if !seen[name] {
			t.Errorf("fixtureWant lists %s, which has no config.toml", name)
		}
	}
}

// checkDump checks that dump, containerd's reading of file, holds the
// settings want and every value that file sets, and returns what does not
// hold. Settings of a plugin that this containerd does not have (NRI
// before 1.7) cannot be read back; they are checked in the file and
// logged.
func checkDump(t *testing.T, file string, dump map[string]any, want []setting) []string {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var written map[string]any
	if err := toml.Unmarshal(b, &written); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	plugins, _ := lookup(dump, "plugins")
	hasPlugin := func(path []string) bool {
		if len(path) < 2 || path[0] != "plugins" {
			return true
		}
		m, _ := plugins.(map[string]any)
		_, ok := m[path[1]]
		return ok
	}
	var problems []string
	for _, s := range want {
		in := dump
		if !hasPlugin(s.path) {
			t.Logf("this containerd has no plugin %q: %s checked in the file only", s.path[1], strings.Join(s.path, "."))
			in = written
		}
		got, ok := lookup(in, s.path...)
		if !ok {
			problems = append(problems, strings.Join(s.path, ".")+": missing")
			continue
		}
		if diff := cmp.Diff(s.value, got); diff != "" {
			problems = append(problems, fmt.Sprintf("%s (-want +got):\n%s", strings.Join(s.path, "."), diff))
		}
	}
	walkLeaves(written, nil, func(path []string, v any) {
		if !hasPlugin(path) {
			return
		}
		got, ok := lookup(dump, path...)
		if !ok {
			problems = append(problems, strings.Join(path, ".")+" is set in the file but not in containerd's dump")
			return
		}
		if !reflect.DeepEqual(v, got) {
			problems = append(problems, fmt.Sprintf("%s: the file sets %#v, containerd reads %#v", strings.Join(path, "."), v, got))
		}
	})
	return problems
}

// requireContainerd returns the containerd binary; without one the test
// fails in CI (.ci/run installs Debian's containerd) and is skipped
// elsewhere.
func requireContainerd(t *testing.T) string {
	t.Helper()
	return suitereport.Program(t, "containerd config dump (containerdtest)", "containerd", "Debian's containerd")
}

// configDump runs `containerd --config FILE config dump` and decodes what
// it prints.
func configDump(t *testing.T, bin, file string) map[string]any {
	t.Helper()
	cmd := exec.Command(bin, "--config", file, "config", "dump")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("containerd --config %s config dump: %v\n%s", file, err, stderr.String())
	}
	var dump map[string]any
	if err := toml.Unmarshal(stdout.Bytes(), &dump); err != nil {
		t.Fatalf("decoding containerd's dump: %v\n%s", err, stdout.String())
	}
	return dump
}

func lookup(m map[string]any, path ...string) (any, bool) {
	var cur any = m
	for _, seg := range path {
		mm, ok := cur.(map[string]any)
		if !ok {
			return nil, false
		}
		if cur, ok = mm[seg]; !ok {
			return nil, false
		}
	}
	return cur, true
}

// walkLeaves calls f with every value of m that is not a table, in key
// order.
func walkLeaves(m map[string]any, prefix []string, f func([]string, any)) {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		p := append(append([]string{}, prefix...), k)
		if sub, ok := m[k].(map[string]any); ok {
			walkLeaves(sub, p, f)
			continue
		}
		f(p, m[k])
	}
}

// evaluate evaluates the modules in files (host.hcl first) with the
// library.
func evaluate(t *testing.T, files map[string]string) *eval.Evaluator {
	t.Helper()
	fsys := fstest.MapFS{}
	for name, text := range files {
		fsys[name] = &fstest.MapFile{Data: []byte(text)}
	}
	ev, diags := eval.New(eval.Config{FS: fsys, Files: []string{"host.hcl"}, Library: modules.FS()})
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	return ev
}

// get reads the value at a config path as plain Go values.
func get(t *testing.T, ev *eval.Evaluator, path string) any {
	t.Helper()
	p, err := options.ParsePath(path)
	if err != nil {
		t.Fatal(err)
	}
	v, diags := ev.Get(p)
	if diags.HasErrors() {
		t.Fatalf("%s: %s", path, diags.Error())
	}
	return eval.GoValue(v)
}

// etc evaluates the whole configuration, checks it, and returns the
// profile's files by path below /etc (a symlink as "-> target").
func etc(t *testing.T, ev *eval.Evaluator) map[string]string {
	t.Helper()
	if _, diags := ev.Check(); diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	entries, diags := evalprofile.FromEvaluation(ev)
	if diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	out := map[string]string{}
	for _, e := range entries {
		if e.Mode == "symlink" {
			out[e.Target] = "-> " + e.Link
			continue
		}
		out[e.Target] = string(e.Content)
	}
	return out
}

func targets(files map[string]string) []string {
	var out []string
	for k := range files {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// TestMergeMirrorsAndForce: two modules add registry mirrors, and one
// forces a setting that another defines plainly; the result is one config
// with every mirror and the forced value, which containerd reads back.
// Endpoints of one registry concatenate in module order: host.hcl imports
// mirrors-a.hcl then mirrors-b.hcl, so b's come first (language.md,
// section 2).
func TestMergeMirrorsAndForce(t *testing.T) {
	ev := evaluate(t, map[string]string{
		"host.hcl": `
imports = ["./mirrors-a.hcl", "./mirrors-b.hcl", "./force.hcl"]
config "services.containerd" {
  enable       = true
  version      = "1.6.20"
  sandboxImage = "registry.k8s.io/pause:3.9"
  settings = {
    plugins = {
      "io.containerd.grpc.v1.cri" = { max_concurrent_downloads = 3 }
    }
  }
}
`,
		"mirrors-a.hcl": `
config "services.containerd" {
  registryMirrors = { "docker.io" = ["https://a.example.com"] }
}
`,
		"mirrors-b.hcl": `
config "services.containerd" {
  registryMirrors = {
    "docker.io" = ["https://b.example.com"]
    "quay.io"   = ["https://quay-mirror.example.com"]
  }
}
`,
		"force.hcl": `
config "services.containerd.settings" {
  plugins = {
    "io.containerd.grpc.v1.cri" = {
      max_concurrent_downloads = mkForce(10)
      sandbox_image            = mkForce("registry.example.com/pause:3.10")
    }
  }
}
`,
	})
	settings := get(t, ev, "services.containerd.settings")
	want := map[string]any{
		"version": int64(2),
		"plugins": map[string]any{
			cri: map[string]any{
				"max_concurrent_downloads": int64(10),
				"sandbox_image":            "registry.example.com/pause:3.10",
				"registry": map[string]any{
					"mirrors": map[string]any{
						"docker.io": map[string]any{"endpoint": []any{"https://b.example.com", "https://a.example.com"}},
						"quay.io":   map[string]any{"endpoint": []any{"https://quay-mirror.example.com"}},
					},
				},
				"containerd": map[string]any{
					"runtimes": map[string]any{
						"runc": map[string]any{
							"runtime_type": "io.containerd.runc.v2",
							"options":      map[string]any{"SystemdCgroup": true},
						},
					},
				},
			},
		},
	}
	if diff := cmp.Diff(want, settings); diff != "" {
		t.Errorf("settings (-want +got):\n%s", diff)
	}

	files := etc(t, ev)
	text, ok := files["containerd/config.toml"]
	if !ok {
		t.Fatalf("no containerd/config.toml in %v", targets(files))
	}
	var written map[string]any
	if err := toml.Unmarshal([]byte(text), &written); err != nil {
		t.Fatalf("config.toml: %v\n%s", err, text)
	}
	if diff := cmp.Diff(want, written); diff != "" {
		t.Errorf("config.toml (-want +got):\n%s", diff)
	}

	if _, err := exec.LookPath("containerd"); err != nil && !suitereport.InCI() {
		return
	}
	bin := requireContainerd(t)
	file := filepath.Join(t.TempDir(), "config.toml")
	if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	problems := checkDump(t, file, configDump(t, bin, file), []setting{
		{path: []string{"plugins", cri, "max_concurrent_downloads"}, value: int64(10)},
		{path: []string{"plugins", cri, "sandbox_image"}, value: "registry.example.com/pause:3.10"},
		{path: []string{"plugins", cri, "registry", "mirrors", "docker.io", "endpoint"}, value: []any{"https://b.example.com", "https://a.example.com"}},
		{path: []string{"plugins", cri, "registry", "mirrors", "quay.io", "endpoint"}, value: []any{"https://quay-mirror.example.com"}},
	})
	for _, p := range problems {
		t.Error(p)
	}
}

// TestSettingsPriorities: a plain definition in settings overrides the
// module's values (mkDefault), at any depth; two plain definitions that
// differ conflict.
func TestSettingsPriorities(t *testing.T) {
	ev := evaluate(t, map[string]string{"host.hcl": `
config "services.containerd" {
  enable          = true
  version         = "1.6.20"
  sandboxImage    = "registry.k8s.io/pause:3.9"
  registryMirrors = { "docker.io" = ["https://option.example.com"] }
  settings = {
    version = 3
    plugins = {
      "io.containerd.grpc.v1.cri" = {
        sandbox_image = "registry.example.com/pause:3.10"
        registry      = { mirrors = { "docker.io" = { endpoint = ["https://settings.example.com"] } } }
        containerd    = { runtimes = { runc = { options = { SystemdCgroup = false } } } }
      }
    }
  }
}
`})
	for path, want := range map[string]any{
		`services.containerd.settings.version`:                                                          int64(3),
		`services.containerd.settings.plugins."io.containerd.grpc.v1.cri".sandbox_image`:                "registry.example.com/pause:3.10",
		`services.containerd.settings.plugins."io.containerd.grpc.v1.cri".registry.mirrors."docker.io"`: map[string]any{"endpoint": []any{"https://settings.example.com"}},
		`services.containerd.settings.plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc`: map[string]any{
			"runtime_type": "io.containerd.runc.v2",
			"options":      map[string]any{"SystemdCgroup": false},
		},
	} {
		if diff := cmp.Diff(want, get(t, ev, path)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", path, diff)
		}
	}

	ev = evaluate(t, map[string]string{
		"host.hcl": `
imports = ["./other.hcl"]
config "services.containerd" {
  enable   = true
  version  = "1.6.20"
  settings = { plugins = { "io.containerd.grpc.v1.cri" = { sandbox_image = "a" } } }
}
`,
		"other.hcl": `
config "services.containerd.settings" {
  plugins = { "io.containerd.grpc.v1.cri" = { sandbox_image = "b" } }
}
`,
	})
	p, _ := options.ParsePath("services.containerd.settings")
	_, diags := ev.Get(p)
	if !diags.HasErrors() || !strings.Contains(diags.Error(), "Conflicting definitions") {
		t.Errorf("two plain sandbox images: want a conflict, got %v", diags)
	}
}

// TestVersion: the version must parse as kops' semver.ParseTolerant reads
// it; one that does not is an error at its definition.
func TestVersion(t *testing.T) {
	for _, v := range []string{"1.6.20", "v1.6", "1", " 1.7.0-rc.1 ", "1.7.0+build.5", "01.02.03", "2.0.0-beta.0.1-x"} {
		ev := evaluate(t, map[string]string{"host.hcl": fmt.Sprintf(`
config "services.containerd" {
  enable  = true
  version = %q
}
`, v)})
		if got := get(t, ev, "services.containerd.version"); got != v {
			t.Errorf("version %q: got %v", v, got)
		}
	}
	for _, v := range []string{"", "1.x", "1.6-rc", "1.2.3.4", "1.2.3-01", "latest", "1.2.3-", "1.2.3+"} {
		ev := evaluate(t, map[string]string{"host.hcl": fmt.Sprintf(`
config "services.containerd" {
  enable  = true
  version = %q
}
`, v)})
		p, _ := options.ParsePath("services.containerd.version")
		_, diags := ev.Get(p)
		if !diags.HasErrors() {
			t.Errorf("version %q: no error", v)
			continue
		}
		if !pointsAt(diags, "host.hcl", 4) {
			t.Errorf("version %q: the error does not point at host.hcl line 4:\n%s", v, diags.Error())
		}
		// The profile fails too, with the same error.
		if _, diags := ev.Check(); !pointsAt(diags, "host.hcl", 4) {
			t.Errorf("version %q: Check does not report the definition:\n%s", v, diags.Error())
		}
	}
}

// pointsAt reports whether some error of diags has its subject at line of
// file.
func pointsAt(diags hcl.Diagnostics, file string, line int) bool {
	for _, d := range diags {
		if d.Severity == hcl.DiagError && d.Subject != nil && filepath.Base(d.Subject.Filename) == file && d.Subject.Start.Line == line {
			return true
		}
	}
	return false
}

// TestVersionRequired: installing containerd needs its version (the seed's
// "error finding containerd version"); Flatcar and ContainerOS, and
// skipInstall, do not.
func TestVersionRequired(t *testing.T) {
	ev := evaluate(t, map[string]string{"host.hcl": `
config "services.containerd" { enable = true }
`})
	_, diags := ev.Check()
	if !diags.HasErrors() || !strings.Contains(diags.Error(), "services.containerd.version must be set") {
		t.Errorf("no version on debian: want the assertion, got %v", diags)
	}
	for _, body := range []string{`distribution = "flatcar"`, `distribution = "containeros"`, `skipInstall = true`} {
		ev := evaluate(t, map[string]string{"host.hcl": fmt.Sprintf(`
config "services.containerd" {
  enable = true
  %s
}
`, body)})
		if _, diags := ev.Check(); diags.HasErrors() {
			t.Errorf("%s without a version: %s", body, diags.Error())
		}
	}
}

// TestFiles checks which files each variant writes.
func TestFiles(t *testing.T) {
	cases := []struct {
		name string
		body string
		want []string
	}{
		{"disabled", `
  enable = false`, nil},
		{"skipInstall", `
  enable      = true
  skipInstall = true
  usesKubenet = true
  nonMasqueradeCIDR = "100.64.0.0/10"`, nil},
		{"debian", `
  enable  = true
  version = "1.6.20"`, []string{
			"containerd/config.toml", "crictl.yaml", "sysconfig/containerd",
			"systemd/system/containerd.service", "systemd/system/multi-user.target.wants/containerd.service",
		}},
		{"kubenet without a CIDR", `
  enable      = true
  version     = "1.6.20"
  usesKubenet = true`, []string{
			"containerd/config-cni.template", "containerd/config.toml", "crictl.yaml", "sysconfig/containerd",
			"systemd/system/containerd.service", "systemd/system/multi-user.target.wants/containerd.service",
		}},
		{"kubenet with a /0 CIDR", `
  enable      = true
  version     = "1.6.20"
  usesKubenet = true
  nonMasqueradeCIDR = "0.0.0.0/0"`, []string{
			"containerd/config-cni.template", "containerd/config.toml", "crictl.yaml", "sysconfig/containerd",
			"systemd/system/containerd.service", "systemd/system/multi-user.target.wants/containerd.service",
		}},
		{"CIDR without kubenet", `
  enable  = true
  version = "1.6.20"
  nonMasqueradeCIDR = "100.64.0.0/10"`, []string{
			"containerd/config.toml", "crictl.yaml", "sysconfig/containerd",
			"systemd/system/containerd.service", "systemd/system/multi-user.target.wants/containerd.service",
		}},
		{"containeros", `
  enable       = true
  distribution = "containeros"`, []string{
			"containerd/config.toml", "systemd/system/containerd.service.d/10-kops.conf",
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ev := evaluate(t, map[string]string{"host.hcl": `
config "networking" { hostName = "" }
config "services.containerd" {` + c.body + `
}
`})
			// (Every profile has /etc/hosts: it is not containerd's.)
			got := slices.DeleteFunc(targets(etc(t, ev)), func(f string) bool { return f == "hosts" })
			if diff := cmp.Diff(c.want, got, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("files (-want +got):\n%s", diff)
			}
		})
	}
}

// TestServiceAndFlags: CONTAINERD_OPTS holds the flags sorted as kops'
// flagbuilder sorts them, then extraOptions; Slice comes from
// runtimeCgroups with the systemd cgroup driver only; crictl and
// runtimeEndpoint follow address.
func TestServiceAndFlags(t *testing.T) {
	ev := evaluate(t, map[string]string{"host.hcl": `
config "services.containerd" {
  enable         = true
  version        = "1.6.20"
  state          = "/run/containerd"
  root           = "/var/lib/containerd"
  logLevel       = "debug"
  address        = "/run/cri/containerd.sock"
  extraOptions   = ["--log-format=json"]
  runtimeCgroups = "/system.slice/runtime/"
}
`})
	files := etc(t, ev)
	if got, want := files["sysconfig/containerd"], "CONTAINERD_OPTS=--address=/run/cri/containerd.sock --log-level=debug --root=/var/lib/containerd --state=/run/containerd --log-format=json"; got != want {
		t.Errorf("sysconfig/containerd:\n got %q\nwant %q", got, want)
	}
	if got, want := files["crictl.yaml"], "\nruntime-endpoint: unix:///run/cri/containerd.sock\n"; got != want {
		t.Errorf("crictl.yaml: got %q, want %q", got, want)
	}
	if got := get(t, ev, "services.containerd.runtimeEndpoint"); got != "unix:///run/cri/containerd.sock" {
		t.Errorf("runtimeEndpoint: %v", got)
	}
	if !strings.Contains(files["systemd/system/containerd.service"], "\nSlice=system.slice/runtime.slice\n") {
		t.Errorf("containerd.service has no Slice:\n%s", files["systemd/system/containerd.service"])
	}

	ev = evaluate(t, map[string]string{"host.hcl": `
config "services.containerd" {
  enable         = true
  version        = "1.6.20"
  cgroupDriver   = "cgroupfs"
  runtimeCgroups = "/podruntime"
}
`})
	if unit := etc(t, ev)["systemd/system/containerd.service"]; strings.Contains(unit, "Slice=") {
		t.Errorf("cgroupfs driver: containerd.service has a Slice:\n%s", unit)
	}
	if got := get(t, ev, "services.containerd.runtimeEndpoint"); got != "unix:///run/containerd/containerd.sock" {
		t.Errorf("runtimeEndpoint: %v", got)
	}
}

// TestKubenetIPv6 derives ipv6Only from the non-masquerade CIDR, as kops'
// IsIPv6Only does, and lets a host override it.
func TestKubenetIPv6(t *testing.T) {
	for _, c := range []struct {
		body string
		want bool
	}{
		{`nonMasqueradeCIDR = "fd00::/64"`, true},
		{`nonMasqueradeCIDR = "100.64.0.0/10"`, false},
		{`nonMasqueradeCIDR = "100.64.0.0/10"
  ipv6Only = true`, true},
	} {
		ev := evaluate(t, map[string]string{"host.hcl": `
config "services.containerd" {
  enable      = true
  version     = "1.6.20"
  usesKubenet = true
  ` + c.body + `
}
`})
		tmpl := etc(t, ev)["containerd/config-cni.template"]
		if got := strings.Contains(tmpl, `"routes": [{"dst":"0.0.0.0/0"},{"dst":"::/0"}]`); got != c.want {
			t.Errorf("%s: IPv6 route %v, want %v:\n%s", c.body, got, c.want, tmpl)
		}
	}
}

// TestDropInsVerify checks the Flatcar and ContainerOS drop-ins with
// systemd-analyze verify, on top of a containerd.service as those systems
// ship it.
func TestDropInsVerify(t *testing.T) {
	suitereport.Program(t, "systemd-analyze verify (containerdtest)", "systemd-analyze", "Debian's systemd")
	for _, fixture := range []string{"containerd-flatcar", "containerd-containeros"} {
		t.Run(fixture, func(t *testing.T) {
			dropIn, err := os.ReadFile(filepath.Join("..", "fixtures", fixture, "want/etc/systemd/system/containerd.service.d/10-kops.conf"))
			if err != nil {
				t.Fatal(err)
			}
			root := t.TempDir()
			unitDir := filepath.Join(root, "etc/systemd/system")
			write := func(name, text string, mode os.FileMode) {
				t.Helper()
				if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(name, []byte(text), mode); err != nil {
					t.Fatal(err)
				}
			}
			write(filepath.Join(unitDir, "containerd.service"), "[Unit]\nDescription=containerd container runtime\n\n[Service]\nType=notify\nExecStart=/usr/bin/containerd\n", 0o644)
			write(filepath.Join(unitDir, "containerd.service.d/10-kops.conf"), string(dropIn), 0o644)
			write(filepath.Join(root, "usr/bin/containerd"), "#!/bin/sh\nexit 0\n", 0o755)
			cmd := exec.Command("systemd-analyze", "verify", "--man=no", "--generators=no", "--recursive-errors=no", "--root="+root, "containerd.service")
			cmd.Env = append(os.Environ(), "SYSTEMD_LOG_LEVEL=notice")
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("systemd-analyze verify: %v\n%s", err, out)
			}
		})
	}
}

// TestConfigDumpCatchesMisplacedSetting proves the read-back has teeth: a
// setting in a table containerd does not know, or a value containerd
// does not read, fails checkDump.
func TestConfigDumpCatchesMisplacedSetting(t *testing.T) {
	bin := requireContainerd(t)
	for _, text := range []string{
		"version = 2\n[plugins.'io.containerd.grpc.v1.cri'.runtimes.runc.options]\nSystemdCgroup = true\n",
		"version = 2\n[plugins.'io.containerd.grpc.v1.cri']\nsandbox_imag = 'registry.k8s.io/pause:3.9'\n",
	} {
		file := filepath.Join(t.TempDir(), "config.toml")
		if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		if len(checkDump(t, file, configDump(t, bin, file), nil)) == 0 {
			t.Errorf("checkDump accepted a misplaced setting:\n%s", text)
		}
	}
}

// TestKubelet: with containerd enabled, the kubelet's configuration file
// gets containerd's CRI endpoint and cgroup driver, the kubelet starts after
// containerd, and containerd runs the CNI plugins the kubelet links with the
// configs of the kubelet's CNI directory; a host overrides any of it. Without
// a kubelet, the module adds no kubelet unit.
func TestKubelet(t *testing.T) {
	const kubelet = `
config "services.kubernetes" {
  masterAddress = "master01.example.com"
  release       = { skipInstall = true }
}
config "services.kubernetes.kubelet" {
  enable = true
  cni    = { configDir = "/etc/kubernetes/cni/net.d" }
}
`
	ev := evaluate(t, map[string]string{"host.hcl": kubelet + `
config "services.containerd" {
  enable       = true
  version      = "1.6.20"
  address      = "/run/cri/containerd.sock"
  cgroupDriver = "cgroupfs"
}
`})
	for path, want := range map[string]any{
		"services.kubernetes.kubelet.containerRuntimeEndpoint":   "unix:///run/cri/containerd.sock",
		"services.kubernetes.kubelet.settings.cgroupDriver":      "cgroupfs",
		`services.containerd.settings.plugins."` + cri + `".cni`: map[string]any{"bin_dir": "/opt/cni/bin", "conf_dir": "/etc/kubernetes/cni/net.d"},
		"systemd.services.kubelet.after":                         []any{"containerd.service", "network.target", "kube-apiserver.service"},
		"systemd.services.kubelet.wants":                         []any{"containerd.service"},
	} {
		if diff := cmp.Diff(want, get(t, ev, path)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", path, diff)
		}
	}
	if conf := etc(t, ev)["kubernetes/kubelet-config.json"]; !strings.Contains(conf, `"containerRuntimeEndpoint": "unix:///run/cri/containerd.sock"`) {
		t.Errorf("kubelet-config.json has no containerRuntimeEndpoint:\n%s", conf)
	}

	ev = evaluate(t, map[string]string{"host.hcl": kubelet + `
config "services.containerd" {
  enable  = true
  version = "1.6.20"
}
config "services.kubernetes.kubelet" {
  containerRuntimeEndpoint = "unix:///run/other.sock"
}
`})
	if diff := cmp.Diff("unix:///run/other.sock", get(t, ev, "services.kubernetes.kubelet.settings.containerRuntimeEndpoint")); diff != "" {
		t.Errorf("a host's endpoint (-want +got):\n%s", diff)
	}

	ev = evaluate(t, map[string]string{"host.hcl": `
config "services.containerd" {
  enable  = true
  version = "1.6.20"
}
`})
	files := etc(t, ev)
	for _, f := range []string{"systemd/system/kubelet.service", "containerd/config-cni.template", "kubernetes/kubelet-config.json"} {
		if _, ok := files[f]; ok {
			t.Errorf("no kubelet, but the profile has %s", f)
		}
	}
}

// containerd2 is the containerd 2 that TestConfigVersion3 loads a config
// version 3 with: $NODEGEN_CONTAINERD2, else the one `make containerd2`
// builds from the Go module proxy.
func containerd2() string {
	if bin := os.Getenv("NODEGEN_CONTAINERD2"); bin != "" {
		return bin
	}
	return "/var/cache/nodegen-e2e/containerd-v2.4.2/containerd"
}

// TestConfigVersion3 loads the config.toml of a Kubernetes node on
// containerd 2 (config version 3: the CRI plugin split into images and
// runtime, the sandbox image pinned, registries by config_path) with a
// real containerd 2 and reads back what the file sets.
func TestConfigVersion3(t *testing.T) {
	const suite = "containerd 2 config dump (containerdtest)"
	bin := containerd2()
	if info, err := os.Stat(bin); err != nil || info.Mode()&0o111 == 0 {
		suitereport.Skip(t, suite, "no containerd 2 at "+bin+"; make containerd2 builds it (or set NODEGEN_CONTAINERD2)")
	}
	suitereport.Ran(t, suite)
	ev := evaluate(t, map[string]string{"host.hcl": `
config "networking" { hostName = "node2" }
config "services.kubernetes" {
  roles         = ["node"]
  masterAddress = "master.example.com"
  release       = { skipInstall = true }
}
config "services.flannel.release" { skipInstall = true }
config "services.containerd" {
  version         = "2.4.2"
  sandboxImage    = "registry.k8s.io/pause:3.10"
  registryMirrors = { "docker.io" = ["https://mirror.example.com"] }
  binaries        = { fromPackages = false, sha256 = "0000000000000000000000000000000000000000000000000000000000000000" }
}
`})
	files := etc(t, ev)
	file := filepath.Join(t.TempDir(), "config.toml")
	if err := os.WriteFile(file, []byte(files["containerd/config.toml"]), 0o644); err != nil {
		t.Fatal(err)
	}
	const images, runtime = "io.containerd.cri.v1.images", "io.containerd.cri.v1.runtime"
	want := []setting{
		{path: []string{"plugins", images, "pinned_images", "sandbox"}, value: "registry.k8s.io/pause:3.10"},
		{path: []string{"plugins", images, "registry", "config_path"}, value: "/etc/containerd/certs.d"},
		{path: []string{"plugins", runtime, "containerd", "runtimes", "runc", "options", "SystemdCgroup"}, value: true},
		{path: []string{"plugins", runtime, "cni", "bin_dirs"}, value: []any{"/opt/cni/bin"}},
		{path: []string{"plugins", runtime, "cni", "conf_dir"}, value: "/etc/cni/net.d"},
	}
	dump := configDump(t, bin, file)
	for _, p := range checkDump(t, file, dump, want) {
		// containerd migrates a version 3 file to its own version (4 in
		// 2.4) as it loads it.
		if !strings.HasPrefix(p, "version: the file sets 3,") {
			t.Error(p)
		}
	}
	if v, _ := lookup(dump, "version"); v != int64(3) && v != int64(4) {
		t.Errorf("containerd read the file as version %v", v)
	}
	if hosts := files["containerd/certs.d/docker.io/hosts.toml"]; hosts != "[host.\"https://mirror.example.com\"]\n  capabilities = [\"pull\", \"resolve\"]\n" {
		t.Errorf("docker.io's hosts.toml:\n%s", hosts)
	}
}
