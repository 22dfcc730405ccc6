package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/creack/pty"
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
		t.Skipf("no pseudo-terminal: %v", err)
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
