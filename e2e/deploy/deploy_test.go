//go:build linux

package deploy

import (
	"bufio"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/nodegen/nodegen/internal/nspawntest"
)

// TestThreeHosts deploys three hosts: each confirms and runs the new
// generation; a rerun with nothing changed copies nothing and confirms
// again; a changed profile makes generation 2 everywhere, and only its
// new file is sent.
func TestThreeHosts(t *testing.T) {
	f := newFleet(t, "a", "b", "c")
	var files []string
	for _, n := range []string{"a", "b", "c"} {
		files = append(files, f.host(n, ""))
	}
	_, stderr, code := f.deploy(append([]string{"--parallel", "3"}, files...)...)
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, n := range []string{"a", "b", "c"} {
		f.waitGeneration(n, 1, "confirmed", 0)
		if got := f.machines[n].MustRun("cat", "/etc/deployed"); got != "host "+n+"\n" {
			t.Errorf("%s: /etc/deployed is %q", n, got)
		}
	}
	if !strings.Contains(stderr, "a: confirmed (generation 1)") {
		t.Errorf("no progress line for a:\n%s", stderr)
	}

	stdout, _, code := f.deploy(append([]string{"--json"}, files...)...)
	if code != 0 {
		t.Fatalf("rerun: exit %d", code)
	}
	if strings.Contains(stdout, `"step":"copy-`) {
		t.Errorf("the rerun copied again:\n%s", stdout)
	}
	for _, n := range []string{"a", "b", "c"} {
		f.waitGeneration(n, 1, "confirmed", 0)
	}

	for _, n := range []string{"a", "b", "c"} {
		f.host(n, `config "environment.etc.\"nodegen-two\"" { text = "two\n" }`)
	}
	// Only the new file goes: the host has /etc/deployed's content.
	stdout, _, code = f.deploy(append([]string{"--json"}, files...)...)
	if code != 0 {
		t.Fatalf("second generation: exit %d", code)
	}
	if n := strings.Count(stdout, `file(s) the host lacks`); n != 3 || strings.Count(stdout, `: 1 file(s) the host lacks"`) != 3 {
		t.Errorf("the second generation did not copy exactly its one new file to each host:\n%s", stdout)
	}
	for _, n := range []string{"a", "b", "c"} {
		f.waitGeneration(n, 2, "confirmed", 0)
	}
}

// TestOnTag deploys only the host that --on @web selects; --dry-run shows
// a host's plan and changes nothing, and fails a host that lacks a program
// the profile leaves to the image.
func TestOnTag(t *testing.T) {
	f := newFleet(t, "a", "b", "c")
	files := []string{f.host("a", ""), f.host("b", `config "deployment" { tags = ["web"] }`), f.host("c", "")}
	if _, _, code := f.deploy(append([]string{"--on", "@web"}, files...)...); code != 0 {
		t.Fatalf("exit %d", code)
	}
	f.waitGeneration("b", 1, "confirmed", 0)
	for _, n := range []string{"a", "c"} {
		if active, confirm := f.generation(n); active != 0 || confirm != "" {
			t.Errorf("%s was touched: generation %d, confirmation %q", n, active, confirm)
		}
	}
	// --dry-run prints a's plan from a's own nodegen, and changes nothing.
	stdout, _, code := f.deploy("--dry-run", "--on", "a", files[0])
	if code != 0 || !strings.Contains(stdout, "a:\n  would activate a new generation (active now: none)\n") || !strings.Contains(stdout, "place    /etc/deployed") {
		t.Errorf("--dry-run: exit %d\n%s", code, stdout)
	}
	if active, confirm := f.generation("a"); active != 0 || confirm != "" {
		t.Errorf("--dry-run changed a: generation %d, confirmation %q", active, confirm)
	}
	// A plan with an admin's file in the way is refused: exit 14, not a
	// failed activation; the conflict is printed with the plan.
	f.machines["a"].WriteFile("/etc/admin.conf", []byte("the admin's\n"), 0o644)
	admin := f.host("a", `config "environment.etc.\"admin.conf\"" { text = "nodegen's" }`)
	stdout, stderr, code := f.deploy("--dry-run", "--on", "a", admin)
	if code != 14 || !strings.Contains(stderr, "a: refused") || !strings.Contains(stdout, "/etc/admin.conf: a file that nodegen does not manage is in the way") {
		t.Errorf("--dry-run with a file in the way: exit %d\n%s%s", code, stdout, stderr)
	}
	// A program the host leaves to the image, which c lacks, fails c's
	// dry run, named, from c's own nodegen; nothing changes.
	image := f.host("c", `config "environment" { providedByImage = ["/opt/app/bin/app"] }
config "systemd.services.app" {
  wantedBy      = ["multi-user.target"]
  serviceConfig = { ExecStart = "/opt/app/bin/app" }
}
`)
	stdout, stderr, code = f.deploy("--dry-run", "--on", "c", image)
	if code == 0 || !strings.Contains(stdout+stderr, "/opt/app/bin/app (run by systemd.services.app): no such file") {
		t.Errorf("--dry-run with a program the image lacks: exit %d\n%s%s", code, stdout, stderr)
	}
	if active, confirm := f.generation("c"); active != 0 || confirm != "" {
		t.Errorf("--dry-run changed c: generation %d, confirmation %q", active, confirm)
	}
	if _, stderr, code := f.deploy(append([]string{"--on", "@db"}, files...)...); code != 2 || !strings.Contains(stderr, `--on "@db" matches none of the 3 hosts`) {
		t.Errorf("--on @db: exit %d\n%s", code, stderr)
	}
}

// lockout is a generation whose unit stops sshd: the deployer cannot
// connect again to confirm it.
const lockout = `
config "systemd.services.lockout" {
  description = "Stop sshd"
  wantedBy    = ["multi-user.target"]
  serviceConfig = {
    Type            = "oneshot"
    RemainAfterExit = true
    ExecStart       = "/usr/bin/systemctl stop --no-block ssh.service"
  }
}
`

// TestLockedOutRollsBack deploys a generation that stops sshd: the
// confirmation cannot come over a new connection, the deploy exits 11,
// and the host goes back to generation 1 by itself.
func TestLockedOutRollsBack(t *testing.T) {
	f := newFleet(t, "a")
	file := f.host("a", "")
	if _, _, code := f.deploy(file); code != 0 {
		t.Fatalf("generation 1: exit %d", code)
	}
	f.waitGeneration("a", 1, "confirmed", 0)
	f.host("a", lockout)
	start := time.Now()
	_, stderr, code := f.deploy("--confirm-timeout", "5s", file)
	if code != 11 {
		t.Fatalf("exit %d, want 11 (not confirmed)", code)
	}
	if !strings.Contains(stderr, "a: not-confirmed (generation 2)") {
		t.Errorf("no not-confirmed line:\n%s", stderr)
	}
	f.waitGeneration("a", 1, "rolled-back", 30*time.Second)
	t.Logf("rolled back %s after the deploy began", time.Since(start).Round(100*time.Millisecond))
	status := f.machines["a"].MustRun("sh", "-c", "/var/lib/nodegen/deploy/nodegen-* status")
	if !strings.Contains(status, "confirmation: generation 2 was not confirmed and was rolled back") {
		t.Errorf("nodegen status after the rollback:\n%s", status)
	}
	// generations marks the lock-out generation, so that a rollback does
	// not go back to it.
	gens := f.machines["a"].MustRun("sh", "-c", "/var/lib/nodegen/deploy/nodegen-* generations")
	if !regexp.MustCompile(`(?m)^2 .* rolled back$`).MatchString(gens) || !strings.Contains(gens, "generation 2 rolled back (") || !strings.Contains(gens, "not confirmed in time") {
		t.Errorf("nodegen generations after the rollback:\n%s", gens)
	}
	if out, _, code, _ := f.machines["a"].Run("systemctl", "is-active", "lockout.service"); code == 0 {
		t.Errorf("lockout.service is still active after the rollback: %s", out)
	}
}

// TestUnreachable deploys to a host whose port has no server: exit 12,
// and the other host is deployed all the same.
func TestUnreachable(t *testing.T) {
	f := newFleet(t, "a")
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	ln.Close()
	files := []string{f.host("a", ""), f.hostAt("gone", port, "")}
	_, stderr, code := f.deploy(files...)
	if code != 12 {
		t.Fatalf("exit %d, want 12 (unreachable)", code)
	}
	if !strings.Contains(stderr, "gone: unreachable") {
		t.Errorf("no unreachable line:\n%s", stderr)
	}
	f.waitGeneration("a", 1, "confirmed", 0)
}

// TestWavesStop deploys in waves where the first wave's host has a unit
// that fails: it goes back by itself, and the later wave is not started.
func TestWavesStop(t *testing.T) {
	f := newFleet(t, "a", "b", "c")
	files := []string{
		f.host("a", `
config "systemd.services.broken" {
  description = "Fail"
  wantedBy    = ["multi-user.target"]
  serviceConfig = { Type = "oneshot", ExecStart = "/usr/bin/false" }
}
`),
		f.host("b", ""), f.host("c", ""),
	}
	stdout, stderr, code := f.deploy(append([]string{"--waves", "1,100%"}, files...)...)
	if code != 13 {
		t.Fatalf("exit %d, want 13 (stopped by the failure budget)", code)
	}
	if !strings.Contains(stderr, "a: rolled-back: unit broken.service failed") || !strings.Contains(stderr, "b: skipped") || !strings.Contains(stdout, "1 rolled back, 2 skipped (stopped by the failure budget)") {
		t.Errorf("output:\n%s%s", stdout, stderr)
	}
	for _, n := range []string{"a", "b", "c"} {
		if active, _ := f.generation(n); active != 0 {
			t.Errorf("%s: generation %d is active", n, active)
		}
	}
}

// TestKeys deploys secrets: they arrive with their owner and mode, and
// are in no file below /var/lib/nodegen (profiles, generations, state).
func TestKeys(t *testing.T) {
	f := newFleet(t, "a")
	keyFile := filepath.Join(f.dir, "api-key")
	if err := os.WriteFile(keyFile, []byte("api-5ecret-from-a-file\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	file := f.host("a", fmt.Sprintf(`
config "deployment" {
  keys = {
    db  = { text = "db-5ecret-in-text", user = "nobody", group = "nogroup", permissions = "0640" }
    api = { keyFile = %q, destDir = "/var/lib/app/keys", permissions = "0400" }
  }
}
`, keyFile))
	if _, _, code := f.deploy(file); code != 0 {
		t.Fatalf("exit %d", code)
	}
	m := f.machines["a"]
	for _, k := range []struct{ path, stat, content string }{
		{"/run/keys/db", "nobody nogroup 640", "db-5ecret-in-text"},
		{"/var/lib/app/keys/api", "root root 400", "api-5ecret-from-a-file\n"},
	} {
		if got := strings.TrimSpace(m.MustRun("stat", "-c", "%U %G %a", k.path)); got != k.stat {
			t.Errorf("%s: %s, want %s", k.path, got, k.stat)
		}
		if got := m.MustRun("cat", k.path); got != k.content {
			t.Errorf("%s holds %q", k.path, got)
		}
	}
	// The keys belong to the generation, in its root-only keys/ (N5):
	// nowhere else, not in the profile, a manifest or /etc/static.
	out, _, code, err := m.Run("grep", "-rl", "--exclude-dir=keys", "-e", "5ecret", "/var/lib/nodegen", "/etc/static/")
	if err != nil || code != 1 {
		t.Errorf("a secret is in the profile, a manifest or a generation's files (grep exit %d, %v):\n%s", code, err, out)
	}
	if got := strings.TrimSpace(m.MustRun("stat", "-c", "%U %a", "/var/lib/nodegen/generations/1/keys")); got != "root 700" {
		t.Errorf("the generation's keys: %s, want root 700", got)
	}
}

// TestKeysThroughLinks is N1 on a real host: a service user who owns its
// home points the key's directory at /etc/apt/apt.conf.d, and plants, in
// a directory of its own, a link at the key's name to /etc/shadow. The
// first key is refused (the activation's keys step fails naming the
// link, and the host goes back) and nothing is written in /etc/apt/apt.conf.d; the second
// replaces the link with the key, and /etc/shadow is as it was.
func TestKeysThroughLinks(t *testing.T) {
	f := newFleet(t, "a")
	m := f.machines["a"]
	m.MustRun("useradd", "--system", "--create-home", "--home-dir", "/var/lib/app", "app")
	m.MustRun("su", "-s", "/bin/sh", "app", "-c", "ln -s /etc/apt/apt.conf.d /var/lib/app/keys && mkdir /var/lib/app/own && ln -s /etc/shadow /var/lib/app/own/db")
	shadow := m.MustRun("stat", "-c", "%U %G %a %s %Y", "/etc/shadow")
	file := f.host("a", `
config "deployment" {
  keys = { db = { text = "s3cret\n", user = "app", group = "app", permissions = "0400", destDir = "/var/lib/app/keys" } }
}
`)
	_, stderr, code := f.deploy(file)
	// The keys are the generation's: its activation's keys step refuses
	// the link, and the host goes back to no generation.
	if code == 0 || !strings.Contains(stderr, "/var/lib/app/keys is a symbolic link") {
		t.Errorf("a key's directory through a link: exit %d\n%s", code, stderr)
	}
	if out, _, code, _ := m.Run("ls", "-A", "/etc/apt/apt.conf.d/db"); code == 0 {
		t.Errorf("the key was written through the link: %s", out)
	}
	if active, _ := f.generation("a"); active != 0 {
		t.Errorf("generation %d is active after a refused key", active)
	}

	f.host("a", `
config "deployment" {
  keys = { db = { text = "s3cret\n", user = "app", group = "app", permissions = "0400", destDir = "/var/lib/app/own" } }
}
`)
	if _, _, code := f.deploy(file); code != 0 {
		t.Fatalf("a key's name that is a link: exit %d", code)
	}
	if got := strings.TrimSpace(m.MustRun("stat", "-c", "%F %U %G %a", "/var/lib/app/own/db")); got != "regular file app app 400" {
		t.Errorf("/var/lib/app/own/db: %s", got)
	}
	if got := m.MustRun("stat", "-c", "%U %G %a %s %Y", "/etc/shadow"); got != shadow {
		t.Errorf("/etc/shadow changed: %s, was %s", got, shadow)
	}
}

// TestKeysRollBack is N5 on a real host: a deploy whose generation is
// rolled back (not confirmed in time) leaves the old generation's keys,
// not the new ones.
func TestKeysRollBack(t *testing.T) {
	f := newFleet(t, "a")
	m := f.machines["a"]
	file := f.host("a", `
config "deployment" {
  keys = { db = { text = "password-1\n" } }
}
`)
	if _, _, code := f.deploy(file); code != 0 {
		t.Fatalf("generation 1: exit %d", code)
	}
	f.waitGeneration("a", 1, "confirmed", 0)
	if got := m.MustRun("cat", "/run/keys/db"); got != "password-1\n" {
		t.Fatalf("generation 1's key: %q", got)
	}
	f.host("a", lockout+`
config "deployment" {
  keys = { db = { text = "password-2\n" } }
}
`)
	if _, _, code := f.deploy("--confirm-timeout", "5s", file); code != 11 {
		t.Fatalf("exit %d, want 11 (not confirmed)", code)
	}
	f.waitGeneration("a", 1, "rolled-back", 30*time.Second)
	if got := m.MustRun("cat", "/run/keys/db"); got != "password-1\n" {
		t.Errorf("after the rollback the key is %q, want generation 1's", got)
	}
	if out, _, code, _ := m.Run("sh", "-c", "ls -A /var/lib/nodegen/deploy/keys"); code == 0 && strings.TrimSpace(out) != "" {
		t.Errorf("a stage was left: %s", out)
	}
}

// TestKeyRaceSwap is N1's race on a real host: the key's directory is
// its user's, who watches it with inotify and swaps the temporary file
// for a link to /etc/shadow the moment it appears (testdata/swapkey),
// which won against putKey's shell script every time. Root follows
// nothing: /etc/shadow is as it was, and the deploy either fails saying
// the directory changed under it (the swap came in time) or wrote the key.
func TestKeyRaceSwap(t *testing.T) {
	f := newFleet(t, "a")
	m := f.machines["a"]
	m.CopyFile(nspawntest.BuildStatic(t, "./e2e/deploy/testdata/swapkey"), "/usr/local/bin/swapkey", 0o755)
	m.MustRun("useradd", "--system", "--create-home", "--home-dir", "/var/lib/app", "app")
	m.MustRun("su", "-s", "/bin/sh", "app", "-c", "mkdir /var/lib/app/keys")
	shadow := m.MustRun("stat", "-c", "%U %G %a %s %Y", "/etc/shadow")
	m.MustRun("systemd-run", "--uid=app", "--unit=swapkey", "/usr/local/bin/swapkey", "/var/lib/app/keys", ".nodegen-", "/etc/shadow", "/var/lib/app/ready")
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if _, _, code, _ := m.Run("test", "-e", "/var/lib/app/ready"); code == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("swapkey is not watching:\n%s", m.Journal("swapkey.service", 20))
		}
	}
	// The key is written at every deploy: deploy until the swap comes.
	swapped := false
	for i := 1; i <= 10 && !swapped; i++ {
		file := f.host("a", fmt.Sprintf(`
config "deployment" {
  keys = { db = { text = "s3cret %d\n", user = "app", group = "app", permissions = "0400", destDir = "/var/lib/app/keys" } }
}
`, i))
		_, stderr, code := f.deploy(file)
		journal := m.Journal("swapkey.service", 20)
		swapped = strings.Contains(journal, "swapped .nodegen-")
		switch {
		case swapped:
			t.Logf("deploy %d: swapkey:\n%s", i, journal)
			if code != 10 || !strings.Contains(stderr, "its directory was changed while the file was written") {
				t.Errorf("the swap came, and the deploy did not say so: exit %d\n%s", code, stderr)
			}
		case code != 0:
			t.Errorf("exit %d without a swap", code)
		}
	}
	if !swapped {
		t.Log("swapkey never came between the key's creation and its rename in 10 deploys")
	}
	if got := m.MustRun("stat", "-c", "%U %G %a %s %Y", "/etc/shadow"); got != shadow {
		t.Errorf("/etc/shadow changed: %s, was %s", got, shadow)
	}
}

// TestKilledDeployer kills the deployer (its whole process group: the ssh
// clients too) while it switches the second of three hosts: every host
// ends on a confirmed generation or rolled back by itself, and a rerun
// completes.
func TestKilledDeployer(t *testing.T) {
	names := []string{"a", "b", "c"}
	f := newFleet(t, names...)
	slow := `
config "systemd.services.slow" {
  description = "Take a while to start"
  wantedBy    = ["multi-user.target"]
  serviceConfig = { Type = "oneshot", RemainAfterExit = true, ExecStart = "/usr/bin/sleep 2" }
}
`
	var files []string
	for _, n := range names {
		files = append(files, f.host(n, slow))
	}
	cmd := exec.Command(f.nodegen, append([]string{"deploy", "--json", "--parallel", "1", "--confirm-timeout", "5s"}, files...)...)
	cmd.Env = append(os.Environ(), "HOME="+f.dir)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := bufio.NewScanner(out)
	var seen []string
	for lines.Scan() {
		seen = append(seen, lines.Text())
		if strings.Contains(lines.Text(), `{"host":"b","step":"switch",`) {
			break
		}
	}
	time.Sleep(time.Second) // b's switch is starting its slow unit
	masters := "ssh -M -S .* " + f.sshCfg
	if out, err := exec.Command("pgrep", "-a", "-f", "--", masters).Output(); err != nil {
		t.Errorf("no ssh master of the deployer's is running (%v): %s", err, out)
	}
	syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	cmd.Wait()
	t.Logf("killed the deployer after:\n%s", strings.Join(seen, "\n"))
	// Its ssh masters, in process groups of their own, end with it.
	for deadline := time.Now().Add(5 * time.Second); ; {
		out, _ := exec.Command("pgrep", "-a", "-f", "--", masters).Output()
		if len(out) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Errorf("the killed deployer's ssh masters are still running:\n%s", out)
			break
		}
		time.Sleep(100 * time.Millisecond)
	}

	states := f.settled(time.Minute, names...)
	t.Logf("after the kill: %v", states)
	for n, s := range states {
		switch s {
		case "1 confirmed", "0 rolled-back", "0 ":
		default:
			t.Errorf("%s: %q: neither confirmed nor rolled back", n, s)
		}
	}
	if states["a"] != "1 confirmed" {
		t.Errorf("a, deployed before the kill: %q", states["a"])
	}
	if states["b"] != "0 rolled-back" {
		t.Errorf("b, cut off during its switch: %q", states["b"])
	}
	if _, _, code := f.deploy(files...); code != 0 {
		t.Fatalf("rerun: exit %d", code)
	}
	for n, s := range f.settled(time.Minute, names...) {
		if !strings.HasSuffix(s, " confirmed") || strings.HasPrefix(s, "0 ") {
			t.Errorf("%s after the rerun: %q", n, s)
		}
	}
}

// TestSessionTrouble deploys a generation that restarts sshd, then one
// that kills the deployer's sessions during the switch: both are
// confirmed, the second after the deployer finds, over a new connection,
// that the switch it lost finished.
func TestSessionTrouble(t *testing.T) {
	f := newFleet(t, "a")
	file := f.host("a", "")
	if _, _, code := f.deploy(file); code != 0 {
		t.Fatalf("generation 1: exit %d", code)
	}
	f.host("a", `
config "systemd.services.restart-sshd" {
  description = "Restart sshd"
  wantedBy    = ["multi-user.target"]
  serviceConfig = { Type = "oneshot", RemainAfterExit = true, ExecStart = "/usr/bin/systemctl restart ssh.service" }
}
`)
	if _, _, code := f.deploy(file); code != 0 {
		t.Fatalf("generation 2, which restarts sshd: exit %d", code)
	}
	f.waitGeneration("a", 2, "confirmed", 0)
	f.host("a", `
config "systemd.services.cut-sessions" {
  description = "Kill every SSH session"
  wantedBy    = ["multi-user.target"]
  serviceConfig = { Type = "oneshot", RemainAfterExit = true, ExecStart = "/usr/bin/pkill -f \"^sshd: root@\"" }
}
`)
	stdout, _, code := f.deploy("--json", file)
	if code != 0 {
		t.Fatalf("generation 3, which cuts the sessions: exit %d", code)
	}
	if !strings.Contains(stdout, `"step":"reconnect"`) {
		t.Errorf("the deployer's session was not cut during the switch:\n%s", stdout)
	}
	f.waitGeneration("a", 3, "confirmed", 0)
}

// TestAsOtherUser deploys as a user who is not root, through sudo: the
// switch, the keys and the confirmation all run as root on the host.
func TestAsOtherUser(t *testing.T) {
	f := newFleet(t, "a")
	m := f.machines["a"]
	m.MustRun("useradd", "--create-home", "--shell", "/bin/sh", "deployer")
	m.WriteFile("/home/deployer/.ssh/authorized_keys", f.pub, 0o600)
	m.MustRun("chown", "-R", "deployer:deployer", "/home/deployer/.ssh")
	m.MustRun("chmod", "700", "/home/deployer/.ssh")
	m.WriteFile("/etc/sudoers.d/deployer", []byte("deployer ALL=(root) NOPASSWD: ALL\n"), 0o440)
	file := f.host("a", `
config "deployment" {
  targetUser = "deployer"
  keys = { token = { text = "t0ken", user = "deployer", permissions = "0400" } }
}
`)
	if _, _, code := f.deploy(file); code != 0 {
		t.Fatalf("exit %d", code)
	}
	f.waitGeneration("a", 1, "confirmed", 0)
	if got := strings.TrimSpace(m.MustRun("stat", "-c", "%U %a", "/run/keys/token")); got != "deployer 400" {
		t.Errorf("/run/keys/token: %s", got)
	}
	// The confirmation token is in no command line (issue 36, N14):
	// sudo logs every command the deployer ran, as /proc shows it to
	// every user while it runs.
	sudoLog := m.MustRun("journalctl", "--no-pager", "--output=cat", "-t", "sudo")
	if !strings.Contains(sudoLog, "--confirm-token-file -") || !regexp.MustCompile(`confirm [0-9]+ >&2`).MatchString(sudoLog) {
		t.Errorf("sudo logged no switch with the token on stdin and no confirm GEN:\n%s", sudoLog)
	}
	if leak := regexp.MustCompile(`confirm-token [0-9a-f]{16}|confirm [0-9]+ [0-9a-f]{16}`).FindString(sudoLog); leak != "" {
		t.Errorf("the token is in a command line sudo logged: %s", leak)
	}
}

// TestBackupConflicts: an admin's file in the way of a host's profile
// (Debian's /etc/motd, which base-files' postinst writes and dpkg does not
// list) stops its deploy: the host's switch refuses before changing
// anything (outcome refused, exit 14), and the refusal names the ways to keep it;
// nodegen deploy --backup, or the host's deployment.backupConflicts,
// moves it aside instead. The installer's /etc/hostname is taken over
// either way.
func TestBackupConflicts(t *testing.T) {
	f := newFleet(t, "a", "b")
	motd := `config "environment.etc.motd" { text = "nodegen's motd\n" }` + "\n"
	a := f.host("a", motd)
	b := f.host("b", motd+`config "deployment" { backupConflicts = true }`+"\n")
	admins := f.machines["a"].MustRun("cat", "/etc/motd")

	stdout, stderr, code := f.deploy("--on", "a", a, b)
	if code != 14 {
		t.Fatalf("the deploy onto an admin's /etc/motd: exit %d, want 14 (refused)", code)
	}
	for _, want := range []string{"a: refused: ", "nothing was changed", "/etc/motd: a file that nodegen does not manage is in the way", "nodegen deploy --backup", "deployment.backupConflicts"} {
		if !strings.Contains(stdout+stderr, want) {
			t.Errorf("the refusal does not say %q", want)
		}
	}
	if active, _ := f.generation("a"); active != 0 {
		t.Errorf("a refused deploy left generation %d active", active)
	}

	// The dry run passes --backup on too.
	stdout, _, code = f.deploy("--dry-run", "--backup", "--on", "a", a, b)
	if code != 0 {
		t.Fatalf("deploy --dry-run --backup: exit %d", code)
	}
	for _, want := range []string{"backup   /etc/motd", "taking over /etc/hostname (written by the OS installer for this machine; backed up)"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("the plan does not say %q:\n%s", want, stdout)
		}
	}
	if _, _, code = f.deploy("--backup", "--on", "a", a, b); code != 0 {
		t.Fatalf("deploy --backup: exit %d", code)
	}
	f.waitGeneration("a", 1, "confirmed", 0)
	if got := f.machines["a"].MustRun("cat", "/etc/motd"); got != "nodegen's motd\n" {
		t.Errorf("a's /etc/motd: %q", got)
	}
	if got := f.machines["a"].MustRun("cat", "/var/lib/nodegen/backups/etc/motd"); got != admins {
		t.Errorf("a's backup of the admin's /etc/motd: %q, want %q", got, admins)
	}

	if _, _, code := f.deploy("--on", "b", a, b); code != 0 {
		t.Fatalf("deploy of b, whose deployment.backupConflicts is set: exit %d", code)
	}
	f.waitGeneration("b", 1, "confirmed", 0)
	if got := f.machines["b"].MustRun("cat", "/etc/motd"); got != "nodegen's motd\n" {
		t.Errorf("b's /etc/motd: %q", got)
	}
}
