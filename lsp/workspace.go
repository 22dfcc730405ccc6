package lsp

import (
	"io/fs"
	"path"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/nodegen/nodegen/eval"
	"github.com/nodegen/nodegen/internal/regularfile"
)

// maxWorkspaceModules, maxWorkspaceEntries and maxWorkspaceBytes bound the
// modules read, the directory entries looked at and the bytes read to find
// the workspace's hosts (a workspace root may be a home directory); a
// larger workspace names its hosts (Options.Hosts). Each module is read
// as an evaluation reads it: a regular file of at most the file limit.
const (
	maxWorkspaceModules = 5000
	maxWorkspaceEntries = 100000
	maxWorkspaceBytes   = 256 << 20
)

// workspace is what the server knows of the modules below the workspace
// root when no hosts are named: which module imports which (the constant
// imports lists), and so the hosts, the modules no other module imports.
type workspace struct {
	// imports maps each module to those it imports, paths inside the
	// overlay.
	imports map[string][]string
	hosts   []string // sorted
}

// scanWorkspace reads the modules below root (not the test files, nor
// hidden directories) and their imports.
func scanWorkspace(fsys fs.FS, root string) *workspace {
	w := &workspace{imports: map[string][]string{}}
	if root == "" {
		return w
	}
	imported := map[string]bool{}
	n, entries, budget := 0, 0, int64(maxWorkspaceBytes)
	_ = fs.WalkDir(fsys, root, func(p string, e fs.DirEntry, err error) error {
		if entries++; entries > maxWorkspaceEntries {
			return fs.SkipAll
		}
		if err != nil {
			return nil
		}
		if e.IsDir() {
			if p != root && (strings.HasPrefix(e.Name(), ".") || e.Name() == "node_modules") {
				return fs.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".hcl") || isTestFile(p) {
			return nil
		}
		if n++; n > maxWorkspaceModules {
			return fs.SkipAll
		}
		// A regular file of bounded size (not a FIFO, which would
		// block, nor a link to /dev/zero), read in a bounded total.
		src, err := regularfile.Read(fsys, p, min(eval.DefaultLimits.FileBytes, budget))
		if err != nil {
			return nil
		}
		if budget -= int64(len(src)); budget <= 0 {
			return fs.SkipAll
		}
		var deps []string
		for _, rel := range constantImports(src, p) {
			dep := path.Join(path.Dir(p), rel)
			if st, err := fs.Stat(fsys, dep); err == nil && st.IsDir() {
				dep = path.Join(dep, "default.hcl")
			}
			deps = append(deps, dep)
			imported[dep] = true
		}
		w.imports[p] = deps
		return nil
	})
	for m := range w.imports {
		if !imported[m] {
			w.hosts = append(w.hosts, m)
		}
	}
	sort.Strings(w.hosts)
	return w
}

// constantImports are the strings of a module's imports list when it is
// written as constants (computed imports are left out).
func constantImports(src []byte, name string) []string {
	f, _ := hclsyntax.ParseConfig(src, name, hcl.InitialPos)
	body, ok := f.Body.(*hclsyntax.Body)
	if !ok {
		return nil
	}
	a := body.Attributes["imports"]
	if a == nil {
		return nil
	}
	tup, ok := a.Expr.(*hclsyntax.TupleConsExpr)
	if !ok {
		return nil
	}
	var out []string
	for _, el := range tup.Exprs {
		if s, ok := objectKey(el); ok {
			out = append(out, s)
		}
	}
	return out
}

// hostsOf are the hosts whose imports reach the module at name, sorted.
func (w *workspace) hostsOf(name string) []string {
	var out []string
	for _, h := range w.hosts {
		seen := map[string]bool{}
		var reaches func(m string) bool
		reaches = func(m string) bool {
			if m == name {
				return true
			}
			if seen[m] {
				return false
			}
			seen[m] = true
			for _, dep := range w.imports[m] {
				if reaches(dep) {
					return true
				}
			}
			return false
		}
		if reaches(h) {
			out = append(out, h)
		}
	}
	return out
}
