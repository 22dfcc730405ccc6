package profile

import (
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func script(name, text string) Entry {
	return Entry{Target: "nodegen/scripts/" + name, Content: []byte("#!/bin/sh\n" + text), Mode: "0755", Option: "systemd.services"}
}

// TestDiffUnitsWhatTheyRun: a unit whose file is the same is restarted
// when a file it runs changed: the script of an Exec*= setting, a script
// that one runs, an EnvironmentFile=, an asset's binary; a file named as
// an argument does not count (restartTriggers is for that). A unit whose
// only change is its reload triggers is reloaded, unless what it runs
// changed too.
func TestDiffUnitsWhatTheyRun(t *testing.T) {
	kubelet := func(sha string) Asset {
		return Asset{Name: "kubelet", URL: "https://dl.k8s.io/kubelet", SHA256: sha, Files: []AssetFile{{Path: "/opt/kubernetes/bin/kubelet"}}}
	}
	common := func(v string) []Entry {
		return []Entry{
			unit("pre.service", "[Service]\nExecStartPre=/etc/nodegen/scripts/pre-pre-start\nExecStart=/bin/sleep infinity\n"),
			script("pre-pre-start", "echo "+v+"\n"),
			unit("deep.service", "[Service]\nExecStart=!/etc/nodegen/scripts/deep-start\n"),
			script("deep-start", "/etc/nodegen/scripts/helper --x\n"),
			script("helper", "echo "+v+"\n"),
			unit("env.service", "[Service]\nEnvironmentFile=-/etc/env.conf\nExecStart=/bin/app\n"),
			{Target: "env.conf", Content: []byte("V=" + v + "\n"), Mode: "0644"},
			unit("arg.service", "[Service]\nExecStart=/bin/app --config /etc/arg.conf\n"),
			{Target: "arg.conf", Content: []byte("v " + v + "\n"), Mode: "0644"},
			unit("kubelet.service", "[Service]\nExecStart=/opt/kubernetes/bin/kubelet --v=2\n"),
			unit("reset.service", "[Service]\nExecStartPre=/etc/nodegen/scripts/pre-pre-start\nExecStartPre=\nExecStart=/bin/true\n"),
			unit("same.service", "[Service]\nExecStart=/etc/nodegen/scripts/same-start\n"),
			script("same-start", "echo same\n"),
		}
	}
	old := append(common("1"),
		unit("trig.service", "[Unit]\nX-Reload-Triggers=aaa\n[Service]\nExecStart=/etc/nodegen/scripts/trig-start\n"),
		script("trig-start", "echo 1\n"),
		unit("trig2.service", "[Unit]\nX-Reload-Triggers=aaa\n[Service]\nExecStart=/etc/nodegen/scripts/trig2-start\n"),
		script("trig2-start", "echo 1\n"),
		unit("rel.service", "[Service]\nX-ReloadIfChanged=true\nExecStart=/bin/sleep infinity\nExecReload=/etc/nodegen/scripts/rel-reload\n"),
		script("rel-reload", "echo 1\n"),
	)
	cur := append(common("2"),
		unit("trig.service", "[Unit]\nX-Reload-Triggers=bbb\n[Service]\nExecStart=/etc/nodegen/scripts/trig-start\n"),
		script("trig-start", "echo 2\n"),
		unit("trig2.service", "[Unit]\nX-Reload-Triggers=bbb\n[Service]\nExecStart=/etc/nodegen/scripts/trig2-start\n"),
		script("trig2-start", "echo 1\n"),
		unit("rel.service", "[Service]\nX-ReloadIfChanged=true\nExecStart=/bin/sleep infinity\nExecReload=/etc/nodegen/scripts/rel-reload\n"),
		script("rel-reload", "echo 2\n"),
	)
	base := t.TempDir()
	a, b := filepath.Join(base, "old"), filepath.Join(base, "new")
	mustWrite(t, a, Profile{Entries: old, Assets: []Asset{kubelet("1111111111111111111111111111111111111111111111111111111111111111")}})
	mustWrite(t, b, Profile{Entries: cur, Assets: []Asset{kubelet("2222222222222222222222222222222222222222222222222222222222222222")}})
	c, err := Diff(a, b)
	if err != nil {
		t.Fatal(err)
	}
	want := UnitChanges{
		Start:        []string{},
		Stop:         []string{},
		Restart:      []string{"deep.service", "env.service", "kubelet.service", "pre.service", "trig.service"},
		Reload:       []string{"rel.service", "trig2.service"},
		NotRestarted: []string{},
	}
	if d := cmp.Diff(want, c.Units); d != "" {
		t.Errorf("units (-want +got):\n%s", d)
	}
}

func TestRanPath(t *testing.T) {
	for _, tc := range []struct{ key, value, want string }{
		{"ExecStart", "/etc/nodegen/scripts/a-start --x", "/etc/nodegen/scripts/a-start"},
		{"ExecStartPre", "-+/etc/nodegen/scripts/a-pre-start", "/etc/nodegen/scripts/a-pre-start"},
		{"ExecStart", `"/etc/my dir/run" x`, "/etc/my dir/run"},
		{"ExecStart", "@/usr/bin/app app-name", "/usr/bin/app"},
		{"ExecStart", "app --x", ""},
		{"ExecStart", "/etc/%i/run", ""},
		{"EnvironmentFile", "-/etc/default/app", "/etc/default/app"},
		{"EnvironmentFile", "/etc/env.d/*.conf", ""},
	} {
		if got := ranPath(tc.key, tc.value); got != tc.want {
			t.Errorf("ranPath(%s, %q) = %q, want %q", tc.key, tc.value, got, tc.want)
		}
	}
}
