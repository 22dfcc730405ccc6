package profile

import (
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestScriptExecutables(t *testing.T) {
	for _, tc := range []struct {
		script string
		want   []string
	}{
		{"#!/bin/sh -e\necho hi\n", []string{"/bin/sh"}},
		{"#!/bin/bash\n/usr/bin/curl -s http://x && /usr/bin/test -f /etc/a || exit 1\n", []string{"/bin/bash", "/usr/bin/curl", "/usr/bin/test"}},
		{"while ! /usr/bin/curl --fail http://x; do sleep 1; done\n", []string{"/usr/bin/curl"}},
		{"if /bin/true; then exec /opt/bin/app --config /etc/app; fi\n", []string{"/bin/true", "/opt/bin/app"}},
		{"PATH=/usr/bin FOO=1 /usr/bin/env x | /usr/bin/tee /tmp/log\n", []string{"/usr/bin/env", "/usr/bin/tee"}},
		{"# /usr/bin/commented\necho \"/usr/bin/quoted\" $(/usr/bin/sub) ${X}/bin/y\n", []string{"/usr/bin/sub"}},
		{"cp /etc/a /etc/b\n", nil},
	} {
		if d := cmp.Diff(tc.want, scriptExecutables(tc.script)); d != "" {
			t.Errorf("%q (-want +got):\n%s", tc.script, d)
		}
	}
}

func TestUnitExecutables(t *testing.T) {
	for _, tc := range []struct {
		unit string
		want []unitExec
	}{
		{
			"[Service]\nExecStartPre=-/sbin/modprobe overlay\nExecStart=/usr/bin/containerd -c /etc/c\nExecStart=\nExecReload=/bin/kill -s HUP $MAINPID\nExecStop=${X}/bin/stop\nEnvironment=A=/usr/bin/x\n",
			[]unitExec{{"ExecStartPre", "/sbin/modprobe"}, {"ExecStart", "/usr/bin/containerd"}, {"ExecReload", "/bin/kill"}},
		},
		{
			"[Service]\r\nExecStart=/usr/bin/app\r\nExecStop = /bin/kill",
			[]unitExec{{"ExecStart", "/usr/bin/app"}, {"ExecStop", "/bin/kill"}},
		},
		{"", nil},
	} {
		if d := cmp.Diff(tc.want, unitExecutables(tc.unit), cmp.AllowUnexported(unitExec{})); d != "" {
			t.Errorf("%q (-want +got):\n%s", tc.unit, d)
		}
	}
}

// executablesEntries are the entries of TestCheckExecutables.
var executablesEntries = []Entry{
	{Target: "systemd/system/app.service", Content: []byte("[Service]\nExecStart=/opt/app/bin/app\nExecStartPre=/etc/nodegen/scripts/app-pre-start\nExecStop=/bin/kill $MAINPID\n"), Mode: "0644", Option: "systemd.services.app"},
	{Target: "systemd/system/app.service.d/override.conf", Content: []byte("[Service]\nExecStartPost=/usr/bin/curl -s x\n"), Mode: "0644", Option: "systemd.services.app"},
	{Target: "nodegen/scripts/app-pre-start", Content: []byte("#!/bin/sh -e\n/usr/bin/socat - TCP:x\n"), Mode: "0755", Option: "systemd.services.app.preStart"},
	{Target: "systemd/system/multi-user.target.wants/app.service", Mode: TypeSymlink, Link: "/etc/systemd/system/app.service", Option: "systemd.services.app"},
}

// checkExecutables is CheckExecutables of executablesEntries, and what it
// should return.
func checkExecutables() (got, want []string) {
	assets := []Asset{{Name: "app", Files: []AssetFile{{Path: "/opt/app/bin/app"}}}}
	got = CheckExecutables(executablesEntries, assets, []string{"/bin/sh", "/bin/kill", "/usr/bin/curl"})
	want = []string{
		"systemd.services.app.preStart: /etc/nodegen/scripts/app-pre-start runs /usr/bin/socat, which no asset, package or image provides; declare it in environment.assets or environment.packages, or list it in environment.providedByImage",
	}
	return got, want
}

func TestCheckExecutables(t *testing.T) {
	if got, want := checkExecutables(); !cmp.Equal(want, got) {
		t.Errorf("(-want +got):\n%s", cmp.Diff(want, got))
	}
}

// TestCheckExecutablesShared checks from goroutines at once, as nodegen
// build does, so that the units and scripts come from the memos (run
// with -race): the same warnings, and what the memos hold is still what
// reading each text anew gives.
func TestCheckExecutablesShared(t *testing.T) {
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for range 10 {
				if got, want := checkExecutables(); !cmp.Equal(want, got) {
					t.Errorf("(-want +got):\n%s", cmp.Diff(want, got))
				}
			}
		})
	}
	wg.Wait()
	for _, e := range executablesEntries {
		text := string(e.Content)
		if d := cmp.Diff(unitExecutables(text), unitExecs.Get(text), cmp.AllowUnexported(unitExec{})); d != "" {
			t.Errorf("the unit %s (-read anew +held):\n%s", e.Target, d)
		}
		if d := cmp.Diff(scriptExecutables(text), scriptExecs.Get(text)); d != "" {
			t.Errorf("the script %s (-read anew +held):\n%s", e.Target, d)
		}
	}
}

// TestCheckExecutablesBareNames: the commands a script runs by bare name
// are looked up in the PATH of the units that run it (systemd's when they
// set none); a builtin, a function or a quoted word is never a warning.
func TestCheckExecutablesBareNames(t *testing.T) {
	unit := func(name, env string) Entry {
		return Entry{Target: "systemd/system/" + name + ".service", Mode: "0644", Option: "systemd.services." + name,
			Content: []byte("[Service]\n" + env + "ExecStartPre=/etc/nodegen/scripts/" + name + "-pre-start\n")}
	}
	script := func(name, text string) Entry {
		return Entry{Target: "nodegen/scripts/" + name + "-pre-start", Mode: "0755", Option: "systemd.services." + name + ".preStart", Content: []byte("#!/bin/sh -e\n" + text)}
	}
	base := []string{"/bin/sh", "/usr/bin/sleep", "/usr/bin/curl"}
	for _, tc := range []struct {
		name    string
		entries []Entry
		want    []string
	}{
		{"found in systemd's PATH", []Entry{unit("a", ""), script("a", "while ! curl -fs x; do sleep 1; done\n")}, nil},
		{"a name nothing provides", []Entry{unit("a", ""), script("a", "wget -q x\necho done\n")}, []string{
			"systemd.services.a.preStart: /etc/nodegen/scripts/a-pre-start runs wget (line 2), which no asset, package or image provides in its PATH (/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin); declare its package in environment.systemPackages, or list its path in environment.providedByImage",
		}},
		{"the unit's PATH replaces systemd's (the asset's tool is found)", []Entry{unit("a", "Environment=\"PATH=/opt/tools/bin:/opt/tools/sbin\" A=1\n"), script("a", "sleep 1\ntool x\n")}, []string{
			"systemd.services.a.preStart: /etc/nodegen/scripts/a-pre-start runs sleep (line 2), which no asset, package or image provides in its PATH (/opt/tools/bin:/opt/tools/sbin); declare its package in environment.systemPackages, or list its path in environment.providedByImage",
		}},
		{"builtins, functions and expanded words", []Entry{unit("a", ""), script("a", "f() { :; }\nf\ncd /x && test -f y\n\"$TOOL\" z\nexport A=1\n")}, nil},
		{"a profile file by absolute path", []Entry{unit("a", ""), script("a", "/etc/nodegen/scripts/a-pre-start\n")}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assets := []Asset{{Name: "tool", Files: []AssetFile{{Path: "/opt/tools/bin/tool"}}}}
			if d := cmp.Diff(tc.want, CheckExecutables(tc.entries, assets, base)); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
}

// TestImagePrograms: the programs a profile runs that only the image
// provides, by absolute path or found in PATH, each once with the first
// option that runs it; what a package, an asset or the base system
// provides is not the image's.
func TestImagePrograms(t *testing.T) {
	entries := []Entry{
		{Target: "systemd/system/kubelet.service", Mode: "0644", Option: "systemd.services.kubelet", Content: []byte("[Service]\nExecStart=/opt/kubernetes/bin/kubelet --config x\nExecStartPre=/etc/nodegen/scripts/kubelet-pre-start\n")},
		{Target: "systemd/system/proxy.service", Mode: "0644", Option: "systemd.services.proxy", Content: []byte("[Service]\nExecStart=/opt/kubernetes/bin/kubelet --proxy\n")},
		{Target: "nodegen/scripts/kubelet-pre-start", Mode: "0755", Option: "systemd.services.kubelet.preStart", Content: []byte("#!/bin/sh -e\niptables -L\ncurl x\nmkdir -p /y\n")},
	}
	provided := []string{"/bin/sh", "/usr/bin/mkdir", "/usr/bin/curl"}
	image := []string{"/opt/kubernetes/bin/kubelet", "/usr/sbin/iptables", "/usr/bin/curl", "/usr/bin/unused"}
	want := []ImageProgram{
		{Path: "/opt/kubernetes/bin/kubelet", Option: "systemd.services.kubelet"},
		{Path: "/usr/sbin/iptables", Option: "systemd.services.kubelet.preStart"},
	}
	if d := cmp.Diff(want, ImagePrograms(entries, nil, provided, image)); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	if got := ImagePrograms(entries, []Asset{{Name: "k", Files: []AssetFile{{Path: "/opt/kubernetes/bin/kubelet"}}}}, provided, image); len(got) != 1 || got[0].Path != "/usr/sbin/iptables" {
		t.Errorf("with kubelet as an asset: %v", got)
	}
}

// TestUnitPATH reads Environment=PATH= as systemd splits the setting.
func TestUnitPATH(t *testing.T) {
	for _, tc := range []struct {
		unit string
		want []string
	}{
		{"[Service]\nEnvironment=\"PATH=/usr/bin:/usr/sbin\"\n", []string{"/usr/bin", "/usr/sbin"}},
		{"[Service]\nEnvironment=A=1 PATH=/opt/x/bin 'B=two words'\n", []string{"/opt/x/bin"}},
		{"[Service]\nEnvironment=\"A=PATH=/no\"\n", nil},
		{"[Service]\nEnvironment=PATH=/a\nEnvironment=PATH=/b\n", []string{"/b"}},
		{"[Service]\nExecStart=/bin/true\n", nil},
	} {
		if d := cmp.Diff(tc.want, unitPATH(tc.unit)); d != "" {
			t.Errorf("%q (-want +got):\n%s", tc.unit, d)
		}
	}
}

// TestValidateImagePrograms refuses what no evaluation writes.
func TestValidateImagePrograms(t *testing.T) {
	for _, ps := range [][]ImageProgram{
		{{Path: "relative"}},
		{{Path: "/a/../b"}},
		{{Path: "/b"}, {Path: "/a"}},
		{{Path: "/a"}, {Path: "/a"}},
	} {
		if err := validateImagePrograms(ps); err == nil {
			t.Errorf("%v: accepted", ps)
		}
	}
	if err := validateImagePrograms([]ImageProgram{{Path: "/a"}, {Path: "/b"}}); err != nil {
		t.Error(err)
	}
}
