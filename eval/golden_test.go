package eval_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"
	"github.com/rogpeppe/go-internal/txtar"

	"github.com/nodegen/nodegen/eval"
	"github.com/nodegen/nodegen/options"
)

// TestGolden runs every txtar case under testdata/. A case holds modules
// (main.hcl is evaluated; other files may be imported) and golden outputs:
// out/config.json (the whole config, after assertions), out/errors.txt (the
// rendered diagnostics) and out/warnings.txt. A comment line "attr: PATH"
// reads one value instead of the whole config; "files: a.hcl b.hcl" names
// the command-line modules. NODEGEN_UPDATE=1 rewrites the outputs.
func TestGolden(t *testing.T) {
	paths, err := filepath.Glob("testdata/*/*.txtar")
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) == 0 {
		t.Fatal("no golden cases")
	}
	for _, p := range paths {
		name := strings.TrimSuffix(strings.TrimPrefix(p, "testdata/"), ".txtar")
		t.Run(name, func(t *testing.T) { runGolden(t, p) })
	}
}

func runGolden(t *testing.T, path string) {
	ar, err := txtar.ParseFile(path)
	if err != nil {
		t.Fatal(err)
	}
	fsys := fstest.MapFS{}
	files := []string{"main.hcl"}
	var attr string
	for _, line := range strings.Split(string(ar.Comment), "\n") {
		if v, ok := strings.CutPrefix(line, "attr: "); ok {
			attr = strings.TrimSpace(v)
		}
		if v, ok := strings.CutPrefix(line, "files: "); ok {
			files = strings.Fields(v)
		}
	}
	want := map[string]string{}
	for _, f := range ar.Files {
		if strings.HasPrefix(f.Name, "out/") {
			want[f.Name] = string(f.Data)
			continue
		}
		fsys[f.Name] = &fstest.MapFile{Data: f.Data}
	}
	got := evaluate(t, fsys, files, attr)
	if os.Getenv("NODEGEN_UPDATE") != "" {
		var kept []txtar.File
		for _, f := range ar.Files {
			if !strings.HasPrefix(f.Name, "out/") {
				kept = append(kept, f)
			}
		}
		for _, name := range []string{"out/config.json", "out/errors.txt", "out/warnings.txt"} {
			if s, ok := got[name]; ok {
				kept = append(kept, txtar.File{Name: name, Data: []byte(s)})
			}
		}
		ar.Files = kept
		if err := os.WriteFile(path, txtar.Format(ar), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("outputs differ (-want +got):\n%s", diff)
	}
}

func evaluate(t *testing.T, fsys fstest.MapFS, files []string, attr string) map[string]string {
	t.Helper()
	out := map[string]string{}
	ev, diags := eval.New(eval.Config{FS: fsys, Files: files})
	render := func(diags hcl.Diagnostics) {
		var buf bytes.Buffer
		wr := hcl.NewDiagnosticTextWriter(&buf, ev.Files(), 0, false)
		if err := wr.WriteDiagnostics(diags); err != nil {
			t.Fatal(err)
		}
		out["out/errors.txt"] = buf.String()
	}
	if diags.HasErrors() {
		render(diags)
		return out
	}
	var v ctyValue
	if attr != "" {
		p, err := options.ParsePath(attr)
		if err != nil {
			t.Fatal(err)
		}
		v, diags = ev.Get(p)
	} else {
		warns, d := ev.Check()
		if len(warns) > 0 {
			var b strings.Builder
			for _, w := range warns {
				b.WriteString("warning: " + w.Message + "\n")
			}
			out["out/warnings.txt"] = b.String()
		}
		diags = d
		if !diags.HasErrors() {
			v, diags = ev.Config()
		}
	}
	if diags.HasErrors() {
		render(diags)
		return out
	}
	b, err := eval.JSON(v)
	if err != nil {
		t.Fatal(err)
	}
	out["out/config.json"] = string(b)
	return out
}
