package profile

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// This file holds the checks of generated files by the programs that read
// them, NixOS's checkConfig pattern: a module declares, next to a file it
// generates (environment.etc.NAME.checks), the command that validates it,
// as sshd -t or nft -c; nodegen eval runs the checks whose programs the
// build machine has, and nodegen switch runs every check on the target
// before anything changes. The manifest carries them (ManifestEntry).

// A ProgramCheck is a check of one file: a POSIX shell script, run with
// sh -e in an empty temporary directory (its working directory, where it
// may write what it needs, such as a host key) with the path of a copy of
// the file as $1. The check passes when the script exits 0.
type ProgramCheck struct {
	// Programs are the absolute paths of the programs the script runs:
	// where one is missing, the check cannot run.
	Programs []string `json:"programs"`
	// Script is the script.
	Script string `json:"script"`
	// Root says the check needs root (nft -c needs CAP_NET_ADMIN): run by
	// another user, it cannot run.
	Root bool `json:"root,omitempty"`
}

// checkTimeout bounds one check.
const checkTimeout = 30 * time.Second

// Missing returns why c cannot run on this machine: the programs that are
// not there, or that it needs root; "" when it can run.
func (c ProgramCheck) Missing() string {
	var missing []string
	for _, p := range c.Programs {
		if fi, err := os.Stat(p); err != nil || fi.IsDir() || fi.Mode()&0o111 == 0 {
			missing = append(missing, p)
		}
	}
	switch {
	case len(missing) > 0:
		return strings.Join(missing, ", ") + " not installed"
	case c.Root && os.Geteuid() != 0:
		return "it needs root"
	}
	return ""
}

// Run runs c on a copy of content, named like target (its base name),
// and returns the script's output and an error when it failed.
func (c ProgramCheck) Run(target string, content []byte) ([]byte, error) {
	dir, err := os.MkdirTemp("", "nodegen-check-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	file := filepath.Join(dir, "file", filepath.Base(target))
	if err := os.MkdirAll(filepath.Dir(file), 0o700); err != nil {
		return nil, err
	}
	if err := os.WriteFile(file, content, 0o600); err != nil {
		return nil, err
	}
	work := filepath.Join(dir, "work")
	if err := os.Mkdir(work, 0o700); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), checkTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "/bin/sh", "-e", "-c", c.Script, "sh", file)
	cmd.Dir = work
	cmd.Env = []string{"PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", "HOME=" + work, "LC_ALL=C"}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err = cmd.Run()
	if ctx.Err() != nil {
		err = fmt.Errorf("it ran longer than %s", checkTimeout)
	}
	// The copy's temporary path means nothing to the reader: name the file.
	shown := bytes.ReplaceAll(out.Bytes(), []byte(file), []byte("/etc/"+target))
	return shown, err
}

// CheckMode says which checks RunChecks runs.
type CheckMode int

const (
	// ChecksAuto runs the checks whose programs this machine has; one that
	// cannot run is a note.
	ChecksAuto CheckMode = iota
	// ChecksRequired runs every check; one that cannot run is an error.
	ChecksRequired
	// ChecksOff runs none.
	ChecksOff
)

// ParseCheckMode reads --checks: auto, required or off.
func ParseCheckMode(s string) (CheckMode, error) {
	switch s {
	case "auto":
		return ChecksAuto, nil
	case "required":
		return ChecksRequired, nil
	case "off":
		return ChecksOff, nil
	}
	return 0, fmt.Errorf("want auto, required or off, not %q", s)
}
