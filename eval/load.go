package eval

import (
	"fmt"
	"io/fs"
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
	"github.com/nodegen/nodegen/internal/parsecache"
	"github.com/nodegen/nodegen/internal/regularfile"
	"github.com/nodegen/nodegen/internal/runtimetune"
	"github.com/nodegen/nodegen/lib"
)

// source names one module file: a path inside a file system, and the name
// diagnostics show for it.
type source struct {
	fsys fs.FS
	path string // slash-separated, inside fsys
	// lib is true for modules of the built-in library.
	lib bool
	// inline numbers a module given as a body (Config.Inline), which
	// lives in the file at path beside that file's own module.
	inline int
	// wd is the working directory when the evaluation started, for the
	// names of host files (display); "" if unknown.
	wd string
}

// key identifies a module for deduplication and disabled_modules.
func (s source) key() string {
	if s.inline > 0 {
		return fmt.Sprintf("inline%d:%s", s.inline, s.path)
	}
	if s.lib {
		return "lib:" + s.path
	}
	return "file:" + s.path
}

// libraryPrefix starts the file name of every library module in
// diagnostics: the library's "services/cluster/kubernetes/kubelet.hcl" is
// "<nodegen>/modules/services/cluster/kubernetes/kubelet.hcl". Read it
// through OriginOf and LibraryModule, write it through LibraryFileName.
const libraryPrefix = "<nodegen>/modules/"

// display is the file name used in diagnostics.
func (s source) display() string {
	if s.lib {
		return LibraryFileName(s.path)
	}
	if isOSFS(s.fsys) {
		return displayPath(s.path, s.wd)
	}
	return s.path
}

// module is one parsed module file.
type module struct {
	src  source
	file *hcl.File
	body *hclsyntax.Body

	imports  []source
	disabled []string // module keys
	// shared is set on a library module parsed once for the process (see
	// parsedLibrary): what is read off its syntax alone may be kept for
	// the process too (see decodedOptions).
	shared bool
	// fleet is set on a host module a Fleet keeps for its evaluations
	// (see Fleet.keep).
	fleet bool
	// id numbers the modules the process parsed, from 1: a Fleet names
	// the modules of a declared tree by it.
	id uint64
	// computed holds the imports and disabled_modules that are no constant
	// list: expressions over the module's locals, evaluated when the
	// modules are collected (see loader.linksOf).
	computed []*hclsyntax.Attribute

	locals     []*hclsyntax.Attribute
	options    []*optionDeclSyntax
	submodules []*submoduleSyntax
	formats    []*formatSyntax
	functions  []*functionSyntax
	types      []*typeSyntax
	configs    []*configSyntax
	asserts    []*checkSyntax
	warnings   []*checkSyntax
	renamed    []*renameSyntax
	removed    []*removeSyntax
}

// dir is the module's directory inside its file system.
func (m *module) dir() string { return path.Dir(m.src.path) }

// optionDeclSyntax is one option block, or a dynamic block that makes
// option blocks when the options are declared (see dynamicSyntax).
type optionDeclSyntax struct {
	path  []string
	block *hclsyntax.Block
	attrs hclsyntax.Attributes
	// dyn, when set, is the dynamic block this entry stands for; path is
	// then the path of the options block around it.
	dyn *dynamicSyntax
	// vars binds the iterators of the dynamic blocks that made this
	// declaration, for every expression in it.
	vars *binding
	// inFile is set on a declaration read from its module's file, which
	// is the same in every evaluation of the module (see decodedOptions),
	// and not on one an evaluation makes (one a dynamic block makes).
	inFile bool
}

type submoduleSyntax struct {
	name  string
	block *hclsyntax.Block
	mod   *module
	// The body of a submodule holds what a module holds, but imports.
	options  []*optionDeclSyntax
	configs  []*configSyntax
	locals   []*hclsyntax.Attribute
	asserts  []*checkSyntax
	warnings []*checkSyntax
	// freeform is the type of the names no option declares, as NixOS's
	// freeformType: `freeform = attrsOf(T)`.
	freeform *hclsyntax.Attribute
}

type configSyntax struct {
	prefix []string
	block  *hclsyntax.Block
	when   *hclsyntax.Attribute
	attrs  []*hclsyntax.Attribute // in source order
}

type checkSyntax struct {
	block     *hclsyntax.Block
	condition hclsyntax.Expression
	message   hclsyntax.Expression
}

type renameSyntax struct {
	from, to []string
	block    *hclsyntax.Block
	toRange  hcl.Range
}

type removeSyntax struct {
	path    []string
	block   *hclsyntax.Block
	message hclsyntax.Expression
}

// loader parses modules and collects them in NixOS order.
type loader struct {
	mu     sync.Mutex
	files  map[string]*hcl.File // by display name, for diagnostics
	mods   map[string]*module   // by key
	limits Limits               // on the size and number of files
	// compute evaluates a computed imports or disabled_modules attribute
	// of a module (see module.computed).
	compute func(m *module, attr *hclsyntax.Attribute) ([]string, hcl.Diagnostics)
	links   map[string]*moduleLinks // by module key, see linksOf
	cache   *parsecache.Cache       // nil parses every file
	fleet   *Fleet                  // nil: the evaluation is alone
}

// moduleLinks are the modules one module imports and disables.
type moduleLinks struct {
	imports  []source
	disabled []string // module keys
}

func newLoader(limits Limits, cache *parsecache.Cache, fleet *Fleet) *loader {
	return &loader{files: map[string]*hcl.File{}, mods: map[string]*module{}, limits: limits, links: map[string]*moduleLinks{}, cache: cache, fleet: fleet}
}

// linksOf returns the modules m imports and disables, with its computed
// imports and disabled_modules evaluated; once per evaluation, whose
// diagnostics come with the first call. (The module itself is not
// changed: a library module is shared by evaluations.)
func (l *loader) linksOf(m *module) (moduleLinks, hcl.Diagnostics) {
	if len(m.computed) == 0 {
		return moduleLinks{imports: m.imports, disabled: m.disabled}, nil
	}
	if ln, ok := l.links[m.src.key()]; ok {
		return *ln, nil
	}
	ln := &moduleLinks{imports: slices.Clone(m.imports), disabled: slices.Clone(m.disabled)}
	l.links[m.src.key()] = ln
	var diags hcl.Diagnostics
	for _, attr := range m.computed {
		if l.compute == nil {
			continue
		}
		strs, d := l.compute(m, attr)
		diags = append(diags, d...)
		if d.HasErrors() {
			continue
		}
		imps, disabled, d := m.resolveLinks(attr, strs)
		diags = append(diags, d...)
		ln.imports = append(ln.imports, imps...)
		ln.disabled = append(ln.disabled, disabled...)
	}
	return *ln, diags
}

// parseAll parses the sources that were not parsed yet, concurrently.
func (l *loader) parseAll(srcs []source) hcl.Diagnostics {
	var todo []source
	seen := map[string]bool{}
	l.mu.Lock()
	for _, s := range srcs {
		k := s.key()
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
	workers := runtime.GOMAXPROCS(0)
	if workers > len(todo) {
		workers = len(todo)
	}
	// The workers (this goroutine one of them) take the next file by an
	// atomic counter: no channel to hand each over, which cost a wake-up
	// of a parked goroutine a file.
	var next atomic.Int64
	work := func() {
		for i := int(next.Add(1) - 1); i < len(todo); i = int(next.Add(1) - 1) {
			results[i] = l.parseOne(todo[i])
		}
	}
	var wg sync.WaitGroup
	for w := 1; w < workers; w++ {
		wg.Go(work)
	}
	work()
	wg.Wait()
	var diags hcl.Diagnostics
	for _, d := range results {
		diags = append(diags, d...)
	}
	return diags
}

// addInline registers a module given as a parsed body.
func (l *loader) addInline(s source, file *hcl.File, body *hclsyntax.Body) hcl.Diagnostics {
	m := &module{src: s, file: file, body: body}
	diags := m.decode()
	l.mu.Lock()
	l.files[file.Body.MissingItemRange().Filename] = file
	l.mods[s.key()] = m
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
	m     *module
	diags hcl.Diagnostics
}

func (l *loader) parseOne(s source) hcl.Diagnostics {
	var key libraryKey
	cacheable := s.lib && reflect.TypeOf(s.fsys).Comparable()
	if cacheable {
		key = libraryKey{s.fsys, s.path}
		if p, ok := parsedLibrary.Load(key); ok {
			pm := p.(*parsedModule)
			l.mu.Lock()
			if pm.m.file != nil {
				l.files[s.display()] = pm.m.file
			}
			l.mods[s.key()] = pm.m
			l.mu.Unlock()
			return pm.diags
		}
	}
	diags := l.parseFile(s)
	if cacheable {
		l.mu.Lock()
		defer l.mu.Unlock()
		m := l.mods[s.key()]
		if m == nil {
			return diags
		}
		// Two evaluations may parse a module at once: the first stored
		// is the one every evaluation uses.
		m.shared = true
		p, _ := parsedLibrary.LoadOrStore(key, &parsedModule{m: m, diags: diags})
		pm := p.(*parsedModule)
		l.mods[s.key()] = pm.m
		if pm.m.file != nil {
			l.files[s.display()] = pm.m.file
		}
		return pm.diags
	}
	return diags
}

// readModule reads a module file of at most max bytes (regularfile.Read),
// a host file through regularfile.ReadFast's fewer system calls when it can.
func readModule(s source, max int64) ([]byte, error) {
	if isOSFS(s.fsys) {
		if src, ok := regularfile.ReadFast(nil, "/"+s.path, max); ok {
			return src, nil
		}
	}
	return regularfile.Read(s.fsys, s.path, max)
}

func (l *loader) parseFile(s source) hcl.Diagnostics {
	src, err := readModule(s, l.limits.FileBytes)
	if err != nil {
		l.mu.Lock()
		l.mods[s.key()] = nil
		l.mu.Unlock()
		return hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Cannot read module",
			Detail:   fmt.Sprintf("Module %s cannot be read: %s.", s.display(), lib.FileLimitCause(err)),
		}}
	}
	name := s.display()
	var fleetKey fleetModuleKey
	if l.fleet != nil && s.inline == 0 && !s.lib && isOSFS(s.fsys) {
		// A module the fleet keeps is the same module in every
		// evaluation, which may then share its declared tree.
		var pm *parsedModule
		if pm, fleetKey = l.fleet.module(s, src); pm != nil {
			l.add(s, name, pm.m)
			return copyDiags(pm.diags)
		}
	}
	file, diags := l.cache.Parse(src, name)
	m := &module{src: s, file: file}
	if file != nil {
		if body, ok := file.Body.(*hclsyntax.Body); ok {
			m.body = body
			diags = append(diags, m.decode()...)
		}
	}
	if l.fleet != nil && s.inline == 0 && !s.lib && isOSFS(s.fsys) {
		pm := l.fleet.keep(fleetKey, len(src), &parsedModule{m: m, diags: diags})
		m, diags = pm.m, copyDiags(pm.diags)
	}
	l.add(s, name, m)
	return diags
}

// add registers m, the module parsed from s, whose file diagnostics name
// name.
func (l *loader) add(s source, name string, m *module) {
	l.mu.Lock()
	if m.file != nil {
		l.files[name] = m.file
	}
	l.mods[s.key()] = m
	l.mu.Unlock()
}

// collect parses the root modules and everything they import, and returns the
// modules in NixOS order: breadth-first from the roots, first occurrence
// kept, disabled modules left out and not followed.
func (l *loader) collect(roots []source) ([]*module, hcl.Diagnostics) {
	var diags hcl.Diagnostics
	// Pass 1: the whole import closure, level by level, each level parsed
	// concurrently.
	level := roots
	seen := map[string]bool{}
	importedBy := map[string]*module{} // the first module importing each
	for len(level) > 0 {
		diags = append(diags, l.parseAll(level)...)
		var next []source
		for _, s := range level {
			k := s.key()
			if seen[k] {
				continue
			}
			seen[k] = true
			if len(seen) > l.limits.Files {
				d := &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Too many modules",
					Detail:   fmt.Sprintf("The evaluation imports more than %d module files (limit files); the last is %s. Raise the limit with --limit if the configuration really needs it.", l.limits.Files, s.display()),
					Extra:    OverLimit{Limit: LimitFiles},
				}
				if by := importedBy[k]; by != nil && by.body != nil {
					if attr := by.body.Attributes["imports"]; attr != nil {
						d.Subject = attr.Expr.Range().Ptr()
					}
				}
				return nil, append(diags, d)
			}
			if m := l.mods[k]; m != nil {
				ln, d := l.linksOf(m)
				diags = append(diags, d...)
				for _, imp := range ln.imports {
					if ik := imp.key(); !seen[ik] {
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
	var out []*module
	taken := map[string]bool{}
	queue := append([]source(nil), roots...)
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		k := s.key()
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

// libraryModules lists the .hcl modules of a library file system, sorted.
func libraryModules(lib fs.FS) ([]source, error) {
	var out []source
	err := fs.WalkDir(lib, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(p, ".hcl") && !strings.HasSuffix(p, ".test.hcl") {
			out = append(out, source{fsys: lib, path: p, lib: true})
		}
		return nil
	})
	sort.Slice(out, func(i, j int) bool { return out[i].path < out[j].path })
	return out, err
}

// resolveImport finds the module an import string names, relative to from.
func resolveImport(from source, name string, rng hcl.Range) (source, *hcl.Diagnostic) {
	var p string
	if path.IsAbs(name) {
		if !isOSFS(from.fsys) {
			return source{}, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Invalid import",
				Detail:   fmt.Sprintf("Only a module on the host can import an absolute path, not %q.", name),
				Subject:  rng.Ptr(),
			}
		}
		p = path.Clean(name)[1:]
	} else {
		p = path.Join(path.Dir(from.path), name)
	}
	if strings.HasPrefix(p, "../") || p == ".." {
		return source{}, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Invalid import",
			Detail:   fmt.Sprintf("The import %q leaves the file system the module is in.", name),
			Subject:  rng.Ptr(),
		}
	}
	s := source{fsys: from.fsys, path: p, lib: from.lib, wd: from.wd}
	st, err := fs.Stat(from.fsys, p)
	if err != nil {
		return source{}, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Imported module not found",
			Detail:   fmt.Sprintf("The module %q imported here does not exist: %s.", name, lib.FileErrorCause(err)),
			Subject:  rng.Ptr(),
		}
	}
	if st.IsDir() {
		s.path = path.Join(p, "default.hcl")
		if _, err := fs.Stat(from.fsys, s.path); err != nil {
			return source{}, &hcl.Diagnostic{
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
func disabledKey(from source, name string) string {
	if strings.HasPrefix(name, "./") || strings.HasPrefix(name, "../") {
		return source{fsys: from.fsys, path: path.Join(path.Dir(from.path), name), lib: from.lib}.key()
	}
	if path.IsAbs(name) {
		return source{path: strings.TrimPrefix(path.Clean(name), "/")}.key()
	}
	return source{path: path.Clean(name), lib: true}.key()
}

// moduleIDs numbers the modules decoded (module.id).
var moduleIDs atomic.Uint64

// decode reads the top level of a module.
func (m *module) decode() hcl.Diagnostics {
	m.id = moduleIDs.Add(1)
	var diags hcl.Diagnostics
	for _, attr := range sortedAttrs(m.body.Attributes) {
		switch attr.Name {
		case "imports", "disabled_modules":
			v, d := attr.Expr.Value(nil)
			if d.HasErrors() {
				// not a constant: it reads locals or calls functions
				m.computed = append(m.computed, attr)
				continue
			}
			strs, d := stringList(attr, v)
			diags = append(diags, d...)
			imps, disabled, d := m.resolveLinks(attr, strs)
			diags = append(diags, d...)
			m.imports = append(m.imports, imps...)
			m.disabled = append(m.disabled, disabled...)
		default:
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Unsupported argument",
				Detail:   fmt.Sprintf("A module's top level takes the arguments imports and disabled_modules, not %q. Definitions go in config blocks.", attr.Name),
				Subject:  attr.NameRange.Ptr(),
			})
		}
	}
	for _, b := range m.body.Blocks {
		switch b.Type {
		case "submodule":
			if d := wantLabels(b, 1); d != nil {
				diags = append(diags, d)
				continue
			}
			s := &submoduleSyntax{name: b.Labels[0], block: b, mod: m, freeform: b.Body.Attributes["freeform"]}
			diags = append(diags, decodeBody(b.Body, nil, &s.options, &s.configs, &s.locals, &s.asserts, &s.warnings, submoduleBody)...)
			m.submodules = append(m.submodules, s)
		case "format":
			f, d := decodeFormat(b, m)
			diags = append(diags, d...)
			if f != nil {
				m.formats = append(m.formats, f)
			}
		case "function":
			f, d := decodeFunction(b, m)
			diags = append(diags, d...)
			if f != nil {
				m.functions = append(m.functions, f)
			}
		case "type":
			t, d := decodeNamedType(b, m)
			diags = append(diags, d...)
			if t != nil {
				m.types = append(m.types, t)
			}
		case "renamed_option":
			from, d := labelPath(b)
			diags = append(diags, d...)
			if from == nil {
				continue
			}
			r := &renameSyntax{from: from, block: b}
			attr := b.Body.Attributes["to"]
			if attr == nil {
				diags = append(diags, missingArg(b, "to"))
				continue
			}
			to, d := staticPath(attr.Expr)
			diags = append(diags, d...)
			r.to, r.toRange = to, attr.Expr.Range()
			if to != nil {
				m.renamed = append(m.renamed, r)
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
			m.removed = append(m.removed, &removeSyntax{path: p, block: b, message: attr.Expr})
		}
	}
	diags = append(diags, decodeBody(m.body, nil, &m.options, &m.configs, &m.locals, &m.asserts, &m.warnings, moduleBody)...)
	return append(diags, m.checkDynamics()...)
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
func decodeBody(body *hclsyntax.Body, prefix []string, opts *[]*optionDeclSyntax, configs *[]*configSyntax, locals *[]*hclsyntax.Attribute, asserts, warnings *[]*checkSyntax, kind bodyKind) hcl.Diagnostics {
	var diags hcl.Diagnostics
	if kind != moduleBody {
		for _, attr := range sortedAttrs(body.Attributes) {
			if attr.Name == "freeform" && kind == submoduleBody {
				continue // see submoduleSyntax
			}
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Unsupported argument",
				Detail:   fmt.Sprintf("An argument named %q is not expected here.", attr.Name),
				Subject:  attr.NameRange.Ptr(),
			})
		}
	}
	// The option blocks' declarations, in one allocation (see fromSlab).
	var syns []optionDeclSyntax
	if n := countBlocks(body, "option"); n > 1 {
		syns = make([]optionDeclSyntax, 0, n)
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
			syn := fromSlab(&syns)
			*syn = optionDeclSyntax{path: full, block: b, attrs: b.Body.Attributes, inFile: true}
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
				*opts = append(*opts, &optionDeclSyntax{path: prefix, block: b, dyn: dyn})
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
			c := &configSyntax{prefix: p, block: b}
			// The definitions are the sorted attributes but when, kept in
			// the slice sortedAttrs made.
			attrs := sortedAttrs(b.Body.Attributes)
			c.attrs = attrs[:0]
			for _, attr := range attrs {
				if attr.Name == "when" {
					c.when = attr
					continue
				}
				c.attrs = append(c.attrs, attr)
			}
			diags = append(diags, unsupportedBlocks(b.Body, "A config block holds definitions as arguments (name = value), not a %q block.")...)
			*configs = append(*configs, c)
		case "locals":
			if d := wantLabels(b, 0); d != nil {
				diags = append(diags, d)
				continue
			}
			*locals = append(*locals, sortedAttrs(b.Body.Attributes)...)
		case "assert", "warning":
			if d := wantLabels(b, 0); d != nil {
				diags = append(diags, d)
				continue
			}
			c := &checkSyntax{block: b}
			if a := b.Body.Attributes["condition"]; a != nil {
				c.condition = a.Expr
			} else {
				diags = append(diags, missingArg(b, "condition"))
				continue
			}
			if a := b.Body.Attributes["message"]; a != nil {
				c.message = a.Expr
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
func decodeOptionsBody(body *hclsyntax.Body, prefix []string, opts *[]*optionDeclSyntax) hcl.Diagnostics {
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
	var ignoredCfg []*configSyntax
	var ignoredLocals []*hclsyntax.Attribute
	var ignoredChecks []*checkSyntax
	return append(diags, decodeBody(body, prefix, opts, &ignoredCfg, &ignoredLocals, &ignoredChecks, &ignoredChecks, optionsBody)...)
}

func sortedAttrs(attrs hclsyntax.Attributes) []*hclsyntax.Attribute {
	return appendSortedAttrs(make([]*hclsyntax.Attribute, 0, len(attrs)), attrs)
}

// appendSortedAttrs appends attrs to dst in source order: with room in
// dst (an array of the caller's), sortedAttrs without an allocation.
func appendSortedAttrs(dst []*hclsyntax.Attribute, attrs hclsyntax.Attributes) []*hclsyntax.Attribute {
	start := len(dst)
	for _, a := range attrs {
		dst = append(dst, a)
	}
	slices.SortFunc(dst[start:], func(a, b *hclsyntax.Attribute) int { return a.SrcRange.Start.Byte - b.SrcRange.Start.Byte })
	return dst
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
	return optionPathAfter(prefix, b.Labels[0], "The label ", b.LabelRanges[0])
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

// unsupportedArg reports the argument attr of a block that takes the
// arguments args only, as takes says ("An option declaration takes
// type, default, ..."), suggesting the closest of args.
func unsupportedArg(attr *hclsyntax.Attribute, takes string, args []string) *hcl.Diagnostic {
	detail := fmt.Sprintf("%s; not %q.", takes, attr.Name)
	if s := didYouMean(attr.Name, args); s != "" {
		detail += fmt.Sprintf(" Did you mean %q?", s)
	}
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Unsupported argument",
		Detail:   detail,
		Subject:  attr.NameRange.Ptr(),
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
func (m *module) resolveLinks(attr *hclsyntax.Attribute, strs []string) (imports []source, disabled []string, diags hcl.Diagnostics) {
	for i, s := range strs {
		if attr.Name == "disabled_modules" {
			disabled = append(disabled, disabledKey(m.src, s))
			continue
		}
		src, d := resolveImport(m.src, s, elemRange(attr.Expr, i))
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
				Subject:  elemRange(attr.Expr, i).Ptr(),
			})
			continue
		}
		out = append(out, e.AsString())
	}
	return out, diags
}

func elemRange(expr hclsyntax.Expression, i int) hcl.Range {
	if t, ok := expr.(*hclsyntax.TupleConsExpr); ok && i < len(t.Exprs) {
		return t.Exprs[i].Range()
	}
	return expr.Range()
}

func (s *submoduleSyntax) declBlock() *hclsyntax.Block { return s.block }
