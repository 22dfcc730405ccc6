//go:build linux

package kubernetes

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nodegen/nodegen/profilecheck"
)

// TestFlagsAccepted runs each Kubernetes program that a fixture's unit
// starts, with the unit's arguments and --version: the programs parse
// every flag before they look at --version, so an unknown flag or a value
// of the wrong type fails where the version would have been printed. (The
// CoreOS kubelet-wrapper's flags are not checked: it runs the kubelet of
// the hyperkube image its unit names, 1.5 or 1.7 in the fixtures.)
func TestFlagsAccepted(t *testing.T) {
	bins := binaries(t)
	hosts, err := filepath.Glob("../../fixtures/*/host.hcl")
	if err != nil {
		t.Fatal(err)
	}
	checked := map[string]int{} // fixture → units checked
	for _, host := range hosts {
		fixture := filepath.Base(filepath.Dir(host))
		t.Run(fixture, func(t *testing.T) {
			root := writeProfile(t, evaluate(t, host))
			units, _ := filepath.Glob(filepath.Join(root, "etc/systemd/system/*.service"))
			for _, unit := range units {
				if info, err := os.Lstat(unit); err != nil || !info.Mode().IsRegular() {
					continue // a link: an alias, or a unit the host has
				}
				args, err := execStart(unit)
				if err != nil {
					t.Errorf("%s: %v", filepath.Base(unit), err)
					continue
				}
				if len(args) == 0 {
					continue // a unit of another program
				}
				checked[fixture]++
				checkFlags(t, filepath.Join(bins, path.Base(args[0])), filepath.Base(unit), args[1:])
			}
		})
	}
	// The fixtures of Kubernetes hosts must have been found and checked.
	for _, fixture := range []string{"k8s-single", "k8s-master", "k8s-worker", "containerd-kubelet", "containerd-worker"} {
		if checked[fixture] == 0 {
			t.Errorf("no Kubernetes unit of the fixture %s was checked", fixture)
		}
	}
	t.Logf("units checked per fixture: %v", checked)
}

// checkFlags runs the program bin with args and --version, and fails t
// unless it exits 0 and prints its version.
func checkFlags(t *testing.T, bin, unit string, args []string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, append(slices.Clone(args), "--version")...)
	cmd.Env = []string{"PATH=/usr/sbin:/usr/bin:/sbin:/bin", "HOME=" + t.TempDir()}
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), version) {
		t.Errorf("%s: %s %s --version: %v\n%s", unit, filepath.Base(bin), strings.Join(args, " "), err, out)
	}
}

// execStart returns the command line of a service unit file's ExecStart
// (the last one, without systemd's prefixes such as "-" and "@") when it
// runs one of programs, split into words as systemd splits it, with $NAME
// and ${NAME} expanded from the unit's Environment= lines (a lone $NAME to
// the value's words); nil when the unit runs another program or none.
func execStart(unitFile string) ([]string, error) {
	data, err := os.ReadFile(unitFile)
	if err != nil {
		return nil, err
	}
	env := map[string]string{}
	var line string
	for _, l := range strings.Split(string(data), "\n") {
		key, value, ok := strings.Cut(l, "=")
		switch {
		case !ok:
		case key == "ExecStart":
			line = value
		case key == "Environment":
			assignments, ok := profilecheck.ConfWords(value)
			if !ok {
				return nil, fmt.Errorf("Environment=%s: an unterminated quote or escape", value)
			}
			for _, w := range assignments {
				if k, v, ok := strings.Cut(w, "="); ok {
					env[k] = v
				}
			}
		}
	}
	line = strings.TrimLeft(line, "-@:+!")
	program, _, _ := strings.Cut(line, " ")
	if !slices.Contains(programs, path.Base(program)) {
		return nil, nil
	}
	split, ok := profilecheck.ConfWords(line)
	if !ok {
		return nil, fmt.Errorf("ExecStart=%s: an unterminated quote or escape", line)
	}
	var args []string
	for _, w := range split {
		// A word that is a lone $NAME becomes the value's words, as
		// systemd splits it; ${NAME} stays one word.
		if name, ok := strings.CutPrefix(w, "$"); ok && !strings.ContainsAny(name, "${}") {
			v, ok := env[name]
			if !ok {
				return nil, fmt.Errorf("ExecStart=%s: no Environment= sets %s", line, name)
			}
			args = append(args, strings.Fields(v)...)
			continue
		}
		if strings.Contains(w, "$") {
			var unknown []string
			w = os.Expand(w, func(name string) string {
				v, ok := env[name]
				if !ok {
					unknown = append(unknown, name)
				}
				return v
			})
			if len(unknown) > 0 {
				return nil, fmt.Errorf("ExecStart=%s: no Environment= sets %s", line, strings.Join(unknown, ", "))
			}
		}
		args = append(args, w)
	}
	return args, nil
}

func TestExecStart(t *testing.T) {
	unit := filepath.Join(t.TempDir(), "a.service")
	write := func(text string) {
		t.Helper()
		if err := os.WriteFile(unit, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("[Service]\n" +
		`Environment="OPTS=--v=2 --w" "CA=/etc/ca dir/ca.pem"` + "\n" +
		`ExecStart=-/opt/bin/kubelet --a="10s" '--b=x y' --c=${CA} $OPTS --d=e\ f` + "\n")
	got, err := execStart(unit)
	want := []string{"/opt/bin/kubelet", "--a=10s", "--b=x y", "--c=/etc/ca dir/ca.pem", "--v=2", "--w", "--d=e f"}
	if err != nil || !slices.Equal(got, want) {
		t.Errorf("execStart: %q, %v; want %q", got, err, want)
	}
	write("[Service]\nExecStart=/usr/bin/find /var/tmp \\;\n")
	if got, err := execStart(unit); err != nil || got != nil {
		t.Errorf("the unit of another program: %q, %v; want nothing", got, err)
	}
	write("[Service]\nExecStart=/bin/kubelet $NOPE\n")
	if _, err := execStart(unit); err == nil || !strings.Contains(err.Error(), "NOPE") {
		t.Errorf("a variable no Environment= sets: %v, want an error naming it", err)
	}
}
