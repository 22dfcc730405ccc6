package deploy

import (
	"archive/tar"
	"context"
	"errors"
	"fmt"
	"github.com/nodegen/nodegen/internal/suitereport"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/nodegen/nodegen/profile"
)

// standIn is an ssh that plays a host: it keeps every command it is
// given (the last argument) in the file commands, and the stdin of each
// receive in receive.N; receive --missing answers with the file answer,
// switch runs switch.sh when there is one and prints the file switch.out
// (and switch.err, and exits with switch.code); a hook or health check
// (a command run through timeout -k 5) runs here; confirm --expire
// answers that no generation is active; and everything else succeeds.
const standIn = `#!/bin/sh
W=%q
case " $* " in *" -M "*) exec sleep 30;; esac
for a; do last=$a; done
printf '%%s\n' "$last" >> "$W/commands"
n=$(wc -l < "$W/commands")
case "$last" in
  "test -x "*) exit 0;;
  "test -f "*) exit 1;;
  *"receive --missing"*) cat > "$W/receive.$n"; cat "$W/answer"; exit 0;;
  *" receive "*) cat > "$W/receive.$n"; exit 0;;
  *" switch "*) [ ! -f "$W/switch.sh" ] || . "$W/switch.sh"; cat "$W/switch.out"; cat "$W/switch.err" >&2; exit $(cat "$W/switch.code");;
  *" timeout -k 5 "*) sh -c "$last"; exit $?;;
  *" confirm --expire "*) echo '[]'; exit 0;;
  *" confirm "*) echo '[{"number":1,"current":true}]'; exit 0;;
esac
exit 0
`

// hostileFixture is a host played by standIn, with a profile of two files
// evaluated for it.
type hostileFixture struct {
	t       *testing.T
	dir     string // standIn's files
	host    Host
	cfg     Config
	profile profile.Manifest
}

func newHostile(t *testing.T, keys map[string]Key) *hostileFixture {
	t.Helper()
	top := t.TempDir()
	f := &hostileFixture{t: t, dir: filepath.Join(top, "host")}
	if err := os.Mkdir(f.dir, 0o755); err != nil {
		t.Fatal(err)
	}
	ssh := filepath.Join(top, "ssh")
	f.write("ssh", fmt.Sprintf(standIn, f.dir))
	if err := os.Rename(filepath.Join(f.dir, "ssh"), ssh); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(ssh, 0o755); err != nil {
		t.Fatal(err)
	}
	f.write("answer", "")
	f.write("switch.out", "waiting for confirmation: generation 1\n")
	f.write("switch.err", "")
	f.write("switch.code", "0")
	local := filepath.Join(top, "profile")
	writeTestProfile(t, local, fileEntry("motd", "hello\n", "0644"), fileEntry("hostname", "web1\n", "0644"))
	m, err := profile.Read(local)
	if err != nil {
		t.Fatal(err)
	}
	f.profile = m
	f.host = Host{Name: "web1", Profile: local, Options: Options{Keys: keys}}
	f.cfg = Config{SSH: ssh, Binary: ssh, ConfirmTimeout: 5 * time.Second}
	return f
}

func (f *hostileFixture) write(name, text string) {
	f.t.Helper()
	if err := os.WriteFile(filepath.Join(f.dir, name), []byte(text), 0o644); err != nil {
		f.t.Fatal(err)
	}
}

// run deploys the host and returns its result and the commands it got.
func (f *hostileFixture) run() (HostResult, []string) {
	f.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	results, _, err := Run(ctx, f.cfg, []Host{f.host})
	if err != nil {
		f.t.Fatal(err)
	}
	data, _ := os.ReadFile(filepath.Join(f.dir, "commands"))
	return results[0], strings.Split(strings.TrimSpace(string(data)), "\n")
}

// received returns the stdin of each receive command, by the command.
func (f *hostileFixture) received(commands []string) map[string][]byte {
	f.t.Helper()
	out := map[string][]byte{}
	for i, c := range commands {
		if data, err := os.ReadFile(filepath.Join(f.dir, fmt.Sprintf("receive.%d", i+1))); err == nil {
			out[c] = data
		}
	}
	return out
}

// TestHostileMissingAnswer is N17: a host that answers receive --missing
// with anything but hashes of the profile's contents (a path out of the
// profile, /dev/zero, an unknown hash, an endless line) fails, named,
// and is sent nothing.
func TestHostileMissingAnswer(t *testing.T) {
	for _, tc := range []struct{ name, answer, want string }{
		{"a path to the deployer's key", "../../../../../../../../root/.ssh/id_ed25519\n", `line 1 is not a SHA-256 hash: "../../../../../../../../root/.ssh/id_ed25519"`},
		{"/dev/zero", "../../../../../../../dev/zero\n", `line 1 is not a SHA-256 hash: "../../../../../../../dev/zero"`},
		{"a path of the profile", "etc/motd\n", `line 1 is not a SHA-256 hash: "etc/motd"`},
		{"an unknown hash", sha256Hex("id_ed25519") + "\n", "line 1, " + sha256Hex("id_ed25519") + ", is the hash of no file of the profile"},
		{"an endless line", strings.Repeat("0", 1<<20), "the answer has 1048576 bytes, more than the 130 of all 2 contents of the manifest"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newHostile(t, nil)
			f.write("answer", tc.answer)
			r, commands := f.run()
			if r.Outcome != Failed || r.Host != "web1" || !strings.Contains(r.Message, "the host's answer to receive --missing is refused (nothing was sent): "+tc.want) {
				t.Fatalf("result %+v", r)
			}
			for _, c := range commands {
				if strings.Contains(c, " receive /") || strings.Contains(c, " switch ") {
					t.Errorf("after the answer, the host got %q", c)
				}
			}
		})
	}
}

// TestDeploySendsOnlyMissing: the host's answer names one content; the
// stream sent is the manifest and that file, read from the deployer's
// profile.
func TestDeploySendsOnlyMissing(t *testing.T) {
	f := newHostile(t, nil)
	f.write("answer", sha256Hex("hello\n")+"\n")
	r, commands := f.run()
	if r.Outcome != Confirmed {
		t.Fatalf("result %+v\ncommands:\n%s", r, strings.Join(commands, "\n"))
	}
	var stream []byte
	for c, data := range f.received(commands) {
		if strings.Contains(c, " receive /var/lib/nodegen/deploy/profiles/") {
			stream = data
		}
	}
	var names []string
	tr := tar.NewReader(strings.NewReader(string(stream)))
	for {
		hdr, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, hdr.Name)
	}
	if diff := cmp.Diff([]string{profile.ManifestName, "etc/motd"}, names); diff != "" {
		t.Errorf("sent (-want +got):\n%s", diff)
	}
}

// TestDeployEscapesHostOutput is N21: what a host prints when its switch
// fails reaches the result escaped.
func TestDeployEscapesHostOutput(t *testing.T) {
	f := newHostile(t, nil)
	f.write("switch.out", "")
	f.write("switch.err", "refused\x1b]0;TITLE-SET-BY-HOST\x07\x1b]52;c;ZWNobyBwd25lZA==\x07\n")
	f.write("switch.code", "1")
	r, _ := f.run()
	if r.Outcome != Failed {
		t.Fatalf("result %+v", r)
	}
	if strings.ContainsAny(r.Output+r.Message, "\x1b\x07") || !strings.Contains(r.Output, `refused\x1b]0;TITLE-SET-BY-HOST\x07`) {
		t.Errorf("output %q", r.Output)
	}
}

// TestDeployKeys: each key is staged on the host for this attempt with
// nodegen receive --key --stage ID, its name, owner, mode and directory as
// arguments (quoted), its content on stdin; one ID for all the keys of the
// attempt, and the switch copies that stage into its generation with
// --keys (N5: keys belong to a generation).
func TestDeployKeys(t *testing.T) {
	text := "s3cret\n"
	keyFile := filepath.Join(t.TempDir(), "api")
	if err := os.WriteFile(keyFile, []byte("from a file"), 0o600); err != nil {
		t.Fatal(err)
	}
	f := newHostile(t, map[string]Key{
		"db":  {Name: "db", Text: &text, DestDir: "/run/keys", User: "postgres", Group: "postgres", Permissions: "0400"},
		"api": {Name: "api token", KeyFile: &keyFile, DestDir: "/var/lib/app/keys", User: "root", Group: "root", Permissions: "0600"},
	})
	r, commands := f.run()
	if r.Outcome != Confirmed {
		t.Fatalf("result %+v", r)
	}
	stage := regexp.MustCompile(` --stage ([0-9a-f]{32}) `)
	got := map[string]string{}
	ids := map[string]bool{}
	for c, data := range f.received(commands) {
		if i := strings.Index(c, " receive --key "); i >= 0 {
			m := stage.FindStringSubmatch(c)
			if m == nil {
				t.Fatalf("a key was not staged: %s", c)
			}
			ids[m[1]] = true
			got[strings.Replace(c[i+1:], m[1], "ID", 1)] = string(data)
		}
	}
	want := map[string]string{
		"receive --key db --stage ID --user postgres --group postgres --mode 0400 -- /run/keys":          "s3cret\n",
		"receive --key 'api token' --stage ID --user root --group root --mode 0600 -- /var/lib/app/keys": "from a file",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("keys (-want +got):\n%s", diff)
	}
	if len(ids) != 1 {
		t.Fatalf("want one stage for the attempt, got %v", ids)
	}
	var id string
	for id = range ids {
	}
	j := slices.IndexFunc(commands, func(c string) bool { return strings.Contains(c, " switch ") })
	if i := slices.IndexFunc(commands, func(c string) bool { return strings.Contains(c, "--key ") }); i < 0 || j < 0 || i > j {
		t.Fatalf("the keys were not staged before the switch:\n%s", strings.Join(commands, "\n"))
	}
	if !strings.Contains(commands[j], " --keys /var/lib/nodegen/deploy/keys/"+id+" ") {
		t.Errorf("the switch does not take the attempt's stage: %s", commands[j])
	}
}

// TestKeyFileNotRegular is N6: a keyFile that is a device or a FIFO fails
// the host at once, before any connection, and never blocks.
func TestKeyFileNotRegular(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		suitereport.Skip(t, "deploy keyFile checks", fmt.Sprintf("no FIFO here: %v", err))
	}
	big := filepath.Join(t.TempDir(), "big")
	if err := os.WriteFile(big, make([]byte, MaxKeySize+1), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ path, want string }{
		{"/dev/zero", "deployment.keys.k: keyFile /dev/zero: it is a character device, not a regular file"},
		{fifo, "deployment.keys.k: keyFile " + fifo + ": it is a FIFO, not a regular file"},
		{big, fmt.Sprintf("deployment.keys.k: keyFile %s: it has %d bytes, more than %d", big, MaxKeySize+1, MaxKeySize)},
	} {
		t.Run(filepath.Base(tc.path), func(t *testing.T) {
			p := tc.path
			f := newHostile(t, map[string]Key{"k": {Name: "k", KeyFile: &p, DestDir: "/run/keys", User: "root", Group: "root", Permissions: "0600"}})
			r, commands := f.run()
			if r.Outcome != Failed || !strings.Contains(r.Message, tc.want) {
				t.Fatalf("result %+v", r)
			}
			// Only ssh -G, which reads the host's configuration, ran.
			if slices.ContainsFunc(commands, func(c string) bool { return c != "web1" }) {
				t.Errorf("the host was reached: %q", commands)
			}
		})
	}
}
