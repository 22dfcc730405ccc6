package eval

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/rogpeppe/go-internal/txtar"

	"github.com/nodegen/nodegen/eval/internal/declare"
	"github.com/nodegen/nodegen/modules"
)

// TestDirectConfigSplit checks splitConfigDirect against the general
// split of a config block's whole value: every golden case and the
// Kubernetes fixtures, evaluated both ways, give the same configuration,
// the same diagnostics, and the same definitions (values, ranges, order)
// at every option and namespace of every instance.
func TestDirectConfigSplit(t *testing.T) {
	compareFastPath(t, "the direct split", &directConfig, evaluationRecord)
}

// TestPlainObjects checks plainObject against the general construction
// of objects, as TestDirectConfigSplit checks the direct split; objects
// are charged for alike, too.
func TestPlainObjects(t *testing.T) {
	compareFastPath(t, "plainObject", &plainObjects, func(cfg Config) string {
		var allocated int64
		r := evaluationRecordOf(cfg, func(ev *Evaluator) { allocated = ev.stats.Allocated })
		return fmt.Sprintf("%sallocated %d\n", r, allocated)
	})
}

// compareFastPath records every case of recordCases with the fast path
// that *on turns on, and without it, and reports where they differ.
func compareFastPath(t *testing.T, what string, on *bool, record func(Config) string) {
	for _, c := range recordCases(t) {
		t.Run(c.name, func(t *testing.T) {
			general := withFlag(on, false, func() string { return record(c.cfg) })
			got := withFlag(on, true, func() string { return record(c.cfg) })
			if diff := cmp.Diff(general, got); diff != "" {
				t.Errorf("%s differs from the general way (-general +fast):\n%s", what, diff)
			}
		})
	}
}

// evalCase is an evaluation the tests of a fast path make both ways.
type evalCase struct {
	name string
	cfg  Config
}

// recordCases are every golden case and the Kubernetes fixtures.
func recordCases(t *testing.T) []evalCase {
	var cases []evalCase
	paths, err := filepath.Glob("testdata/*/*.txtar")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range paths {
		ar, err := txtar.ParseFile(p)
		if err != nil {
			t.Fatal(err)
		}
		fsys := fstest.MapFS{}
		for _, f := range ar.Files {
			fsys[f.Name] = &fstest.MapFile{Data: f.Data}
		}
		files := []string{"main.hcl"}
		for _, line := range strings.Split(string(ar.Comment), "\n") {
			if v, ok := strings.CutPrefix(line, "files: "); ok {
				files = strings.Fields(v)
			}
		}
		cases = append(cases, evalCase{p, Config{FS: fsys, Files: files}})
	}
	for _, dir := range []string{"k8s-worker", "k8s-single", "containerd-kubenet"} {
		cases = append(cases, evalCase{dir, Config{Files: []string{filepath.Join("..", "fixtures", dir, "host.hcl")}, Library: modules.FS()}})
	}
	return cases
}

// withFlag calls f with *flag set to on, and restores it.
func withFlag(flag *bool, on bool, f func() string) string {
	defer func(was bool) { *flag = was }(*flag)
	*flag = on
	return f()
}

// evaluationRecord evaluates cfg completely and records what can be told
// of it: diagnostics, warnings, the configuration, and the definitions
// every instance holds at every node, in order, with their ranges.
func evaluationRecord(cfg Config) string { return evaluationRecordOf(cfg, nil) }

// evaluationRecordOf is evaluationRecord, calling done (when not nil)
// with the evaluation once it is complete.
func evaluationRecordOf(cfg Config, done func(*Evaluator)) string {
	var b strings.Builder
	cfg.AllDefinitions = true // the record lists every definition
	ev, diags := New(cfg)
	if done != nil {
		defer done(ev)
	}
	if !diags.HasErrors() {
		warns, d := ev.Check()
		for _, w := range warns {
			fmt.Fprintf(&b, "warning: %s (%s)\n", w.Message, w.Range)
		}
		diags = append(diags, d...)
		if !d.HasErrors() {
			v, d := ev.Config()
			diags = append(diags, d...)
			if js, err := JSON(v); err == nil {
				b.Write(js)
			}
		}
	}
	var buf bytes.Buffer
	wr := hcl.NewDiagnosticTextWriter(&buf, ev.Files(), 0, false)
	_ = wr.WriteDiagnostics(diags)
	b.Write(buf.Bytes())
	if ev.top == nil {
		return b.String()
	}
	for _, inst := range append([]*instance{ev.top}, ev.instances...) {
		recordNode(&b, inst, inst.root)
	}
	return b.String()
}

func recordNode(b *strings.Builder, inst *instance, n *declare.Node) {
	if s := inst.peekState(n); s != nil {
		where := inst.fullPath(n.Path).String()
		for _, d := range s.defs {
			fmt.Fprintf(b, "%s def %v at %s: %s\n", where, d.seq, d.Range, showDef(d.Value))
		}
		for _, d := range s.pending {
			fmt.Fprintf(b, "%s pending %v at %s: %s\n", where, d.seq, d.Range, showDef(d.Value))
		}
		for _, p := range s.parts {
			fmt.Fprintf(b, "%s part %d at %s: %s\n", where, p.State, p.Range, showDef(p.Value))
		}
	}
	for _, name := range n.Names {
		recordNode(b, inst, n.Children[name])
	}
}
