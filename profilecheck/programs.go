package profilecheck

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
// before anything changes (Programs). The manifest carries them
// (profile.ManifestEntry).

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

// Mode says what a program check that cannot run means (--checks): the
// rules that need no program run in every mode.
type Mode int

const (
	// Auto runs the checks whose programs this machine has; one that
	// cannot run is a note.
	Auto Mode = iota
	// Required runs every check; one that cannot run is a problem.
	Required
	// Off runs no program check.
	Off
)

// ParseMode reads --checks: auto, required or off.
func ParseMode(s string) (Mode, error) {
	switch s {
	case "auto":
		return Auto, nil
	case "required":
		return Required, nil
	case "off":
		return Off, nil
	}
	return 0, fmt.Errorf("want auto, required or off, not %q", s)
}

// Programs runs the checks of files by the programs that read them
// (File.Checks). A check that fails is a problem; one that cannot run
// here (its program missing, or root needed) is a problem in Required
// mode and a note in Auto mode, the only thing the mode decides; Off runs
// none. Problems and notes come in the order of files.
func Programs(files []File, mode Mode) (problems, notes []Problem) {
	if mode == Off {
		return nil, nil
	}
	for _, f := range files {
		for _, c := range f.Checks {
			p := Problem{Option: f.Option, Path: f.Path}
			if why := c.Missing(); why != "" {
				p.Summary, p.Message = "Check cannot run", "the check cannot run here: "+why
				if mode == Auto {
					notes = append(notes, p)
				} else {
					problems = append(problems, p)
				}
				continue
			}
			out, err := c.Run(f.Path, f.Content)
			if err == nil {
				continue
			}
			p.Summary = "Check of a generated file failed"
			p.Message = fmt.Sprintf("the program that reads it refuses it: %s", err)
			p.Output = indentText(string(out)) + "The check:\n" + strings.TrimSuffix(indentText(c.Script), "\n")
			problems = append(problems, p)
		}
	}
	return problems, notes
}

// indentText indents each line of s by two spaces, for a message.
func indentText(s string) string {
	s = strings.TrimRight(s, "\n")
	if s == "" {
		return "  (no output)\n"
	}
	return "  " + strings.ReplaceAll(s, "\n", "\n  ") + "\n"
}
