package main

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/nodegen/nodegen/internal/suitereport"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"nodegen": func() { os.Exit(Main()) },
	})
}

// TestScripts runs the command-line tests in testdata/script.
// NODEGEN_UPDATE=1 rewrites their golden files.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		RequireExplicitExec: true,
		RequireUniqueNames:  true,
		UpdateScripts:       os.Getenv("NODEGEN_UPDATE") != "",
		// [root]: the test runs as root (keys are given their owners).
		// [registry]: docker-registry is installed (the registry
		// command); under CI its absence fails the script.
		Condition: func(cond string) (bool, error) {
			switch cond {
			case "root":
				return os.Geteuid() == 0, nil
			case "registry":
				if _, err := exec.LookPath("docker-registry"); err != nil {
					if suitereport.InCI() {
						return false, fmt.Errorf("docker-registry is not installed (Debian's docker-registry package), which .ci/run installs")
					}
					return false, nil
				}
				return true, nil
			}
			return false, fmt.Errorf("unknown condition %q", cond)
		},
		Cmds: map[string]func(*testscript.TestScript, bool, []string){
			"exits":    exits,
			"serve":    serve,
			"envsubst": envsubst,
			"targz":    targz,
			"tarfiles": tarfiles,
			"registry": registry,
		},
	})
}

// exits N PROGRAM ARGS... runs a program and wants it to exit with status
// N; its stdout and stderr are kept for the next commands.
func exits(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: exits N PROGRAM [ARGS...]")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("exits: %v", err)
	}
	got := 0
	var exitErr *exec.ExitError
	switch err := ts.Exec(args[1], args[2:]...); {
	case errors.As(err, &exitErr):
		got = exitErr.ExitCode()
	case err != nil:
		ts.Fatalf("exits: %v", err)
	}
	if got != want {
		ts.Fatalf("%s exited with status %d, want %d", args[1], got, want)
	}
}

// tarfiles ARCHIVE DIR NAME... writes the files NAME... of DIR, in that
// order, as the uncompressed tar stream that nodegen deploy sends to
// nodegen receive.
func tarfiles(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: tarfiles ARCHIVE DIR [NAME...]")
	}
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	for _, name := range args[2:] {
		data, err := os.ReadFile(filepath.Join(ts.MkAbs(args[1]), filepath.FromSlash(name)))
		ts.Check(err)
		ts.Check(tw.WriteHeader(&tar.Header{Name: name, Mode: 0o600, Size: int64(len(data)), Typeflag: tar.TypeReg}))
		_, err = tw.Write(data)
		ts.Check(err)
	}
	ts.Check(tw.Close())
	ts.Check(os.WriteFile(ts.MkAbs(args[0]), buf.Bytes(), 0o644))
}

// serve DIR serves the files below DIR over HTTP for the rest of the
// script, at the URL it puts in $MIRROR (http://127.0.0.1:PORT): a mirror
// of release files, as a test network's would be.
func serve(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: serve DIR")
	}
	srv := httptest.NewServer(http.FileServer(http.Dir(ts.MkAbs(args[0]))))
	ts.Defer(srv.Close)
	ts.Setenv("MIRROR", srv.URL)
}

// registry starts the CNCF distribution registry (Debian's
// docker-registry) on a free loopback port for the rest of the script,
// storing in $WORK/registry, and puts its address (127.0.0.1:PORT) in
// $REGISTRY. A script that uses it begins with [!registry] skip.
func registry(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 0 {
		ts.Fatalf("usage: registry")
	}
	bin, err := exec.LookPath("docker-registry")
	if err != nil {
		ts.Fatalf("registry: docker-registry is not installed (Debian's docker-registry package); guard the script with [!registry] skip")
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	ts.Check(err)
	addr := l.Addr().String()
	l.Close()
	dir := ts.MkAbs("registry")
	ts.Check(os.MkdirAll(dir, 0o755))
	cfg := filepath.Join(dir, "config.yml")
	ts.Check(os.WriteFile(cfg, fmt.Appendf(nil, "version: 0.1\nlog:\n  level: error\nstorage:\n  filesystem:\n    rootdirectory: %s\nhttp:\n  addr: %s\n", filepath.Join(dir, "storage"), addr), 0o644))
	log, err := os.Create(filepath.Join(dir, "registry.log"))
	ts.Check(err)
	cmd := exec.Command(bin, "serve", cfg)
	cmd.Stdout, cmd.Stderr = log, log
	ts.Check(cmd.Start())
	ts.Defer(func() {
		cmd.Process.Kill()
		cmd.Wait()
		log.Close()
	})
	for deadline := time.Now().Add(30 * time.Second); ; {
		resp, err := http.Get("http://" + addr + "/v2/")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				break
			}
		}
		if time.Now().After(deadline) {
			out, _ := os.ReadFile(log.Name())
			ts.Fatalf("registry: docker-registry did not answer on %s: %v\n%s", addr, err, out)
		}
		time.Sleep(50 * time.Millisecond)
	}
	ts.Setenv("REGISTRY", addr)
}

// envsubst FILE... replaces $NAME and ${NAME} in the files with the
// script's environment variables (the files of a script cannot hold
// values known only when it runs, such as $MIRROR).
func envsubst(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) == 0 {
		ts.Fatalf("usage: envsubst FILE...")
	}
	for _, name := range args {
		path := ts.MkAbs(name)
		data, err := os.ReadFile(path)
		ts.Check(err)
		ts.Check(os.WriteFile(path, []byte(os.Expand(string(data), ts.Getenv)), 0o644))
	}
}

// targz ARCHIVE DIR writes a tar.gz of the regular files below DIR, their
// names relative to DIR, in name order, with fixed times and owners: the
// same files make the same bytes.
func targz(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: targz ARCHIVE DIR")
	}
	dir := ts.MkAbs(args[1])
	var names []string
	ts.Check(filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			names = append(names, p)
		}
		return err
	}))
	sort.Strings(names)
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	for _, p := range names {
		data, err := os.ReadFile(p)
		ts.Check(err)
		rel, err := filepath.Rel(dir, p)
		ts.Check(err)
		ts.Check(tw.WriteHeader(&tar.Header{Name: filepath.ToSlash(rel), Mode: 0o755, Size: int64(len(data)), Typeflag: tar.TypeReg}))
		_, err = tw.Write(data)
		ts.Check(err)
	}
	ts.Check(tw.Close())
	ts.Check(gz.Close())
	out := ts.MkAbs(args[0])
	ts.Check(os.MkdirAll(filepath.Dir(out), 0o755))
	ts.Check(os.WriteFile(out, buf.Bytes(), 0o644))
}
