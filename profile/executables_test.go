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
