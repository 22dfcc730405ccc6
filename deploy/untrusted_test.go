package deploy

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// TestPrintable: host output keeps its lines and tabs; escape sequences,
// other control characters, bytes that are not UTF-8 and bidirectional
// overrides are shown as escapes.
func TestPrintable(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"ok\n\tindented\n", "ok\n\tindented\n"},
		{"refused\x1b]0;TITLE\x07\x1b]52;c;ZWNobw==\x07\n", `refused\x1b]0;TITLE\x07\x1b]52;c;ZWNobw==\x07` + "\n"},
		{"progress\r100%", `progress\x0d100%`},
		{"\x1b[2J", `\x1b[2J`},
		{"C1 \u009b31m", `C1 \u009b31m`},
		{"del\x7f", `del\x7f`},
		{"bad \xff\xfe utf-8", `bad \xff\xfe utf-8`},
		{"user\u202eexe.txt", `user\u202eexe.txt`},
		{"unit var-lib-x\\x2dy.mount, é, 日本", "unit var-lib-x\\x2dy.mount, é, 日本"},
	} {
		if got := printable(tc.in); got != tc.want {
			t.Errorf("printable(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// FuzzPrintable: whatever a host prints, what reaches the terminal is
// valid UTF-8 with no control character but line breaks and tabs, and no
// bidirectional control; and text without those is left as it is.
func FuzzPrintable(f *testing.F) {
	for _, s := range []string{"ok\n", "\x1b]52;c;eA==\x07", "\xff\xfe", "a\u202eb", "\u009b2J", "\r\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := printable(s)
		if !utf8.ValidString(got) || strings.ContainsFunc(got, needsEscape) {
			t.Fatalf("printable(%q) = %q", s, got)
		}
		if utf8.ValidString(s) && !strings.ContainsFunc(s, needsEscape) && got != s {
			t.Fatalf("printable(%q) = %q, changed", s, got)
		}
	})
}

// TestOutputBounded: a host that prints without end (cat /dev/zero) is
// stopped once it passes the bound, and the step fails saying so; the
// deployer keeps no more than the bound.
func TestOutputBounded(t *testing.T) {
	for _, stream := range []string{"stdout", "stderr"} {
		t.Run(stream, func(t *testing.T) {
			ssh := filepath.Join(t.TempDir(), "ssh")
			redirect := ""
			if stream == "stderr" {
				redirect = " >&2"
			}
			if err := os.WriteFile(ssh, []byte("#!/bin/sh\nexec cat /dev/zero"+redirect+"\n"), 0o755); err != nil {
				t.Fatal(err)
			}
			c := &conn{ssh: ssh, socket: "none"}
			start := time.Now()
			r := c.run(context.Background(), nil, "nodegen receive --missing x")
			if r.code != exitOverflow || !strings.Contains(r.stderr, "the host printed more than") || !strings.Contains(r.stderr, "on "+stream) {
				t.Fatalf("code %d, stderr %q", r.code, r.stderr)
			}
			if len(r.stdout) > maxStdout {
				t.Errorf("kept %d bytes", len(r.stdout))
			}
			if res := lost("asking the host which files it lacks", r); res.Outcome != Failed || res.Output != "" {
				t.Errorf("result %+v", res)
			}
			t.Logf("stopped after %s: %s", time.Since(start).Round(time.Millisecond), r.stderr)
		})
	}
}

// TestCappedBufferDrops: without a stop, what is past the bound is
// dropped and every write succeeds, so a master connection that a host
// floods with a banner keeps running.
func TestCappedBufferDrops(t *testing.T) {
	c := &cappedBuffer{max: 10}
	for _, w := range []string{"12345", "67890abc", "def"} {
		if n, err := c.Write([]byte(w)); n != len(w) || err != nil {
			t.Fatalf("Write(%q) = %d, %v", w, n, err)
		}
	}
	if got := c.b.String(); got != "1234567890" {
		t.Errorf("kept %q", got)
	}
}
