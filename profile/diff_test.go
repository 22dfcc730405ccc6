package profile

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func unit(name, text string) Entry {
	return Entry{Target: "systemd/system/" + name, Content: []byte(text), Mode: "0644", Option: "systemd.units." + name}
}

func wants(dir, name string) Entry {
	return Entry{Target: "systemd/system/" + dir + "/" + name, Link: "/etc/systemd/system/" + name, Mode: "symlink", Option: "wantedBy"}
}

func svc(extra string) string { return "[Service]\nExecStart=/bin/x" + extra + "\n" }

func writePair(t *testing.T, old, cur []Entry) (string, string) {
	t.Helper()
	base := t.TempDir()
	a, b := filepath.Join(base, "old"), filepath.Join(base, "new")
	mustWrite(t, a, Profile{Entries: old})
	mustWrite(t, b, Profile{Entries: cur})
	return a, b
}

func TestDiffFiles(t *testing.T) {
	old := []Entry{
		{Target: "hostname", Content: []byte("node1\n"), Mode: "0644", Option: "networking.hostName"},
		{Target: "motd", Content: []byte("hello\n"), Mode: "0644", Option: "users.motd"},
		{Target: "secret", Content: []byte("a"), Mode: "0600", Option: "s"},
		{Target: "blob", Content: []byte("\x00\x01"), Mode: "0644", Option: "b"},
		{Target: "localtime", Link: "/usr/share/zoneinfo/UTC", Mode: "symlink", Option: "time.timeZone"},
		{Target: "resolv.conf", Content: []byte("nameserver 1.1.1.1\n"), Mode: "0644", Option: "r"},
		{Target: "same", Content: []byte("same\n"), Mode: "0644", Option: "same"},
	}
	cur := []Entry{
		{Target: "hostname", Content: []byte("node2\n"), Mode: "0644", Option: "networking.hostName"},
		{Target: "issue", Content: []byte("welcome\n"), Mode: "0644", Option: "issue"},
		{Target: "secret", Content: []byte("a"), Mode: "0640", Group: "kube", Option: "s"},
		{Target: "blob", Content: []byte("\x00\x02"), Mode: "0644", Option: "b"},
		{Target: "localtime", Link: "/usr/share/zoneinfo/Europe/Paris", Mode: "symlink", Option: "time.timeZone"},
		{Target: "resolv.conf", Link: "/run/systemd/resolve/stub-resolv.conf", Mode: "symlink", Option: "r"},
		{Target: "same", Content: []byte("same\n"), Mode: "0644", Option: "same"},
	}
	a, b := writePair(t, old, cur)
	c, err := Diff(a, b)
	if err != nil {
		t.Fatal(err)
	}
	var text strings.Builder
	if err := c.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	want := `added:
  etc/issue (file 0644 root:root)
removed:
  etc/motd (file 0644 root:root)
changed:
  etc/blob: content (binary)
  etc/hostname: content
  etc/localtime: target /usr/share/zoneinfo/UTC -> /usr/share/zoneinfo/Europe/Paris
  etc/resolv.conf: file 0644 root:root -> symlink -> /run/systemd/resolve/stub-resolv.conf
  etc/secret: mode 0600 -> 0640, owner root:root -> root:kube

Binary files a/etc/blob and b/etc/blob differ

diff a/etc/hostname b/etc/hostname
--- a/etc/hostname
+++ b/etc/hostname
@@ -1,1 +1,1 @@
-node1
+node2
`
	if diff := cmp.Diff(want, text.String()); diff != "" {
		t.Errorf("WriteText (-want +got):\n%s", diff)
	}

	js, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	var back map[string]any
	if err := json.Unmarshal(js, &back); err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"added", "removed", "changed", "units"} {
		if _, ok := back[key]; !ok {
			t.Errorf("JSON has no %q: %s", key, js)
		}
	}
	if !strings.Contains(string(js), `"start":[]`) {
		t.Errorf("empty unit lists are not []: %s", js)
	}

	same, err := Diff(a, a)
	if err != nil {
		t.Fatal(err)
	}
	text.Reset()
	same.WriteText(&text)
	if !same.Empty() || text.String() != "no changes\n" {
		t.Errorf("Diff of a profile with itself: %q", text.String())
	}
}

func TestDiffUnits(t *testing.T) {
	old := []Entry{
		unit("a.service", svc("")), wants("multi-user.target.wants", "a.service"),
		unit("b.service", svc("")), wants("multi-user.target.wants", "b.service"),
		unit("c.service", svc("")),
		unit("d.service", "[Unit]\nX-RestartIfChanged=false\n"+svc("")),
		unit("e.service", svc("")+"X-ReloadIfChanged=true\n"),
		unit("f.target", "[Unit]\nDescription=f\n"),
		unit("g.slice", "[Slice]\nCPUWeight=10\n"),
		unit("h.service", svc("")),
		unit("h.service.d/override.conf", "[Service]\nNice=1\n"),
		unit("i.service", svc("")),
		unit("j@.service", svc(" %i")),
		wants("multi-user.target.wants", "j@x.service"),
		unit("k.service", "[Unit]\nX-StopOnRemoval=false\n"+svc("")),
		unit("l.service", "[Unit]\nX-RestartIfChanged=false\n"+svc("")),
		unit("o.mount", "[Mount]\nWhat=/dev/sda1\nWhere=/o\n"),
		unit("p.service", svc("")),
		unit("q.socket", "[Socket]\nListenStream=/run/q.sock\n"),
		unit("r.service", "[Unit]\nRefuseManualStop=true\n"+svc("")),
		unit("s.service", svc("")),
		unit("s.service.d/no-restart.conf", "[Service]\nX-RestartIfChanged=false\n"),
		unit("t.service", "[Service]\nX-RestartIfChanged=false\n"+"ExecStart=/bin/x\n"),
		unit("t.service.d/restart.conf", "[Service]\nX-RestartIfChanged=\n"),
		unit("u.path", "[Path]\nPathExists=/u\n"),
		unit("v.service", "[Unit]\nX-Reload-Triggers=aaa\n"+svc("")),
		unit("w.service", "[Unit]\nX-Reload-Triggers=aaa\n"+svc("")),
	}
	cur := []Entry{
		unit("a.service", svc("")), wants("multi-user.target.wants", "a.service"),
		unit("c.service", svc(" -v")),
		unit("d.service", "[Unit]\nX-RestartIfChanged=false\n"+svc(" -v")),
		unit("e.service", svc(" -v")+"X-ReloadIfChanged=true\n"),
		unit("f.target", "[Unit]\nDescription=F\n"),
		unit("g.slice", "[Slice]\nCPUWeight=20\n"),
		unit("h.service", svc("")),
		unit("h.service.d/override.conf", "[Service]\nNice=2\n"),
		unit("h2.service.d/override.conf", "[Service]\nNice=2\n"),
		unit("i.service", svc("")), wants("multi-user.target.wants", "i.service"),
		unit("j@.service", svc(" -v %i")),
		wants("multi-user.target.wants", "j@x.service"),
		unit("l.service", svc(" -v")),
		unit("m.service", svc("")),
		unit("n.service", svc("")), wants("sockets.target.requires", "n.service"),
		unit("o.mount", "[Mount]\nWhat=/dev/sda2\nWhere=/o\n"),
		{Target: "systemd/system/p.service", Link: "/dev/null", Mode: "symlink", Option: "masked"},
		unit("q.socket", "[Socket]\nListenStream=/run/q2.sock\n"),
		unit("r.service", "[Unit]\nRefuseManualStop=true\n"+svc(" -v")),
		unit("s.service", svc(" -v")),
		unit("s.service.d/no-restart.conf", "[Service]\nX-RestartIfChanged=false\n"),
		unit("t.service", "[Service]\nX-RestartIfChanged=false\n"+"ExecStart=/bin/x -v\n"),
		unit("t.service.d/restart.conf", "[Service]\nX-RestartIfChanged=\n"),
		unit("u.path", "[Path]\nPathExists=/u2\n"),
		unit("v.service", "[Unit]\nX-Reload-Triggers=bbb\n"+svc("")),
		unit("w.service", "[Unit]\nX-Reload-Triggers=bbb\n"+svc(" -v")),
	}
	a, b := writePair(t, old, cur)
	c, err := Diff(a, b)
	if err != nil {
		t.Fatal(err)
	}
	want := UnitChanges{
		Start:        []string{"i.service", "n.service"},
		Stop:         []string{"b.service", "p.service"},
		Restart:      []string{"c.service", "h.service", "h2.service", "j@x.service", "l.service", "q.socket", "t.service", "w.service"},
		Reload:       []string{"e.service", "o.mount", "v.service"},
		NotRestarted: []string{"d.service", "r.service", "s.service"},
	}
	if diff := cmp.Diff(want, c.Units); diff != "" {
		t.Errorf("units (-want +got):\n%s", diff)
	}

	var text strings.Builder
	c.WriteText(&text)
	for _, line := range []string{
		"  stop: b.service p.service\n",
		"  restart: c.service h.service h2.service j@x.service l.service q.socket t.service w.service\n",
		"  reload: e.service o.mount v.service\n",
		"  start: i.service n.service\n",
		"  not restarted: d.service r.service s.service\n",
	} {
		if !strings.Contains(text.String(), line) {
			t.Errorf("WriteText has no line %q:\n%s", line, text.String())
		}
	}

	// Switching back: new units go, removed ones come back.
	back, err := Diff(b, a)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := back.Units.Stop, []string{"m.service", "n.service"}; !cmp.Equal(got, want) {
		t.Errorf("back: stop %v, want %v", got, want)
	}
	if got, want := back.Units.Start, []string{"b.service"}; !cmp.Equal(got, want) {
		t.Errorf("back: start %v, want %v", got, want)
	}
}

func TestDiffDetectsTampering(t *testing.T) {
	a, b := writePair(t,
		[]Entry{{Target: "x", Content: []byte("1\n"), Mode: "0644"}},
		[]Entry{{Target: "x", Content: []byte("2\n"), Mode: "0644"}})
	if err := writeFile(filepath.Join(b, "etc/y"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Diff(a, b); err != nil {
		t.Fatalf("an extra file outside the manifest is not read: %v", err)
	}
	if err := os.WriteFile(filepath.Join(b, "etc/x"), []byte("3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Diff(a, b); err == nil || !strings.Contains(err.Error(), "does not match") {
		t.Errorf("Diff of a modified profile: %v", err)
	}
	if _, err := Diff(a, t.TempDir()); err == nil {
		t.Error("Diff with a non-profile succeeded")
	}
}

func TestUnifiedDiff(t *testing.T) {
	lines := func(n int, change map[int]string) string {
		var b strings.Builder
		for i := 1; i <= n; i++ {
			if s, ok := change[i]; ok {
				if s != "" {
					b.WriteString(s + "\n")
				}
				continue
			}
			fmt.Fprintf(&b, "l%d\n", i)
		}
		return b.String()
	}
	tests := []struct {
		name, a, b, want string
	}{
		{"equal", "a\n", "a\n", ""},
		{"middle", lines(10, nil), lines(10, map[int]string{5: "five"}), `diff a/f b/f
--- a/f
+++ b/f
@@ -2,7 +2,7 @@
 l2
 l3
 l4
-l5
+five
 l6
 l7
 l8
`},
		{"two hunks", lines(20, nil), lines(20, map[int]string{2: "", 18: "x"}), `diff a/f b/f
--- a/f
+++ b/f
@@ -1,5 +1,4 @@
 l1
-l2
 l3
 l4
 l5
@@ -15,6 +14,6 @@
 l15
 l16
 l17
-l18
+x
 l19
 l20
`},
		{"merged hunks", lines(12, nil), lines(12, map[int]string{3: "c", 9: "i"}), `diff a/f b/f
--- a/f
+++ b/f
@@ -1,12 +1,12 @@
 l1
 l2
-l3
+c
 l4
 l5
 l6
 l7
 l8
-l9
+i
 l10
 l11
 l12
`},
		{"from empty", "", "a\nb\n", `diff a/f b/f
--- a/f
+++ b/f
@@ -0,0 +1,2 @@
+a
+b
`},
		{"to empty", "a\n", "", `diff a/f b/f
--- a/f
+++ b/f
@@ -1,1 +0,0 @@
-a
`},
		{"no newline", "a\nb", "a\nb\n", `diff a/f b/f
--- a/f
+++ b/f
@@ -1,2 +1,2 @@
 a
-b
\ No newline at end of file
+b
`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := unifiedDiff("a/f", "b/f", []byte(tt.a), []byte(tt.b))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestDiffBinaries(t *testing.T) {
	asset := func(name, sha string, path string) Asset {
		return Asset{Name: name, URL: "https://example.com/" + name, SHA256: strings.Repeat(sha, 64), Files: []AssetFile{{Path: path}}, Option: "environment.assets." + name}
	}
	dir := t.TempDir()
	write := func(name string, assets []Asset, pkgs ...string) string {
		var ps []Package
		for _, p := range pkgs {
			ps = append(ps, Package{Name: p, Option: "environment.packages." + p})
		}
		d := filepath.Join(dir, name)
		if err := Write(d, Profile{Entries: []Entry{{Target: "hostname", Content: []byte("h"), Mode: "0644"}}, Assets: assets, Packages: ps}); err != nil {
			t.Fatal(err)
		}
		return d
	}
	old := write("old", []Asset{asset("kubelet", "a", "/opt/k/kubelet"), asset("gone", "b", "/usr/local/bin/gone")}, "curl", "socat")
	cur := write("new", []Asset{asset("kubelet", "c", "/opt/k/kubelet"), asset("crictl", "d", "/usr/local/bin/crictl")}, "curl", "conntrack")
	ch, err := Diff(old, cur)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := ch.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	want := "binaries:\n" +
		"  + asset crictl: https://example.com/crictl (sha256-" + strings.Repeat("d", 64) + ")\n" +
		"  - asset gone: https://example.com/gone\n" +
		"  ~ asset kubelet: https://example.com/kubelet (sha256-aaaaaaaaaaaa) -> https://example.com/kubelet (sha256-cccccccccccc)\n" +
		"  + package conntrack\n" +
		"  - package socat\n"
	if d := cmp.Diff(want, b.String()); d != "" {
		t.Errorf("diff text (-want +got):\n%s", d)
	}
	if same, err := Diff(old, old); err != nil || same.Binaries != nil || !same.Empty() {
		t.Errorf("a profile against itself: %+v, %v", same.Binaries, err)
	}
}
