package profile

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/hashicorp/hcl/v2"

	"github.com/nodegen/nodegen/eval"
	"github.com/nodegen/nodegen/options"
	"github.com/nodegen/nodegen/property"
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

// RunChecks runs the checks of the entries of an evaluation (ev) by the
// programs that read them. A check that fails is an error located at the
// definitions of the option the file comes from, the user's first; one
// that cannot run (its program missing, or root needed) is a note in
// ChecksAuto, an error in ChecksRequired.
func RunChecks(ev *eval.Evaluator, entries []Entry, mode CheckMode) (notes []string, diags hcl.Diagnostics) {
	if mode == ChecksOff {
		return nil, nil
	}
	for _, e := range entries {
		for _, c := range e.Checks {
			shown := "/etc/" + e.Target
			if why := c.Missing(); why != "" {
				if mode == ChecksAuto {
					notes = append(notes, fmt.Sprintf("the check of %s (from %s) did not run: %s; --checks=required makes this an error", shown, e.Option, why))
					continue
				}
				diags = append(diags, checkDiag(ev, e, "Check cannot run",
					fmt.Sprintf("The check of %s, from %s, cannot run here: %s (--checks=required).", shown, e.Option, why)))
				continue
			}
			out, err := c.Run(e.Target, e.Content)
			if err == nil {
				continue
			}
			diags = append(diags, checkDiag(ev, e, "Check of a generated file failed",
				fmt.Sprintf("%s, from %s, is refused by the program that reads it (%s):\n\n%s\nThe check:\n%s",
					shown, e.Option, err, indentText(string(out)), strings.TrimSuffix(indentText(c.Script), "\n"))))
		}
	}
	return notes, diags
}

// checkDiag is an error about the checks of e, at the definitions of the
// option it comes from that won, the user's first (those after the first
// are named in the detail). When that option is a namespace rather than
// an option (services.chrony), it is at the user's definitions of the
// options in it, else at the definition of the file's text.
func checkDiag(ev *eval.Evaluator, e Entry, summary, detail string) *hcl.Diagnostic {
	d := &hcl.Diagnostic{Severity: hcl.DiagError, Summary: summary, Detail: detail}
	user, lib := wonDefinitions(ev, e.Option)
	if len(user)+len(lib) == 0 {
		if p, err := options.ParsePath(e.Option); err == nil {
			user = userDefinitionsIn(ev, p, 3)
		}
	}
	if len(user)+len(lib) == 0 {
		user, lib = wonDefinitions(ev, etcPath.Child(e.Target).Child("text").String())
	}
	ranges := append(user, lib...)
	if len(ranges) == 0 {
		return d
	}
	d.Subject = ranges[0].Ptr()
	if len(user) > 0 {
		ranges = user
	}
	if len(ranges) > 1 {
		var others []string
		for _, r := range ranges[1:] {
			others = append(others, options.ShowPos(r))
		}
		d.Detail += "\n" + e.Option + " is also defined at " + strings.Join(others, ", ") + "."
	}
	return d
}

// wonDefinitions returns where the definitions of the option at path that
// won are: those in the user's files, and those in the library.
func wonDefinitions(ev *eval.Evaluator, path string) (user, lib []hcl.Range) {
	p, err := options.ParsePath(path)
	if err != nil {
		return nil, nil
	}
	x, ds := ev.Explain(p)
	if ds.HasErrors() {
		return nil, nil
	}
	for _, def := range x.Definitions {
		switch {
		case def.State != property.Won:
		case strings.HasPrefix(def.Range.Filename, eval.LibraryPrefix):
			lib = append(lib, def.Range)
		default:
			user = append(user, def.Range)
		}
	}
	return user, lib
}

// userDefinitionsIn returns where the user's winning definitions of the
// options in the namespace p are, depth levels of namespaces down, in
// order of their paths.
func userDefinitionsIn(ev *eval.Evaluator, p options.Path, depth int) []hcl.Range {
	v, diags := ev.Get(p)
	if diags.HasErrors() || depth == 0 || !v.IsKnown() || v.IsNull() || !v.Type().IsObjectType() {
		return nil
	}
	names := make([]string, 0, len(v.Type().AttributeTypes()))
	for n := range v.Type().AttributeTypes() {
		names = append(names, n)
	}
	sort.Strings(names)
	var user []hcl.Range
	for _, n := range names {
		if ev.IsDeclared(p.Child(n)) {
			u, _ := wonDefinitions(ev, p.Child(n).String())
			user = append(user, u...)
			continue
		}
		user = append(user, userDefinitionsIn(ev, p.Child(n), depth-1)...)
	}
	return user
}

// indentText indents each line of s by two spaces, for a detail.
func indentText(s string) string {
	s = strings.TrimRight(s, "\n")
	if s == "" {
		return "  (no output)\n"
	}
	return "  " + strings.ReplaceAll(s, "\n", "\n  ") + "\n"
}
