package profilecheck

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

// executablesFiles are the files of TestExecutables.
var executablesFiles = []File{
	{Path: "systemd/system/app.service", Content: []byte("[Service]\nExecStart=/opt/app/bin/app\nExecStartPre=/etc/nodegen/scripts/app-pre-start\nExecStop=/bin/kill $MAINPID\nExecReload=/usr/bin/nosuch\n"), Option: "systemd.services.app"},
	{Path: "systemd/system/app.service.d/override.conf", Content: []byte("[Service]\nExecStartPost=/usr/bin/curl -s x\n"), Option: "systemd.services.app"},
	{Path: "nodegen/scripts/app-pre-start", Content: []byte("#!/bin/sh -e\n/usr/bin/socat - TCP:x\n"), Option: "systemd.services.app.preStart"},
	{Path: "systemd/system/multi-user.target.wants/app.service", Link: "/etc/systemd/system/app.service", Option: "systemd.services.app"},
}

// executables is Executables of executablesFiles, as eval prints its
// problems, and what it should be.
func executables() (got, want []string) {
	for _, p := range Executables(executablesFiles, []string{"/opt/app/bin/app", "/bin/sh", "/bin/kill", "/usr/bin/curl"}) {
		got = append(got, p.String())
	}
	want = []string{
		"/etc/nodegen/scripts/app-pre-start: it runs /usr/bin/socat, which no asset, package or image provides; declare it in environment.assets or environment.packages, or list it in environment.providedByImage (from systemd.services.app.preStart)",
		"/etc/systemd/system/app.service: ExecReload runs /usr/bin/nosuch, which no asset, package or image provides; declare it in environment.assets or environment.packages, or list it in environment.providedByImage (from systemd.services.app)",
	}
	return got, want
}

func TestExecutables(t *testing.T) {
	if got, want := executables(); !cmp.Equal(want, got) {
		t.Errorf("(-want +got):\n%s", cmp.Diff(want, got))
	}
}

// TestExecutablesShared checks from goroutines at once, as nodegen build
// does, so that the units and scripts come from the memos (run with
// -race): the same problems, and what the memos hold is still what
// reading each text anew gives.
func TestExecutablesShared(t *testing.T) {
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for range 10 {
				if got, want := executables(); !cmp.Equal(want, got) {
					t.Errorf("(-want +got):\n%s", cmp.Diff(want, got))
				}
			}
		})
	}
	wg.Wait()
	for _, f := range executablesFiles {
		text := string(f.Content)
		if d := cmp.Diff(unitExecutables(text), unitExecs.Get(text), cmp.AllowUnexported(unitExec{})); d != "" {
			t.Errorf("the unit %s (-read anew +held):\n%s", f.Path, d)
		}
		if d := cmp.Diff(scriptExecutables(text), scriptExecs.Get(text)); d != "" {
			t.Errorf("the script %s (-read anew +held):\n%s", f.Path, d)
		}
	}
}

// TestExecutablesBareNames: the commands a script runs by bare name are
// looked up in the PATH of the units that run it (systemd's when they set
// none); a builtin, a function or a quoted word is never a problem. The
// problem is on the script's line.
func TestExecutablesBareNames(t *testing.T) {
	unit := func(name, env string) File {
		return File{Path: "systemd/system/" + name + ".service", Option: "systemd.services." + name,
			Content: []byte("[Service]\n" + env + "ExecStartPre=/etc/nodegen/scripts/" + name + "-pre-start\n")}
	}
	script := func(name, text string) File {
		return File{Path: "nodegen/scripts/" + name + "-pre-start", Option: "systemd.services." + name + ".preStart", Content: []byte("#!/bin/sh -e\n" + text)}
	}
	provided := []string{"/bin/sh", "/usr/bin/sleep", "/usr/bin/curl", "/opt/tools/bin/tool"}
	for _, tc := range []struct {
		name  string
		files []File
		want  []string
	}{
		{"found in systemd's PATH", []File{unit("a", ""), script("a", "while ! curl -fs x; do sleep 1; done\n")}, nil},
		{"a name nothing provides", []File{unit("a", ""), script("a", "wget -q x\necho done\n")}, []string{
			"/etc/nodegen/scripts/a-pre-start:2: it runs wget, which no asset, package or image provides in its PATH (/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin); declare its package in environment.systemPackages, or list its path in environment.providedByImage (from systemd.services.a.preStart)",
		}},
		{"the unit's PATH replaces systemd's (the asset's tool is found)", []File{unit("a", "Environment=\"PATH=/opt/tools/bin:/opt/tools/sbin\" A=1\n"), script("a", "sleep 1\ntool x\n")}, []string{
			"/etc/nodegen/scripts/a-pre-start:2: it runs sleep, which no asset, package or image provides in its PATH (/opt/tools/bin:/opt/tools/sbin); declare its package in environment.systemPackages, or list its path in environment.providedByImage (from systemd.services.a.preStart)",
		}},
		{"builtins, functions and expanded words", []File{unit("a", ""), script("a", "f() { :; }\nf\ncd /x && test -f y\n\"$TOOL\" z\nexport A=1\n")}, nil},
		{"a profile file by absolute path", []File{unit("a", ""), script("a", "/etc/nodegen/scripts/a-pre-start\n")}, nil},
		{"once per file, by line", []File{unit("a", ""), script("a", "wget x\nnosuch y\nwget z\n")}, []string{
			"/etc/nodegen/scripts/a-pre-start:2: it runs wget, which no asset, package or image provides in its PATH (/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin); declare its package in environment.systemPackages, or list its path in environment.providedByImage (from systemd.services.a.preStart)",
			"/etc/nodegen/scripts/a-pre-start:3: it runs nosuch, which no asset, package or image provides in its PATH (/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin); declare its package in environment.systemPackages, or list its path in environment.providedByImage (from systemd.services.a.preStart)",
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, p := range Executables(tc.files, provided) {
				got = append(got, p.String())
			}
			if d := cmp.Diff(tc.want, got); d != "" {
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
	files := []File{
		{Path: "systemd/system/kubelet.service", Option: "systemd.services.kubelet", Content: []byte("[Service]\nExecStart=/opt/kubernetes/bin/kubelet --config x\nExecStartPre=/etc/nodegen/scripts/kubelet-pre-start\n")},
		{Path: "systemd/system/proxy.service", Option: "systemd.services.proxy", Content: []byte("[Service]\nExecStart=/opt/kubernetes/bin/kubelet --proxy\n")},
		{Path: "nodegen/scripts/kubelet-pre-start", Option: "systemd.services.kubelet.preStart", Content: []byte("#!/bin/sh -e\niptables -L\ncurl x\nmkdir -p /y\n")},
	}
	provided := []string{"/bin/sh", "/usr/bin/mkdir", "/usr/bin/curl"}
	image := []string{"/opt/kubernetes/bin/kubelet", "/usr/sbin/iptables", "/usr/bin/curl", "/usr/bin/unused"}
	want := []ImageProgram{
		{Path: "/opt/kubernetes/bin/kubelet", Option: "systemd.services.kubelet"},
		{Path: "/usr/sbin/iptables", Option: "systemd.services.kubelet.preStart"},
	}
	if d := cmp.Diff(want, ImagePrograms(files, provided, image)); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	if got := ImagePrograms(files, append(provided, "/opt/kubernetes/bin/kubelet"), image); len(got) != 1 || got[0].Path != "/usr/sbin/iptables" {
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
