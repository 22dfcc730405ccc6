package eval

import (
	"fmt"
	"io/fs"
	"maps"
	"path"
	"reflect"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/nodegen/nodegen/eval/internal/slabs"
	"github.com/nodegen/nodegen/eval/internal/syntax"
	"github.com/nodegen/nodegen/internal/parsecache"
	"github.com/nodegen/nodegen/internal/regularfile"
	"github.com/nodegen/nodegen/internal/runtimetune"
	"github.com/nodegen/nodegen/lib"
)

// loader parses modules and collects them in NixOS order.
type loader struct {
	mu     sync.Mutex
	files  map[string]*hcl.File      // by display name, for diagnostics
	mods   map[string]*syntax.Module // by key
	limits Limits                    // on the size and number of files
	// compute evaluates a computed imports or disabled_modules attribute
	// of a module (see syntax.Module.Computed).
	compute func(m *syntax.Module, attr *hclsyntax.Attribute) ([]string, hcl.Diagnostics)
	links   map[string]*moduleLinks // by module key, see linksOf
	cache   *parsecache.Cache       // nil parses every file
	fleet   *Fleet                  // nil: the evaluation is alone
}

// moduleLinks are the modules one module imports and disables.
type moduleLinks struct {
	imports  []syntax.Source
	disabled []string // module keys
}

func newLoader(limits Limits, cache *parsecache.Cache, fleet *Fleet) *loader {
	return &loader{files: map[string]*hcl.File{}, mods: map[string]*syntax.Module{}, limits: limits, links: map[string]*moduleLinks{}, cache: cache, fleet: fleet}
}

// linksOf returns the modules m imports and disables, with its computed
// imports and disabled_modules evaluated; once per evaluation, whose
// diagnostics come with the first call. (The module itself is not
// changed: a library module is shared by evaluations.)
func (l *loader) linksOf(m *syntax.Module) (moduleLinks, hcl.Diagnostics) {
	if len(m.Computed) == 0 {
		return moduleLinks{imports: m.Imports, disabled: m.Disabled}, nil
	}
	if ln, ok := l.links[m.Src.Key()]; ok {
		return *ln, nil
	}
	ln := &moduleLinks{imports: slices.Clone(m.Imports), disabled: slices.Clone(m.Disabled)}
	l.links[m.Src.Key()] = ln
	var diags hcl.Diagnostics
	for _, attr := range m.Computed {
		if l.compute == nil {
			continue
		}
		strs, d := l.compute(m, attr)
		diags = append(diags, d...)
		if d.HasErrors() {
			continue
		}
		imps, disabled, d := resolveLinks(m, attr, strs)
		diags = append(diags, d...)
		ln.imports = append(ln.imports, imps...)
		ln.disabled = append(ln.disabled, disabled...)
	}
	return *ln, diags
}

// forEachParallel calls f with 0 to n-1, on as many goroutines as there
// are processors (this one among them), each taking the next number by an
// atomic counter: no channel to hand each over, which cost a wake-up of a
// parked goroutine a call.
func forEachParallel(n int, f func(i int)) {
	workers := min(runtime.GOMAXPROCS(0), n)
	var next atomic.Int64
	work := func() {
		for i := int(next.Add(1) - 1); i < n; i = int(next.Add(1) - 1) {
			f(i)
		}
	}
	var wg sync.WaitGroup
	for w := 1; w < workers; w++ {
		wg.Go(work)
	}
	work()
	wg.Wait()
}

// parseAll parses the sources that were not parsed yet, concurrently.
func (l *loader) parseAll(srcs []syntax.Source) hcl.Diagnostics {
	var todo []syntax.Source
	seen := map[string]bool{}
	l.mu.Lock()
	for _, s := range srcs {
		k := s.Key()
		if _, ok := l.mods[k]; !ok && !seen[k] {
			seen[k] = true
			todo = append(todo, s)
		}
	}
	l.mu.Unlock()
	if len(todo) == 0 {
		return nil
	}
	results := make([]hcl.Diagnostics, len(todo))
	forEachParallel(len(todo), func(i int) { results[i] = l.parseOne(todo[i]) })
	var diags hcl.Diagnostics
	for _, d := range results {
		diags = append(diags, d...)
	}
	return diags
}

// addInline registers a module given as a parsed body.
func (l *loader) addInline(s syntax.Source, file *hcl.File, body *hclsyntax.Body) hcl.Diagnostics {
	m := &syntax.Module{Src: s, File: file, Body: body}
	diags := decodeModule(m)
	l.mu.Lock()
	l.files[file.Body.MissingItemRange().Filename] = file
	l.mods[s.Key()] = m
	l.mu.Unlock()
	return diags
}

// parsedLibrary caches the parsed modules of library file systems for the
// life of the process: a library is immutable (embedded in the binary),
// and its parsed syntax is only read, so evaluations (nodegen test's runs,
// tests, benchmarks) share it.
var parsedLibrary sync.Map // libraryKey -> *parsedModule

type libraryKey struct {
	fsys fs.FS
	path string
}

type parsedModule struct {
	m     *syntax.Module
	diags hcl.Diagnostics
}

func (l *loader) parseOne(s syntax.Source) hcl.Diagnostics {
	var key libraryKey
	cacheable := s.Lib && reflect.TypeOf(s.FS).Comparable()
	if cacheable {
		key = libraryKey{s.FS, s.Path}
		if p, ok := parsedLibrary.Load(key); ok {
			pm := p.(*parsedModule)
			l.mu.Lock()
			if pm.m.File != nil {
				l.files[s.Display()] = pm.m.File
			}
			l.mods[s.Key()] = pm.m
			l.mu.Unlock()
			return pm.diags
		}
	}
	diags := l.parseFile(s)
	if cacheable {
		l.mu.Lock()
		defer l.mu.Unlock()
		m := l.mods[s.Key()]
		if m == nil {
			return diags
		}
		// Two evaluations may parse a module at once: the first stored
		// is the one every evaluation uses.
		m.Shared = true
		p, _ := parsedLibrary.LoadOrStore(key, &parsedModule{m: m, diags: diags})
		pm := p.(*parsedModule)
		l.mods[s.Key()] = pm.m
		if pm.m.File != nil {
			l.files[s.Display()] = pm.m.File
		}
		return pm.diags
	}
	return diags
}

// readModule reads a module file of at most max bytes (regularfile.Read),
// a host file through regularfile.ReadFast's fewer system calls when it can.
func readModule(s syntax.Source, max int64) ([]byte, error) {
	if p, ok := hostPath(s); ok {
		if src, ok := regularfile.ReadFast(nil, p, max); ok {
			return src, nil
		}
	}
	return regularfile.Read(s.FS, s.Path, max)
}

// hostPath is the host path of a module file that lies on the host: one
// of the host's file system, or of a directory opened as
// regularfile.DirFS (a library read from a directory).
func hostPath(s syntax.Source) (string, bool) {
	if syntax.IsOSFS(s.FS) {
		return "/" + s.Path, true
	}
	return regularfile.HostPath(s.FS, s.Path)
}

func (l *loader) parseFile(s syntax.Source) hcl.Diagnostics {
	src, err := readModule(s, l.limits.FileBytes)
	if err != nil {
		l.mu.Lock()
		l.mods[s.Key()] = nil
		l.mu.Unlock()
		return hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Cannot read module",
			Detail:   fmt.Sprintf("Module %s cannot be read: %s.", s.Display(), lib.FileLimitCause(err)),
		}}
	}
	name := s.Display()
	var fleetKey fleetModuleKey
	if l.fleet != nil && s.Inline == 0 && !s.Lib && syntax.IsOSFS(s.FS) {
		// A module the fleet keeps is the same module in every
		// evaluation, which may then share its declared tree.
		var pm *parsedModule
		if pm, fleetKey = l.fleet.module(s, src); pm != nil {
			l.add(s, name, pm.m)
			return copyDiags(pm.diags)
		}
	}
	file, diags := l.cache.Parse(src, name)
	m := &syntax.Module{Src: s, File: file}
	if file != nil {
		if body, ok := file.Body.(*hclsyntax.Body); ok {
			m.Body = body
			diags = append(diags, decodeModule(m)...)
		}
	}
	if l.fleet != nil && s.Inline == 0 && !s.Lib && syntax.IsOSFS(s.FS) {
		pm := l.fleet.keep(fleetKey, len(src), &parsedModule{m: m, diags: diags})
		m, diags = pm.m, copyDiags(pm.diags)
	}
	l.add(s, name, m)
	return diags
}

// add registers m, the module parsed from s, whose file diagnostics name
// name.
func (l *loader) add(s syntax.Source, name string, m *syntax.Module) {
	l.mu.Lock()
	if m.File != nil {
		l.files[name] = m.File
	}
	l.mods[s.Key()] = m
	l.mu.Unlock()
}

// collect parses the root modules and everything they import, and returns the
// modules in NixOS order: breadth-first from the roots, first occurrence
// kept, disabled modules left out and not followed.
func (l *loader) collect(roots []syntax.Source) ([]*syntax.Module, hcl.Diagnostics) {
	var diags hcl.Diagnostics
	// Pass 1: the whole import closure, level by level, each level parsed
	// concurrently.
	level := roots
	// The maps by module key are made for the roots at once (the
	// library's hundreds of modules), not grown as they come.
	seen := make(map[string]bool, len(roots))
	importedBy := map[string]*syntax.Module{} // the first module importing each
	if len(l.mods) < len(roots) {
		l.mu.Lock()
		l.mods = growMap(l.mods, len(roots))
		l.files = growMap(l.files, len(roots))
		l.mu.Unlock()
	}
	for len(level) > 0 {
		diags = append(diags, l.parseAll(level)...)
		var next []syntax.Source
		for _, s := range level {
			k := s.Key()
			if seen[k] {
				continue
			}
			seen[k] = true
			if len(seen) > l.limits.Files {
				d := &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Too many modules",
					Detail:   fmt.Sprintf("The evaluation imports more than %d module files (limit files); the last is %s. Raise the limit with --limit if the configuration really needs it.", l.limits.Files, s.Display()),
					Extra:    OverLimit{Limit: LimitFiles},
				}
				if by := importedBy[k]; by != nil && by.Body != nil {
					if attr := by.Body.Attributes["imports"]; attr != nil {
						d.Subject = attr.Expr.Range().Ptr()
					}
				}
				return nil, append(diags, d)
			}
			if m := l.mods[k]; m != nil {
				ln, d := l.linksOf(m)
				diags = append(diags, d...)
				for _, imp := range ln.imports {
					if ik := imp.Key(); !seen[ik] {
						next = append(next, imp)
						if importedBy[ik] == nil {
							importedBy[ik] = m
						}
					}
				}
			}
		}
		level = next
	}
	// What parsing left is garbage: the evaluation's own allocations
	// mostly live to its end.
	runtimetune.ParsingDone()
	disabled := map[string]bool{}
	for k := range seen {
		if m := l.mods[k]; m != nil {
			ln, _ := l.linksOf(m) // computed in pass 1
			for _, d := range ln.disabled {
				disabled[d] = true
			}
		}
	}
	// Pass 2: breadth-first from the roots without disabled modules.
	out := make([]*syntax.Module, 0, len(seen))
	taken := make(map[string]bool, len(seen))
	queue := append([]syntax.Source(nil), roots...)
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		k := s.Key()
		if taken[k] || disabled[k] {
			continue
		}
		taken[k] = true
		m := l.mods[k]
		if m == nil {
			continue
		}
		out = append(out, m)
		ln, _ := l.linksOf(m)
		queue = append(queue, ln.imports...)
	}
	return out, diags
}

// growMap returns m, or a copy of it with room for n entries when it has
// fewer.
func growMap[V any](m map[string]V, n int) map[string]V {
	if len(m) >= n {
		return m
	}
	g := make(map[string]V, n)
	maps.Copy(g, m)
	return g
}

// libraryModules lists the .hcl modules of a library file system, sorted.
func libraryModules(lib fs.FS) ([]syntax.Source, error) {
	if !reflect.TypeOf(lib).Comparable() {
		return listLibraryModules(lib)
	}
	if out, ok := libraryLists.Load(lib); ok {
		return out.([]syntax.Source), nil
	}
	out, err := listLibraryModules(lib)
	if err != nil {
		return nil, err
	}
	libraryLists.Store(lib, out)
	return out, nil
}

// libraryLists keeps the module list of each library file system for the
// process, as parsedLibrary keeps their parsed modules (a library is
// immutable); callers do not change the lists.
var libraryLists sync.Map // fs.FS -> []syntax.Source

// listLibraryModules lists the modules of a library file system.
func listLibraryModules(lib fs.FS) ([]syntax.Source, error) {
	var out []syntax.Source
	err := fs.WalkDir(lib, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(p, ".hcl") && !strings.HasSuffix(p, ".test.hcl") {
			out = append(out, syntax.Source{FS: lib, Path: p, Lib: true})
		}
		return nil
	})
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out, err
}

// resolveImport finds the module an import string names, relative to from.
func resolveImport(from syntax.Source, name string, rng hcl.Range) (syntax.Source, *hcl.Diagnostic) {
	var p string
	if path.IsAbs(name) {
		if !syntax.IsOSFS(from.FS) {
			return syntax.Source{}, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid import",
				Detail:   fmt.Sprintf("Only a module on the host can import an absolute path, not %q.", name),
				Subject:  rng.Ptr(),
			}
		}
		p = path.Clean(name)[1:]
	} else {
		p = path.Join(path.Dir(from.Path), name)
	}
	if strings.HasPrefix(p, "../") || p == ".." {
		return syntax.Source{}, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Invalid import",
			Detail:   fmt.Sprintf("The import %q leaves the file system the module is in.", name),
			Subject:  rng.Ptr(),
		}
	}
	s := syntax.Source{FS: from.FS, Path: p, Lib: from.Lib, WD: from.WD}
	st, err := fs.Stat(from.FS, p)
	if err != nil {
		return syntax.Source{}, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Imported module not found",
			Detail:   fmt.Sprintf("The module %q imported here does not exist: %s.", name, lib.FileErrorCause(err)),
			Subject:  rng.Ptr(),
		}
	}
	if st.IsDir() {
		s.Path = path.Join(p, "default.hcl")
		if _, err := fs.Stat(from.FS, s.Path); err != nil {
			return syntax.Source{}, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Imported module not found",
				Detail:   fmt.Sprintf("The directory %q imported here has no default.hcl.", name),
				Subject:  rng.Ptr(),
			}
		}
	}
	return s, nil
}

// disabledKey turns a disabled_modules entry into a module key: a path
// starting with ./ or ../ (or an absolute path) is relative to the module
// that names it, anything else is a path in the library.
func disabledKey(from syntax.Source, name string) string {
	if strings.HasPrefix(name, "./") || strings.HasPrefix(name, "../") {
		return syntax.Source{FS: from.FS, Path: path.Join(path.Dir(from.Path), name), Lib: from.Lib}.Key()
	}
	if path.IsAbs(name) {
		return syntax.Source{Path: strings.TrimPrefix(path.Clean(name), "/")}.Key()
	}
	return syntax.Source{Path: path.Clean(name), Lib: true}.Key()
}

// moduleIDs numbers the modules decoded (syntax.Module.ID).
var moduleIDs atomic.Uint64

// decode reads the top level of a module.
func decodeModule(m *syntax.Module) hcl.Diagnostics {
	m.ID = moduleIDs.Add(1)
	var diags hcl.Diagnostics
	for _, attr := range syntax.SortedAttrs(m.Body.Attributes) {
		switch attr.Name {
		case "imports", "disabled_modules":
			v, d := attr.Expr.Value(nil)
			if d.HasErrors() {
				// not a constant: it reads locals or calls functions
				m.Computed = append(m.Computed, attr)
				continue
			}
			strs, d := stringList(attr, v)
			diags = append(diags, d...)
			imps, disabled, d := resolveLinks(m, attr, strs)
			diags = append(diags, d...)
			m.Imports = append(m.Imports, imps...)
			m.Disabled = append(m.Disabled, disabled...)
		default:
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Unsupported argument",
				Detail:   fmt.Sprintf("A module's top level takes the arguments imports and disabled_modules, not %q. Definitions go in config blocks.", attr.Name),
				Subject:  attr.NameRange.Ptr(),
			})
		}
	}
	for _, b := range m.Body.Blocks {
		switch b.Type {
		case "submodule":
			if d := wantLabels(b, 1); d != nil {
				diags = append(diags, d)
				continue
			}
			s := &syntax.Submodule{Name: b.Labels[0], Block: b, Mod: m, Freeform: b.Body.Attributes["freeform"]}
			diags = append(diags, decodeBody(b.Body, nil, &s.Options, &s.Configs, &s.Locals, &s.Asserts, &s.Warnings, submoduleBody)...)
			m.Submodules = append(m.Submodules, s)
		case "format":
			f, d := decodeFormat(b, m)
			diags = append(diags, d...)
			if f != nil {
				m.Formats = append(m.Formats, f)
			}
		case "function":
			f, d := decodeFunction(b, m)
			diags = append(diags, d...)
			if f != nil {
				m.Functions = append(m.Functions, f)
			}
		case "type":
			t, d := decodeNamedType(b, m)
			diags = append(diags, d...)
			if t != nil {
				m.Types = append(m.Types, t)
			}
		case "renamed_option":
			from, d := labelPath(b)
			diags = append(diags, d...)
			if from == nil {
				continue
			}
			r := &syntax.Rename{From: from, Block: b}
			attr := b.Body.Attributes["to"]
			if attr == nil {
				diags = append(diags, missingArg(b, "to"))
				continue
			}
			to, d := staticPath(attr.Expr)
			diags = append(diags, d...)
			r.To, r.ToRange = to, attr.Expr.Range()
			if to != nil {
				m.Renamed = append(m.Renamed, r)
			}
		case "removed_option":
			p, d := labelPath(b)
			diags = append(diags, d...)
			if p == nil {
				continue
			}
			attr := b.Body.Attributes["message"]
			if attr == nil {
				diags = append(diags, missingArg(b, "message"))
				continue
			}
			m.Removed = append(m.Removed, &syntax.Remove{Path: p, Block: b, Message: attr.Expr})
		}
	}
	diags = append(diags, decodeBody(m.Body, nil, &m.Options, &m.Configs, &m.Locals, &m.Asserts, &m.Warnings, moduleBody)...)
	return append(diags, checkDynamics(m)...)
}

// bodyKind is what a body decodeBody reads belongs to.
type bodyKind int

const (
	moduleBody    bodyKind = iota // a module file's
	submoduleBody                 // a submodule block's: it may hold freeform
	optionsBody                   // an options block's, or a dynamic "options" content
)

// decodeBody reads the blocks a module and a submodule have in common:
// option, options, dynamic, config, locals, assert, warning. prefix is the path of
// an enclosing options block.
func decodeBody(body *hclsyntax.Body, prefix []string, opts *[]*syntax.OptionDecl, configs *[]*syntax.Config, locals *[]*hclsyntax.Attribute, asserts, warnings *[]*syntax.Check, kind bodyKind) hcl.Diagnostics {
	var diags hcl.Diagnostics
	if kind != moduleBody {
		for _, attr := range syntax.SortedAttrs(body.Attributes) {
			if attr.Name == "freeform" && kind == submoduleBody {
				continue // see syntax.Submodule.Freeform
			}
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Unsupported argument",
				Detail:   fmt.Sprintf("An argument named %q is not expected here.", attr.Name),
				Subject:  attr.NameRange.Ptr(),
			})
		}
	}
	// The option blocks' declarations, in one allocation (see slabs.Take).
	var syns []syntax.OptionDecl
	if n := countBlocks(body, "option"); n > 1 {
		syns = make([]syntax.OptionDecl, 0, n)
	}
	for _, b := range body.Blocks {
		switch b.Type {
		case "option":
			full, d := labelPathAfter(prefix, b)
			diags = append(diags, d...)
			if full == nil {
				continue
			}
			diags = append(diags, unsupportedBlocks(b.Body, "An option declaration takes arguments only, not a %q block.")...)
			syn := slabs.Take(&syns)
			*syn = syntax.OptionDecl{Path: full, Block: b, Attrs: b.Body.Attributes, InFile: true}
			*opts = append(*opts, syn)
		case "options":
			full, d := labelPathAfter(prefix, b)
			diags = append(diags, d...)
			if full == nil {
				continue
			}
			diags = append(diags, decodeOptionsBody(b.Body, full, opts)...)
		case "dynamic":
			dyn, d := decodeDynamic(b)
			diags = append(diags, d...)
			if dyn != nil {
				*opts = append(*opts, &syntax.OptionDecl{Path: prefix, Block: b, Dyn: dyn})
			}
		case "config":
			if len(b.Labels) > 1 {
				diags = append(diags, wantLabels(b, 1))
				continue
			}
			var p []string
			if len(b.Labels) == 1 {
				var d hcl.Diagnostics
				p, d = parseLabelPath(b, 0)
				diags = append(diags, d...)
				if p == nil {
					continue
				}
			}
			c := &syntax.Config{Prefix: p, Block: b}
			// The definitions are the sorted attributes but when, kept in
			// the slice SortedAttrs made.
			attrs := syntax.SortedAttrs(b.Body.Attributes)
			c.Attrs = attrs[:0]
			for _, attr := range attrs {
				if attr.Name == "when" {
					c.When = attr
					continue
				}
				c.Attrs = append(c.Attrs, attr)
			}
			diags = append(diags, unsupportedBlocks(b.Body, "A config block holds definitions as arguments (name = value), not a %q block.")...)
			*configs = append(*configs, c)
		case "locals":
			if d := wantLabels(b, 0); d != nil {
				diags = append(diags, d)
				continue
			}
			*locals = append(*locals, syntax.SortedAttrs(b.Body.Attributes)...)
		case "assert", "warning":
			if d := wantLabels(b, 0); d != nil {
				diags = append(diags, d)
				continue
			}
			c := &syntax.Check{Block: b}
			if a := b.Body.Attributes["condition"]; a != nil {
				c.Condition = a.Expr
			} else {
				diags = append(diags, missingArg(b, "condition"))
				continue
			}
			if a := b.Body.Attributes["message"]; a != nil {
				c.Message = a.Expr
			} else {
				diags = append(diags, missingArg(b, "message"))
				continue
			}
			for name, a := range b.Body.Attributes {
				if name != "condition" && name != "message" {
					diags = append(diags, &hcl.Diagnostic{
						Severity: hcl.DiagError,
						Summary:  "Unsupported argument",
						Detail:   fmt.Sprintf("An %s block takes condition and message, not %q.", b.Type, name),
						Subject:  a.NameRange.Ptr(),
					})
				}
			}
			if b.Type == "assert" {
				*asserts = append(*asserts, c)
			} else {
				*warnings = append(*warnings, c)
			}
		case "submodule", "format", "function", "type", "renamed_option", "removed_option":
			if kind != moduleBody {
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Unsupported block type",
					Detail:   fmt.Sprintf("A %s block belongs at the top level of a module.", b.Type),
					Subject:  b.TypeRange.Ptr(),
				})
			}
		default:
			detail := fmt.Sprintf("Blocks of type %q are not expected here.", b.Type)
			if s := didYouMean(b.Type, []string{"option", "options", "dynamic", "config", "locals", "assert", "warning", "submodule", "format", "function", "type", "renamed_option", "removed_option"}); s != "" {
				detail += fmt.Sprintf(" Did you mean %q?", s)
			}
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Unsupported block type",
				Detail:   detail,
				Subject:  b.TypeRange.Ptr(),
			})
		}
	}
	return diags
}

// countBlocks counts the blocks of type typ in body.
func countBlocks(body *hclsyntax.Body, typ string) int {
	n := 0
	for _, b := range body.Blocks {
		if b.Type == typ {
			n++
		}
	}
	return n
}

// decodeOptionsBody reads the body of an options block (or of a dynamic
// block's content that makes options blocks), whose declarations are
// below prefix: option, options and dynamic blocks.
func decodeOptionsBody(body *hclsyntax.Body, prefix []string, opts *[]*syntax.OptionDecl) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, nb := range body.Blocks {
		if nb.Type != "option" && nb.Type != "options" && nb.Type != "dynamic" {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Unsupported block type",
				Detail:   fmt.Sprintf("An options block holds option, options and dynamic blocks, not %q.", nb.Type),
				Subject:  nb.TypeRange.Ptr(),
			})
		}
	}
	var ignoredCfg []*syntax.Config
	var ignoredLocals []*hclsyntax.Attribute
	var ignoredChecks []*syntax.Check
	return append(diags, decodeBody(body, prefix, opts, &ignoredCfg, &ignoredLocals, &ignoredChecks, &ignoredChecks, optionsBody)...)
}

// labelPath reads the one label of a block as an option path; nil with
// diagnostics when the block has another number of labels or a bad path.
func labelPath(b *hclsyntax.Block) ([]string, hcl.Diagnostics) {
	return labelPathAfter(nil, b)
}

// labelPathAfter is labelPath's path after prefix, in one new slice.
func labelPathAfter(prefix []string, b *hclsyntax.Block) ([]string, hcl.Diagnostics) {
	if d := wantLabels(b, 1); d != nil {
		return nil, hcl.Diagnostics{d}
	}
	return syntax.OptionPathAfter(prefix, b.Labels[0], "The label ", b.LabelRanges[0])
}

func wantLabels(b *hclsyntax.Block, n int) *hcl.Diagnostic {
	if len(b.Labels) == n {
		return nil
	}
	what := "no label"
	switch n {
	case 1:
		what = "one label"
	case 2:
		what = "two labels"
	}
	rng := b.TypeRange
	if len(b.LabelRanges) > 0 {
		rng = hcl.RangeBetween(b.LabelRanges[0], b.LabelRanges[len(b.LabelRanges)-1])
	}
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Wrong number of labels",
		Detail:   fmt.Sprintf("A %s block takes %s, not %d.", b.Type, what, len(b.Labels)),
		Subject:  rng.Ptr(),
	}
}

func missingArg(b *hclsyntax.Block, name string) *hcl.Diagnostic {
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Missing required argument",
		Detail:   fmt.Sprintf("A %s block needs the argument %q.", b.Type, name),
		Subject:  b.DefRange().Ptr(),
	}
}

// unsupportedBlocks reports every block in body, which takes arguments
// only: detail says so, with a %q for the block's type.
func unsupportedBlocks(body *hclsyntax.Body, detail string) hcl.Diagnostics {
	var diags hcl.Diagnostics
	for _, nb := range body.Blocks {
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Unsupported block type",
			Detail:   fmt.Sprintf(detail, nb.Type),
			Subject:  nb.TypeRange.Ptr(),
		})
	}
	return diags
}

// resolveLinks turns the strings of the module's imports or
// disabled_modules attribute into the modules they name.
func resolveLinks(m *syntax.Module, attr *hclsyntax.Attribute, strs []string) (imports []syntax.Source, disabled []string, diags hcl.Diagnostics) {
	for i, s := range strs {
		if attr.Name == "disabled_modules" {
			disabled = append(disabled, disabledKey(m.Src, s))
			continue
		}
		src, d := resolveImport(m.Src, s, syntax.ElemRange(attr.Expr, i))
		if d != nil {
			diags = append(diags, d)
			continue
		}
		imports = append(imports, src)
	}
	return imports, disabled, diags
}

// stringList reads the value of an imports or disabled_modules attribute,
// which must be a list of strings.
func stringList(attr *hclsyntax.Attribute, v cty.Value) ([]string, hcl.Diagnostics) {
	var diags hcl.Diagnostics
	ty := v.Type()
	if v.IsNull() || !(ty.IsTupleType() || ty.IsListType() || ty.IsSetType()) {
		return nil, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Invalid " + attr.Name,
			Detail:   fmt.Sprintf("%s must be a list of strings.", attr.Name),
			Subject:  attr.Expr.Range().Ptr(),
		}}
	}
	var out []string
	i := 0
	for it := v.ElementIterator(); it.Next(); i++ {
		_, e := it.Element()
		if !e.IsKnown() || e.IsNull() || e.Type() != cty.String {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid " + attr.Name,
				Detail:   fmt.Sprintf("Element %d of %s must be a string.", i, attr.Name),
				Subject:  syntax.ElemRange(attr.Expr, i).Ptr(),
			})
			continue
		}
		out = append(out, e.AsString())
	}
	return out, diags
}
