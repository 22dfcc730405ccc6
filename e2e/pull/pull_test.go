//go:build linux

package pull

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"oras.land/oras-go/v2/registry/remote"

	"github.com/nodegen/nodegen/internal/suitereport"
	"github.com/nodegen/nodegen/ociprofile"
)

const suite = "pull e2e (docker-registry)"

// registry is a docker-registry process serving a directory on a port.
type registry struct {
	t       testing.TB
	bin     string
	dir     string
	addr    string
	cmd     *exec.Cmd
	logFile *os.File
	// command makes the registry's process (exec.Command when nil: in the
	// test's own network namespace), and client asks it whether it
	// answers (http.DefaultClient when nil).
	command func(name string, args ...string) *exec.Cmd
	client  *http.Client
}

func startRegistry(t testing.TB, bin, dir, addr string) *registry {
	t.Helper()
	return startRegistryWith(&registry{t: t, bin: bin, dir: dir, addr: addr})
}

// startRegistryWith starts r (its command and client set to reach another
// network namespace) and stops it when the test ends.
func startRegistryWith(r *registry) *registry {
	t := r.t
	t.Helper()
	r.start()
	t.Cleanup(r.stop)
	return r
}

func (r *registry) start() {
	t := r.t
	t.Helper()
	cfg := filepath.Join(r.dir, "config.yml")
	os.WriteFile(cfg, fmt.Appendf(nil, "version: 0.1\nlog:\n  level: warn\nstorage:\n  filesystem:\n    rootdirectory: %s\n  delete:\n    enabled: true\nhttp:\n  addr: %s\n", filepath.Join(r.dir, "storage"), r.addr), 0o644)
	lf, err := os.OpenFile(filepath.Join(r.dir, "registry.log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	r.logFile = lf
	if r.command == nil {
		r.command = exec.Command
	}
	if r.client == nil {
		r.client = http.DefaultClient
	}
	r.cmd = r.command(r.bin, "serve", cfg)
	r.cmd.Stdout, r.cmd.Stderr = lf, lf
	if err := r.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		resp, err := r.client.Get("http://" + r.addr + "/v2/")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				return
			}
		}
		if time.Now().After(deadline) {
			log, _ := os.ReadFile(filepath.Join(r.dir, "registry.log"))
			t.Fatalf("the registry did not answer on %s: %v\n%s", r.addr, err, log)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func (r *registry) stop() {
	if r.cmd != nil && r.cmd.Process != nil {
		r.cmd.Process.Kill()
		r.cmd.Wait()
		r.cmd = nil
		r.logFile.Close()
	}
}

func freeAddr(t testing.TB) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

func buildNodegen(t testing.TB) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), "nodegen")
	cmd := exec.Command("go", "build", "-o", out, "github.com/nodegen/nodegen/cmd/nodegen")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, b)
	}
	return out
}

type keyPair struct{ priv, pub string }

func newKey(t testing.TB, dir, name string) keyPair {
	t.Helper()
	_, k, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	priv, pub, err := ociprofile.EncodeKeys(k)
	if err != nil {
		t.Fatal(err)
	}
	kp := keyPair{filepath.Join(dir, name+".pem"), filepath.Join(dir, name+".pub")}
	os.WriteFile(kp.priv, priv, 0o600)
	os.WriteFile(kp.pub, pub, 0o644)
	return kp
}

// hostFile is one version of a host: its own text, the channel it follows,
// the keys it trusts, and its health check's command.
type hostFile struct {
	name, channel, text, health string
	trusted                     []keyPair
	// interval and jitter, when set, are the pull timer's.
	interval, jitter string
}

func (h hostFile) write(t *testing.T, dir, registry string) string {
	t.Helper()
	var keys []string
	for _, k := range h.trusted {
		b, _ := os.ReadFile(k.pub)
		keys = append(keys, strconv.Quote(string(b)))
	}
	health := "true"
	if h.health != "" {
		health = h.health
	}
	timer := ""
	if h.interval != "" {
		timer = fmt.Sprintf("  interval    = %q\n  jitter      = %q\n", h.interval, h.jitter)
	}
	src := fmt.Sprintf(`config "networking" { hostName = %q }
config "environment.etc.\"shared.txt\"" {
  text = join("", [for i in range(1000) : "line ${i} of the file every host of the role has, long enough to count when it is pushed twice\n"])
}
config "environment.etc.\"own.txt\"" { text = %q }
config "services.nodegen.pull" {
  enable      = true
  registry    = %q
  channel     = %q
  plainHTTP   = true
  trustedKeys = [%s]
  healthChecks = { check = { command = %q, timeout = 10 } }
%s}
`, h.name, h.text+"\n", registry, h.channel, strings.Join(keys, ", "), health, timer)
	p := filepath.Join(dir, h.name+".hcl")
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

type env struct {
	t        *testing.T
	nodegen  string
	dir      string
	reg      *registry
	registry string
	// command makes nodegen's process (exec.Command when nil).
	command func(name string, args ...string) *exec.Cmd
}

func (e *env) run(args ...string) (stdout, stderr string, code int) {
	e.t.Helper()
	command := e.command
	if command == nil {
		command = exec.Command
	}
	cmd := command(e.nodegen, args...)
	var o, er bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &er
	err := cmd.Run()
	code = 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		e.t.Fatal(err)
	}
	// The log stays short, so that a failure's message is not lost in
	// it: the command, its last line of output, and all of it only when
	// it failed.
	shown := strings.Join(args, " ")
	if e.dir != "" {
		shown = strings.ReplaceAll(shown, e.dir, "$DIR")
	}
	if code != 0 {
		e.t.Logf("$ nodegen %s\n%s%s[exit %d]", shown, o.String(), er.String(), code)
	} else {
		lines := strings.Split(strings.TrimSpace(o.String()), "\n")
		e.t.Logf("$ nodegen %s [exit 0]: %s", shown, lines[len(lines)-1])
	}
	return o.String(), er.String(), code
}

func (e *env) mustRun(want int, args ...string) (string, string) {
	e.t.Helper()
	o, er, code := e.run(args...)
	if code != want {
		e.t.Fatalf("nodegen %s: exit %d, want %d\n%s%s", args[0], code, want, o, er)
	}
	return o, er
}

func (e *env) publish(key keyPair, channel string, extra []string, hosts ...hostFile) (bytesPushed int64) {
	e.t.Helper()
	args := []string{"publish", "--registry", e.registry, "--plain-http", "--key", key.priv, "--channel", channel}
	args = append(args, extra...)
	for _, h := range hosts {
		args = append(args, h.write(e.t, e.dir, e.registry))
	}
	o, _ := e.mustRun(0, args...)
	m := regexp.MustCompile(`(\d+) blob\(s\) pushed \((\d+) bytes\)`).FindStringSubmatch(o)
	if m == nil {
		e.t.Fatalf("publish printed no count of bytes pushed:\n%s", o)
	}
	n, _ := strconv.ParseInt(m[2], 10, 64)
	return n
}

func (e *env) active(root string) int {
	e.t.Helper()
	target, err := os.Readlink(filepath.Join(root, "var/lib/nodegen/current"))
	if err != nil {
		return 0
	}
	n, _ := strconv.Atoi(filepath.Base(target))
	return n
}

func (e *env) etc(root, name string) string {
	b, _ := os.ReadFile(filepath.Join(root, "var/lib/nodegen/current/etc", name))
	return string(b)
}

func TestPublishPull(t *testing.T) {
	bin := suitereport.Program(t, suite, "docker-registry", "Debian's docker-registry", "/usr/bin")
	suitereport.Root(t, suite, "switching into a root with files owned by root")
	dir := t.TempDir()
	e := &env{t: t, nodegen: buildNodegen(t), dir: dir}
	addr := freeAddr(t)
	os.MkdirAll(filepath.Join(dir, "registry"), 0o755)
	e.reg = startRegistry(t, bin, filepath.Join(dir, "registry"), addr)
	e.registry = addr + "/fleet"
	k1 := newKey(t, dir, "k1")
	k2 := newKey(t, dir, "k2")
	trusted1 := []keyPair{k1}

	// Blob dedup: one host alone, then two hosts sharing the role's file.
	oneReg := e.registry
	e.registry = addr + "/one"
	one := e.publish(k1, "canary", nil, hostFile{name: "web1", channel: "canary", text: "web1 v1", trusted: trusted1})
	e.registry = oneReg
	web1 := hostFile{name: "web1", channel: "canary", text: "web1 v1", trusted: trusted1}
	web2 := hostFile{name: "web2", channel: "stable", text: "web2 v1", trusted: trusted1}
	two := e.publish(k1, "canary", nil, web1, web2)
	t.Logf("MEASURE bytes pushed: 1 host %d, 2 hosts sharing a file %d (%.2fx)", one, two, float64(two)/float64(one))
	if two >= one*3/2 {
		t.Errorf("two hosts pushed %d bytes, one %d: the shared file was not pushed once", two, one)
	}
	again := e.publish(k1, "canary", nil, web1, web2)
	if again != 0 {
		t.Errorf("publishing the same profiles again pushed %d bytes, want 0", again)
	}

	root1, root2 := filepath.Join(dir, "web1"), filepath.Join(dir, "web2")
	os.MkdirAll(root1, 0o755)
	os.MkdirAll(root2, 0o755)
	first := func(root, host, channel string) []string {
		return []string{"pull", "--root", root, "--registry", e.registry, "--plain-http", "--host", host, "--channel", channel, "--trusted-key", k1.pub}
	}

	// A first pull, with its configuration given by flags.
	e.mustRun(0, first(root1, "web1", "canary")...)
	if e.active(root1) != 1 || e.etc(root1, "own.txt") != "web1 v1\n" {
		t.Fatalf("web1: generation %d with own.txt %q, want 1 with web1 v1", e.active(root1), e.etc(root1, "own.txt"))
	}
	// Then its generation's configuration; nothing new.
	if o, _ := e.mustRun(0, "pull", "--root", root1); !strings.Contains(o, "up to date") {
		t.Errorf("a second pull did not say up to date:\n%s", o)
	}

	// A wave: web2 follows stable, which has nothing until promoted.
	if _, er := e.mustRun(20, first(root2, "web2", "stable")...); !strings.Contains(er, "web2_stable") {
		t.Errorf("the error names no tag:\n%s", er)
	}
	if e.active(root2) != 0 {
		t.Fatal("web2 switched without a manifest")
	}
	e.mustRun(0, "promote", "--registry", e.registry, "--plain-http", "--from", "canary", "--to", "stable", "web2")
	e.mustRun(0, first(root2, "web2", "stable")...)
	if e.active(root2) != 1 || e.etc(root2, "own.txt") != "web2 v1\n" {
		t.Fatalf("web2 after promotion: generation %d, own.txt %q", e.active(root2), e.etc(root2, "own.txt"))
	}

	// A second publish: only the changed file is fetched.
	repo, err := remote.NewRepository(e.registry)
	if err != nil {
		t.Fatal(err)
	}
	repo.PlainHTTP = true
	ctx := context.Background()
	old, err := repo.Resolve(ctx, "web1_canary")
	if err != nil {
		t.Fatal(err)
	}
	web1.text = "web1 v2"
	e.publish(k1, "canary", nil, web1)
	o, _ := e.mustRun(0, "pull", "--root", root1)
	if !strings.Contains(o, "1 file content(s) the host lacked") {
		t.Errorf("the second pull fetched more than the changed file:\n%s", o)
	}
	if e.active(root1) != 2 || e.etc(root1, "own.txt") != "web1 v2\n" {
		t.Fatalf("web1: generation %d, own.txt %q; want 2, web1 v2", e.active(root1), e.etc(root1, "own.txt"))
	}

	refused := func(what string, code int, want string) {
		t.Helper()
		before := e.active(root1)
		_, er := e.mustRun(code, "pull", "--root", root1)
		if !strings.Contains(er, want) {
			t.Errorf("%s: the error does not say %q:\n%s", what, want, er)
		}
		if e.active(root1) != before {
			t.Errorf("%s: the active generation changed from %d to %d", what, before, e.active(root1))
		}
		st, _ := e.mustRun(0, "status", "--root", root1)
		if !strings.Contains(st, fmt.Sprintf("last error (exit %d)", code)) {
			t.Errorf("%s: nodegen status shows no last error with exit %d:\n%s", what, code, st)
		}
	}

	// A replayed older manifest.
	if err := repo.Tag(ctx, old, "web1_canary"); err != nil {
		t.Fatal(err)
	}
	refused("replay", 22, "is not greater than")

	// A manifest signed by a key the running generation does not trust.
	web1.text = "web1 v3"
	e.publish(k2, "canary", nil, web1)
	refused("unknown key", 21, "not trusted here")

	// An expired manifest.
	e.publish(k1, "canary", []string{"--expires", "1s"}, web1)
	time.Sleep(2 * time.Second)
	refused("expired", 23, "expired at")

	// A tampered blob: the registry serves other bytes for the new file.
	web1.text = "web1 v4 tampered"
	e.publish(k1, "canary", nil, web1)
	tampered := 0
	filepath.WalkDir(filepath.Join(dir, "registry/storage/docker/registry/v2/blobs"), func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || d.Name() != "data" {
			return nil
		}
		b, _ := os.ReadFile(p)
		if string(b) == "web1 v4 tampered\n" {
			os.WriteFile(p, []byte("WEB1 v4 tampered\n"), 0o644)
			tampered++
		}
		return nil
	})
	if tampered != 1 {
		t.Fatalf("found %d blobs to tamper with, want 1", tampered)
	}
	refused("tampered blob", 21, "mismatched digest")

	// A generation whose health check fails goes back, and is not tried
	// again.
	web1.text = "web1 v5 unhealthy"
	web1.health = "exit 1"
	e.publish(k1, "canary", nil, web1)
	before := e.active(root1)
	e.mustRun(16, "pull", "--root", root1)
	if e.active(root1) != before || e.etc(root1, "own.txt") != "web1 v2\n" {
		t.Fatalf("after a failed health check: generation %d (own.txt %q), want %d back", e.active(root1), e.etc(root1, "own.txt"), before)
	}
	if o, _ := e.mustRun(0, "pull", "--root", root1); !strings.Contains(o, "rolled back") {
		t.Errorf("the pull after a rollback does not say so:\n%s", o)
	}

	// Key rotation: k2 becomes trusted only through a generation k1
	// signed.
	web1.health = ""
	web1.text = "web1 v6 rotating"
	web1.trusted = []keyPair{k1, k2}
	e.publish(k1, "canary", nil, web1)
	e.mustRun(0, "pull", "--root", root1)
	web1.text = "web1 v7 by k2"
	web1.trusted = []keyPair{k2}
	e.publish(k2, "canary", nil, web1)
	e.mustRun(0, "pull", "--root", root1)
	if e.etc(root1, "own.txt") != "web1 v7 by k2\n" {
		t.Fatalf("after the rotation: own.txt %q", e.etc(root1, "own.txt"))
	}
	// k1 is no longer trusted.
	web1.text = "web1 v8 by k1"
	e.publish(k1, "canary", nil, web1)
	refused("retired key", 21, "not trusted here")

	// The registry down: the host keeps what it runs and records why;
	// back up, it catches up.
	web1.text = "web1 v9 after the outage"
	e.publish(k2, "canary", nil, web1)
	e.reg.stop()
	refused("registry down", 20, "nothing changed: the host runs what it ran")
	e.reg.start()
	e.mustRun(0, "pull", "--root", root1)
	if e.etc(root1, "own.txt") != "web1 v9 after the outage\n" {
		t.Fatalf("after the outage: own.txt %q", e.etc(root1, "own.txt"))
	}
	st, _ := e.mustRun(0, "status", "--root", root1)
	if !strings.Contains(st, "pull: serial") || strings.Contains(st, "last error") {
		t.Errorf("nodegen status after the catch-up:\n%s", st)
	}
}
