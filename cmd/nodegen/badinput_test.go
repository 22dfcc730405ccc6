package main

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"text/template"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

// Bounds on each nodegen that the bad-input corpus runs: every case must
// end well within them, and a regression (a crash, a blow-up, a hang)
// fails its case instead of taking the machine down.
const (
	// badInputMemory is bytes of address space. The Go runtime maps some
	// 1.2 GB before the first allocation and reserves arenas ahead of the
	// heap: the cases that stop at a limit use 1.8-2 GB of it with a heap
	// of about 300 MB, and failed now and then at 2 GB on a loaded machine.
	badInputMemory  = 3 << 30
	badInputCPU     = 30   // seconds of CPU time
	badInputFiles   = 1024 // open file descriptors, unless the script says fewer
	badInputTimeout = 60 * time.Second
)

// TestBadInput runs the bad-input corpus, testdata/badinput: one script for
// each kind of bad input nodegen must answer with a clear message and exit
// code, never a crash, a hang, running out of memory or a lost file. The
// scripts are testscripts with three more commands:
//
//	limited [-files=N] CODE nodegen ARGS...
//	    run nodegen under the bounds above (with -files, at most N open
//	    file descriptors); fail unless it exits with CODE and prints no
//	    Go stack trace or fatal error
//	gen FILE TEMPLATE
//	    write FILE from the text/template TEMPLATE (a file of the script),
//	    with {{repeat S N}} for huge and deep inputs, {{range seq N}}
//	    for 0 to N-1, {{inc I}} for I+1 and {{abs F}} for the absolute
//	    path of the script's file F
//	mkfifo FILE
//	    make a named pipe (Linux only)
//	crlf FILE
//	    give FILE CRLF line endings
//	truncate FILE SIZE
//	    set FILE's size, making a sparse file of SIZE bytes
func TestBadInput(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/badinput",
		RequireExplicitExec: true,
		RequireUniqueNames:  true,
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"limited":  cmdLimited,
			"gen":      cmdGen,
			"crlf":     cmdCRLF,
			"truncate": cmdTruncate,
			"mkfifo":   cmdMkfifo,
		},
	})
}

func cmdLimited(ts *testscript.TestScript, neg bool, args []string) {
	files := uint64(badInputFiles)
	if len(args) > 0 && strings.HasPrefix(args[0], "-files=") {
		n, err := strconv.ParseUint(strings.TrimPrefix(args[0], "-files="), 10, 32)
		ts.Check(err)
		files, args = n, args[1:]
	}
	if neg || len(args) < 2 || args[1] != "nodegen" {
		ts.Fatalf("usage: limited [-files=N] CODE nodegen ARGS...")
	}
	want, err := strconv.Atoi(args[0])
	ts.Check(err)
	bin, err := exec.LookPath("nodegen")
	ts.Check(err)
	ctx, cancel := context.WithTimeout(context.Background(), badInputTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args[2:]...)
	cmd.Dir = ts.MkAbs(".")
	// GODEBUG=disablethp=1: no huge-page heap reservation at start-up,
	// before the limits are set (see internal/runtimetune).
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + ts.Getenv("HOME"), "TMPDIR=" + ts.Getenv("TMPDIR"), "GODEBUG=disablethp=1"}
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	ts.Check(cmd.Start())
	limitErr := limitProcess(cmd.Process.Pid, badInputMemory, badInputCPU, files)
	err = cmd.Wait()
	ts.Stdout().Write([]byte(stdout.String()))
	ts.Stderr().Write([]byte(stderr.String()))
	ts.Check(limitErr)
	if ctx.Err() != nil {
		ts.Fatalf("nodegen did not finish within %v", badInputTimeout)
	}
	code := 0
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		code = exit.ExitCode()
	} else {
		ts.Check(err)
	}
	if code != want {
		ts.Fatalf("nodegen exited with %d (%v), want %d", code, err, want)
	}
	for _, crash := range []string{"goroutine ", "fatal error", "panic:", "runtime: "} {
		if strings.Contains(stderr.String(), crash) {
			ts.Fatalf("nodegen crashed: stderr has %q", crash)
		}
	}
}

func cmdGen(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: gen FILE TEMPLATE")
	}
	funcs := template.FuncMap{"repeat": strings.Repeat, "inc": func(i int) int { return i + 1 }, "abs": ts.MkAbs, "seq": func(n int) []int {
		s := make([]int, n)
		for i := range s {
			s[i] = i
		}
		return s
	}}
	tmpl, err := template.New(args[1]).Funcs(funcs).Parse(ts.ReadFile(args[1]))
	ts.Check(err)
	f, err := os.Create(ts.MkAbs(args[0]))
	ts.Check(err)
	err = tmpl.Execute(f, nil)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	ts.Check(err)
}

func cmdCRLF(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: crlf FILE")
	}
	text := strings.ReplaceAll(ts.ReadFile(args[0]), "\n", "\r\n")
	ts.Check(os.WriteFile(ts.MkAbs(args[0]), []byte(text), 0o644))
}

func cmdTruncate(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: truncate FILE SIZE")
	}
	size, err := strconv.ParseInt(args[1], 10, 64)
	ts.Check(err)
	ts.Check(os.Truncate(ts.MkAbs(args[0]), size))
}

func cmdMkfifo(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: mkfifo FILE")
	}
	ts.Check(mkfifo(ts.MkAbs(args[0])))
}
