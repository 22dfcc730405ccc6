package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/creack/pty"
	"github.com/google/go-cmp/cmp"

	"github.com/nodegen/nodegen/fixtures"
	"github.com/nodegen/nodegen/internal/suitereport"
)

func TestProgressBar(t *testing.T) {
	tests := []struct {
		done, total int
		elapsed     time.Duration
		width       int
		want        string
	}{
		{0, 10, 0, 80, "[>                                       ] 0/10 hosts  0.0/s  ETA ?"},
		{5, 10, time.Second, 80, "[====================>                   ] 5/10 hosts  5.0/s  ETA 1s"},
		{450, 1000, 4 * time.Second, 60, "[===========>             ] 450/1000 hosts  112.5/s  ETA 5s"},
		{10, 10, 2 * time.Second, 80, "[========================================] 10/10 hosts  5.0/s  ETA 0s"},
		{3, 7, 3 * time.Second, 30, "3/7 hosts  1.0/s  ETA 4s"},
	}
	for _, tt := range tests {
		if got := progressBar(tt.done, tt.total, tt.elapsed, tt.width); got != tt.want {
			t.Errorf("progressBar(%d, %d, %v, %d) =\n%q, want\n%q", tt.done, tt.total, tt.elapsed, tt.width, got, tt.want)
		}
		if got := progressBar(tt.done, tt.total, tt.elapsed, tt.width); len(got) > tt.width {
			t.Errorf("progressBar(%d, %d, %v, %d) is %d columns wide", tt.done, tt.total, tt.elapsed, tt.width, len(got))
		}
	}
}

// TestBuildProgressTerminal builds on a pseudo-terminal: stderr shows the
// bar redrawn in place, the failing host's errors on lines of their own,
// and the bar's line is cleared at the end.
func TestBuildProgressTerminal(t *testing.T) {
	ptmx, tty, err := pty.Open()
	if err != nil {
		suitereport.Skip(t, "a pseudo-terminal (cmd/nodegen)", fmt.Sprintf("no pseudo-terminal: %v", err))
	}
	defer ptmx.Close()
	if err := pty.Setsize(tty, &pty.Winsize{Rows: 24, Cols: 100}); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	hosts := map[string]string{
		"a.hcl":   `config "networking" { hostName = "a" }`,
		"bad.hcl": `config "networking" { hostName = = 1 }`,
		"c.hcl":   `config "networking" { hostName = "c" }`,
	}
	var files []string
	for _, name := range []string{"a.hcl", "bad.hcl", "c.hcl"} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(hosts[name]+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, p)
	}
	read := make(chan []byte)
	go func() {
		b, _ := io.ReadAll(ptmx) // until the terminal is closed
		read <- b
	}()
	var stdout bytes.Buffer
	code := runBuild(files, &evalFlags{}, filepath.Join(dir, "results"), 1, false, &stdout, tty)
	tty.Close()
	out := string(<-read)
	if code != exitError {
		t.Errorf("exit code %d, want %d", code, exitError)
	}
	if !strings.HasPrefix(stdout.String(), "built 2 of 3 hosts") {
		t.Errorf("stdout %q, want the summary", stdout.String())
	}
	for _, re := range []string{
		`\r\x1b\[Kbad: failed \(` + regexp.QuoteMeta(files[1]) + `\):\r?\n`,
		`Error: Invalid expression`,
		`\[=+>? *\] [123]/3 hosts  [0-9.]+/s  ETA `,
		`\[=+\] 3/3 hosts  [0-9.]+/s  ETA 0s\r\x1b\[K$`,
	} {
		if !regexp.MustCompile(re).MatchString(out) {
			t.Errorf("the terminal output does not match %s:\n%q", re, out)
		}
	}
	if strings.Contains(out, "[1/3]") {
		t.Errorf("a terminal got the plain lines:\n%q", out)
	}
}

// TestBuildFleetShared builds generated workers (which share the library's
// declared tree) at once and each alone: every profile is the same, byte
// for byte. Run with -race, it checks that the hosts evaluating in
// parallel goroutines over one declared tree do not race.
func TestBuildFleetShared(t *testing.T) {
	dir := t.TempDir()
	hosts, err := fixtures.WriteFleet(filepath.Join(dir, "fleet"), 4)
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	if code := runBuild(hosts, &evalFlags{}, filepath.Join(dir, "fleet-out"), 4, false, io.Discard, &stderr); code != exitOK {
		t.Fatalf("build exited %d:\n%s", code, stderr.String())
	}
	for _, h := range hosts {
		name := strings.TrimSuffix(filepath.Base(h), ".hcl")
		stderr.Reset()
		if code := runBuild([]string{h}, &evalFlags{}, filepath.Join(dir, "alone"), 1, false, io.Discard, &stderr); code != exitOK {
			t.Fatalf("build of %s exited %d:\n%s", name, code, stderr.String())
		}
		alone, shared := readTree(t, filepath.Join(dir, "alone", name)), readTree(t, filepath.Join(dir, "fleet-out", name))
		if len(alone) == 0 {
			t.Fatalf("%s: the profile built alone is empty", name)
		}
		if diff := cmp.Diff(alone, shared); diff != "" {
			t.Errorf("%s: the profile built in the fleet differs (-alone +fleet):\n%s", name, diff)
		}
	}
}

// readTree reads every file and symbolic link below dir: file contents
// and modes, link targets, by their path.
func readTree(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		info, err := d.Info()
		if err != nil {
			return err
		}
		switch {
		case d.Type()&os.ModeSymlink != 0:
			target, err := os.Readlink(p)
			if err != nil {
				return err
			}
			out[rel] = "-> " + target
		case d.Type().IsRegular():
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			out[rel] = info.Mode().String() + "\n" + string(b)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestBuildKeepsNoHost builds a fleet whose hosts read a file of their
// own with file() (a function each evaluation makes for itself, holding
// the evaluation) twice over: what the process holds once a build is
// over, collected, does not grow with the hosts it built. A cache that
// kept something of each evaluation (as lib's cache of function
// parameters once kept every file() it called) keeps the 40 evaluations
// here: 27 MiB.
func TestBuildKeepsNoHost(t *testing.T) {
	dir := t.TempDir()
	var hosts []string
	for i := range 40 {
		name := fmt.Sprintf("host%02d", i)
		if err := os.WriteFile(filepath.Join(dir, name+".txt"), []byte("Welcome to "+name+".\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		src := fmt.Sprintf("config \"networking\" {\n  hostName = %q\n}\n\nconfig \"environment.etc.\\\"motd\\\"\" {\n  text = file(\"%s.txt\")\n}\n", name, name)
		h := filepath.Join(dir, name+".hcl")
		if err := os.WriteFile(h, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		hosts = append(hosts, h)
	}
	held := func() uint64 {
		runtime.GC()
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	build := func(hosts []string) {
		t.Helper()
		var stderr bytes.Buffer
		if code := runBuild(hosts, &evalFlags{}, filepath.Join(dir, "out"), 2, false, io.Discard, &stderr); code != exitOK {
			t.Fatalf("build exited %d:\n%s", code, stderr.String())
		}
	}
	// A first build fills what is shared by every build (the library's
	// trees, the memos of texts), which is bounded, not per host.
	build(hosts[:2])
	before := held()
	build(hosts)
	after := held()
	t.Logf("held %.1f MiB, then %.1f MiB", float64(before)/(1<<20), float64(after)/(1<<20))
	const bound = 8 << 20 // the memos of texts may fill up to a MiB each; 40 evaluations kept are 27 MiB
	if after > before+bound {
		t.Errorf("after building %d hosts the process holds %.1f MiB more than before (at most %d MiB): something keeps each host", len(hosts), float64(after-before)/(1<<20), bound>>20)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "out", "host39", "etc", "motd")); !strings.Contains(string(got), "Welcome to host39.") {
		t.Errorf("host39's motd = %q: the hosts did not read their files", got)
	}
}
