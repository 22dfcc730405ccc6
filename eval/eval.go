package eval

import (
	"fmt"
	"io/fs"
	"maps"
	"path"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/nodegen/nodegen/eval/internal/declare"
	"github.com/nodegen/nodegen/eval/internal/syntax"
	"github.com/nodegen/nodegen/internal/parsecache"
	"github.com/nodegen/nodegen/lib"
	"github.com/nodegen/nodegen/options"
	"github.com/nodegen/nodegen/property"
)

// Config says what to evaluate.
type Config struct {
	// Files are the user's modules, in order: host paths, or paths inside
	// FS when FS is set.
	Files []string
	// FS, when set, holds the user's modules instead of the host.
	FS fs.FS
	// Library is the built-in module library, part of every evaluation;
	// nil evaluates the Files alone (--bare).
	Library fs.FS
	// ShowTrace adds the evaluation chain to errors.
	ShowTrace bool
	// Inline are modules given as parsed bodies rather than files, after
	// Files in module order: how `nodegen test` evaluates a run block.
	Inline []InlineModule
	// Limits bound the evaluation; zero fields take DefaultLimits.
	Limits Limits
	// ParseCache, when set, keeps the parsed module files between runs.
	ParseCache *parsecache.Cache
	// Fleet, when set, shares the declared option tree with the other
	// evaluations of the fleet that declare the same (see Fleet): the
	// hosts of nodegen build.
	Fleet *Fleet
	// Hosts, when set, is the fleet of hosts evaluated together, which
	// hosts.NAME reads (see Hosts); Host is the name of this evaluation's
	// host in it. Alone, hosts lists Host only, and reading another host
	// is an error that names the fleet it needs.
	Hosts *Hosts
	Host  string
	// AllDefinitions splits the definitions of every module, those of
	// the inert library modules too (see inert.go), which an evaluation
	// of a tree other evaluations share leaves out: what Explain needs
	// to list every definition under a false condition (Explain makes
	// such an evaluation itself when it needs one).
	AllDefinitions bool
	// Reads, when not nil, are the option paths the caller reads besides
	// the assertions and warnings (evalprofile.Reads: what building a
	// profile reads): the library modules nothing reads are then left
	// out before declaring (see unused.go). Nil reads anything: every
	// module is declared.
	Reads []options.Path

	// skip, set on the evaluation that learns which modules are inert
	// (see inertFacts.learn), leaves out the modules that the evaluation
	// it learns for left out.
	skip map[*syntax.Module]bool
}

// InlineModule is a module given as a body of a parsed file (a subset of
// the file, such as a run block of a test). Its imports are relative to
// Path, the file's path (on the host, or in Config.FS).
type InlineModule struct {
	Path string
	File *hcl.File
	Body *hclsyntax.Body
}

// Warning is a warning raised by a warning block or a renamed option.
type Warning struct {
	Message string
	Range   hcl.Range
}

// New loads the modules, declares their options and splits their
// definitions: the first phases of the pipeline (see the package
// documentation), each making the value the next takes: loading and
// collecting the modules (loaded), declaring their options (declared),
// defining (the top-level instance). It evaluates nothing: options are
// evaluated when they are read (Get, Config, Check). With a Fleet, the
// declared option tree is the fleet's when another evaluation declared
// the same (see Fleet).
func New(cfg Config) (*Evaluator, hcl.Diagnostics) {
	ev := newEvaluator(cfg)
	ok, diags := ev.load()
	if !ok {
		return ev, diags
	}
	switch {
	case !ev.leavesOut() || diags.HasErrors():
	case ev.stubbed && ev.libraryIntact():
		ev.Mods, ev.left = ev.unusedStubs()
	default:
		diags = append(diags, ev.decodeStubs()...)
		ev.Mods, ev.left = ev.unusedModules()
	}
	diags = append(diags, ev.decodeStubs()...)
	ev.keepFacts(ev.pendingFacts)
	if len(ev.left) > 0 {
		ev, d := ev.declareAndDefine(diags)
		if d.HasErrors() {
			// Made again with every module, for the diagnostics of the
			// whole library (see unused.go).
			cfg.Reads = nil
			return New(cfg)
		}
		if ev.skipped == nil {
			ev.skipped = map[*syntax.Module]bool{}
		}
		for _, m := range ev.left {
			ev.skipped[m] = true
		}
		return ev, d
	}
	return ev.declareAndDefine(diags)
}

// declareAndDefine declares the options of ev.Mods (or takes the tree a
// Fleet keeps) and splits their definitions: New's phases after loading,
// whose diagnostics diags has.
func (ev *Evaluator) declareAndDefine(diags hcl.Diagnostics) (*Evaluator, hcl.Diagnostics) {
	cfg := ev.cfg
	trees := cfg.Fleet
	if trees == nil {
		trees = libraryTrees
	}
	decl, kept := trees.declared(ev)
	ev.decl = decl
	diags = append(diags, ev.declarationDiags(decl)...)
	var facts *inertFacts
	if kept && !cfg.AllDefinitions {
		facts = treeInertFacts(decl)
	}
	if kept {
		ev.defaults = treeDefaults(decl)
	}
	diags = append(diags, ev.define(decl, facts, cfg.skip)...)
	return ev, dedupe(diags)
}

// newEvaluator is an evaluation of cfg that has done nothing yet.
func newEvaluator(cfg Config) *Evaluator {
	limits := cfg.Limits.withDefaults()
	ev := &Evaluator{
		evalPhases:  evalPhases{cfg: cfg},
		evalLimiter: evalLimiter{limits: limits, started: time.Now()},
		evalCaches: evalCaches{
			modLocals:   map[*syntax.Module]*localSet{},
			loadScopes:  map[*syntax.Module]*scope{},
			funcs:       lib.Functions(),
			fileFuncs:   map[string]function.Function{},
			removedMsgs: map[*declare.Node]*thunk{},
			modulePaths: map[string]modulePath{},
			bound:       map[any]options.Type{},
		},
		evalTrace: evalTrace{traced: map[*hcl.Diagnostic]bool{}},
	}
	ev.merger.Budget = mergeBudget{ev}
	return ev
}

// loaded is what loading and collecting make (phases 1 and 2): the modules
// in module order, the parsed files (in the loader) and the registries of
// submodule types, formats, named types and functions, which are global
// to an evaluation.
type loaded struct {
	loader *loader
	// Modules are the modules and the registries that declaring reads.
	syntax.Modules
	userFuncs map[string]*syntax.Function
}

// load makes the evaluation's loaded value: it reads and parses the roots
// and what they import. ok is false when there is nothing to declare (the
// library cannot be read).
func (ev *Evaluator) load() (ok bool, diags hcl.Diagnostics) {
	ev.loaded = &loaded{
		loader: newLoader(ev.limits, ev.cfg.ParseCache, ev.cfg.Fleet),
		Modules: syntax.Modules{
			Submodules: map[string]*syntax.Submodule{},
			Formats:    map[string]*syntax.Format{},
			NamedTypes: map[string]*syntax.NamedType{},
		},
		userFuncs: map[string]*syntax.Function{},
	}
	ev.loader.compute = ev.linkStrings
	roots, diags := ev.loadRoots()
	if diags.HasErrors() && roots == nil {
		return false, diags
	}
	if ev.leavesOut() && !ev.cfg.ParseCache.Off() {
		ev.pendingFacts, ev.stubbed = ev.stubUnused(roots)
	}
	return true, append(diags, ev.collectModules(roots)...)
}

// loadRoots names the modules an evaluation starts from: the library's,
// the user's files, then the inline modules (which are parsed already).
// It returns nil roots when the library cannot be read.
func (ev *Evaluator) loadRoots() ([]syntax.Source, hcl.Diagnostics) {
	cfg := ev.cfg
	var diags hcl.Diagnostics
	roots := []syntax.Source{}
	if cfg.Library != nil {
		libs, err := libraryModules(cfg.Library)
		if err != nil {
			return nil, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Cannot read the module library", Detail: err.Error()}}
		}
		roots = append(roots, libs...)
	}
	for _, f := range cfg.Files {
		if cfg.FS != nil {
			roots = append(roots, syntax.Source{FS: cfg.FS, Path: path.Clean(f)})
			continue
		}
		s, err := hostSource(f)
		if err != nil {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Cannot read module", Detail: fmt.Sprintf("%s: %s.", f, err)})
			continue
		}
		roots = append(roots, s)
	}
	for i, in := range cfg.Inline {
		s := syntax.Source{FS: cfg.FS, Path: path.Clean(in.Path), Inline: i + 1}
		if cfg.FS == nil {
			hs, err := hostSource(in.Path)
			if err != nil {
				diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Cannot read module", Detail: fmt.Sprintf("%s: %s.", in.Path, err)})
				continue
			}
			hs.Inline = i + 1
			s = hs
		}
		diags = append(diags, ev.loader.addInline(s, in.File, in.Body)...)
		roots = append(roots, s)
	}
	return roots, diags
}

// collectModules parses the roots and the modules they import, in module
// order, and registers their submodule types and formats, which are global
// to the evaluation.
func (ev *Evaluator) collectModules(roots []syntax.Source) hcl.Diagnostics {
	mods, diags := ev.loader.collect(roots)
	ev.Mods = mods
	for _, m := range mods {
		for _, s := range m.Submodules {
			diags = append(diags, declareOnce(ev.Submodules, "submodule", s.Name, s, s.Block)...)
		}
		for _, f := range m.Formats {
			diags = append(diags, declareOnce(ev.Formats, "format", f.Name, f, f.Block)...)
		}
		diags = append(diags, ev.registerFunctions(m)...)
		for _, t := range m.Types {
			diags = append(diags, declareOnce(ev.NamedTypes, "type", t.Name, t, t.Block)...)
		}
	}
	return diags
}

// declareOnce registers v, declared by block, under name in decls (the
// submodules or formats of an evaluation, as what says), unless the name is
// taken.
func declareOnce[T interface{ DeclBlock() *hclsyntax.Block }](decls map[string]T, what, name string, v T, block *hclsyntax.Block) hcl.Diagnostics {
	if prev, ok := decls[name]; ok {
		What := strings.ToUpper(what[:1]) + what[1:]
		return hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  fmt.Sprintf("%s %q is already declared", What, name),
			Detail:   fmt.Sprintf("The %s %q is declared here and at %s. %s names are global to an evaluation.", what, name, options.ShowPos(prev.DeclBlock().DefRange()), What),
			Subject:  block.DefRange().Ptr(),
		}}
	}
	decls[name] = v
	return nil
}

// define makes the top-level instance of the declared option tree and
// splits the definitions of every config block over it, without
// evaluating them. Definitions come in the reverse of the module list.
//
// With the inert facts of a shared tree (facts, nil otherwise), the inert
// modules are left out unless a definition reaches their options, and the
// candidates not known yet are probed (see inert.go). The modules in skip
// are left out (the probe's evaluation, see inertFacts.learn).
func (ev *Evaluator) define(decl *declare.Declared, facts *inertFacts, skip map[*syntax.Module]bool) hcl.Diagnostics {
	var diags hcl.Diagnostics
	ev.top = &instance{ev: ev, root: decl.Root, topStates: make([]*nodeState, decl.Nodes+1), bodyLocals: map[*syntax.Submodule]*localSet{}}
	var skipped []int
	for i := len(ev.Mods) - 1; i >= 0; i-- {
		if skip[ev.Mods[i]] {
			continue
		}
		if facts.inert(ev.Mods[i]) {
			skipped = append(skipped, i)
			continue
		}
		diags = append(diags, ev.defineModule(i)...)
	}
	if len(skipped) > 0 {
		diags = append(diags, ev.defineTouched(facts, skipped)...)
	}
	if facts != nil {
		facts.learn(ev)
	}
	return diags
}

// defineModule splits the definitions of the config blocks of ev.Mods[i].
// Definitions come in the reverse of the module list.
func (ev *Evaluator) defineModule(i int) hcl.Diagnostics {
	var diags hcl.Diagnostics
	m := ev.Mods[i]
	sc := ev.topScope(m)
	for k, c := range m.Configs {
		diags = append(diags, ev.top.defineConfig(c, sc, []int{ev.defSeq(i), k})...)
	}
	return diags
}

func checkLocals(attrs []*hclsyntax.Attribute) hcl.Diagnostics {
	if len(attrs) <= smallLocals {
		// Most modules have a few locals: compared pairwise, with no map
		// to make (each evaluation checks every module of the library).
		for i, a := range attrs {
			for _, b := range attrs[:i] {
				if a.Name == b.Name {
					return checkLocalsMap(attrs)
				}
			}
		}
		return nil
	}
	return checkLocalsMap(attrs)
}

// smallLocals is the number of locals checkLocals compares pairwise.
const smallLocals = 16

// checkLocalsMap reports every local of attrs declared twice.
func checkLocalsMap(attrs []*hclsyntax.Attribute) hcl.Diagnostics {
	var diags hcl.Diagnostics
	seen := map[string]hcl.Range{}
	for _, a := range attrs {
		if prev, ok := seen[a.Name]; ok {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Duplicate local",
				Detail:   fmt.Sprintf("The local %q is already declared at %s.", a.Name, options.ShowPos(prev)),
				Subject:  a.NameRange.Ptr(),
			})
			continue
		}
		seen[a.Name] = a.NameRange
	}
	return diags
}

// Files returns the parsed files by name, for rendering diagnostics: the
// evaluation's, those of the other hosts whose errors it reports, and
// those of its Whole once made.
func (ev *Evaluator) Files() map[string]*hcl.File {
	whole := ev.whole != nil && ev.whole != ev
	if len(ev.hostFiles) == 0 && !whole {
		return ev.loader.files
	}
	files := make(map[string]*hcl.File, len(ev.loader.files)+len(ev.hostFiles))
	for name, f := range ev.hostFiles {
		files[name] = f
	}
	if whole {
		// the files of the modules left out, which Whole's diagnostics
		// may name
		maps.Copy(files, ev.whole.Files())
	}
	for name, f := range ev.loader.files {
		files[name] = f
	}
	return files
}

// withoutCommandLine drops subjects that stand for the command line, which
// has no source to show.
func withoutCommandLine(diags hcl.Diagnostics) hcl.Diagnostics {
	for _, d := range diags {
		if d.Subject != nil && d.Subject.Filename == commandLine {
			d.Subject = nil
		}
	}
	return diags
}

// Dedupe drops repeated diagnostics (the same error reached through two
// references, or found by two phases) and keeps the first occurrence of
// each, in order.
func Dedupe(diags hcl.Diagnostics) hcl.Diagnostics { return dedupe(diags) }

func dedupe(diags hcl.Diagnostics) hcl.Diagnostics {
	if len(diags) < 2 {
		return diags
	}
	seen := map[string]bool{}
	type undefinedReads struct {
		at    int         // the place of the first in out
		lines []string    // the file:line of each read
		also  []hcl.Range // the reads after the first
	}
	undefined := map[undefinedOption]*undefinedReads{}
	// An option without a value inside a namespace read whole has no
	// place of its own; one read from a place says more.
	placed := map[undefinedOption]bool{}
	for _, d := range diags {
		if u, ok := d.Extra.(undefinedOption); ok && d.Subject != nil {
			placed[u] = true
		}
	}
	out := diags[:0:0]
	for _, d := range diags {
		if u, ok := d.Extra.(undefinedOption); ok && d.Subject == nil && placed[u] {
			continue
		}
		key := fmt.Sprintf("%d|%s|%s", d.Severity, d.Summary, d.Detail)
		if d.Subject != nil {
			key += "|" + d.Subject.String()
		}
		if seen[key] {
			continue
		}
		seen[key] = true
		// One option without a value read from several places is one
		// error, which lists the other places.
		if u, ok := d.Extra.(undefinedOption); ok && d.Subject != nil {
			line := fmt.Sprintf("%s:%d", d.Subject.Filename, d.Subject.Start.Line)
			if r := undefined[u]; r != nil {
				if !slices.Contains(r.lines, line) {
					r.lines = append(r.lines, line)
					r.also = append(r.also, *d.Subject)
				}
				continue
			}
			undefined[u] = &undefinedReads{at: len(out), lines: []string{line}}
		}
		out = append(out, d)
	}
	for _, r := range undefined {
		if len(r.also) > 0 {
			first := *out[r.at]
			first.Detail += fmt.Sprintf("\nIt is also needed at %s.", showRanges(r.also))
			out[r.at] = &first
		}
	}
	return out
}

// Evaluator holds one evaluation: the values its phases made (the loaded
// modules, the declared option tree, the top-level instance) and what
// evaluating needs: the submodule instances, the memoised state of every
// option, the thunks, the stacks, the limits and the statistics. It is not
// safe for concurrent use; evaluations that share a declared tree (see
// Fleet) may run in parallel.
type Evaluator struct {
	// The fields are grouped by lifetime, as go/types groups its
	// Checker's, in embedded structs so that their uses read ev.field.
	evalPhases
	evalCaches
	// arena holds the node states, thunks, one-definition slots and
	// joined paths the evaluation makes, a block at a time (arena.go):
	// made empty by New, grown while defining and forcing, never freed
	// before the Evaluator.
	arena arena
	evalStacks
	evalLimiter
	evalTrace
}

// evalPhases are the evaluation's input and the values its phases make
// (see New): set once, by New, in phase order, and never reset; the
// declared tree may be shared with other evaluations (see Fleet), which
// never change it.
type evalPhases struct {
	cfg Config
	*loaded
	// decl is the declared option tree, maybe shared with other
	// evaluations (see Fleet): the evaluation never changes it.
	decl *declare.Declared
	top  *instance
	// skipped are the inert modules the evaluation leaves out (see
	// inert.go); full is the evaluation that does not, made for Explain
	// (the Evaluator itself if making it failed).
	skipped map[*syntax.Module]bool
	full    *Evaluator
	// left are the unused library modules the evaluation left out before
	// declaring (see unused.go), in module order; whole is the evaluation
	// that does not, made for Whole.
	left  []*syntax.Module
	whole *Evaluator
	// pendingFacts are the library's sources whose facts the parse cache
	// lacks, written once known; stubbed says it had them, and the modules
	// they name are stubs, libRoots the keys of the library's roots
	// (see unusedfacts.go).
	pendingFacts *pendingFacts
	stubbed      bool
	libRoots     map[string]bool
	// listed are the library modules the facts list, each with what
	// they say of it.
	listed map[*syntax.Module]*moduleUse
	// defaults holds, for a tree that others share, the merged value of
	// each option read with nothing but its constant default (see
	// sharedDefault): *declare.Option -> *options.Merged.
	defaults *sync.Map
	// instances are the top-level instance and the submodule instances,
	// appended as they are made (define.go).
	instances []*instance
}

// evalCaches are what forcing computes once and keeps for the rest of the
// evaluation: made empty by New (fileFuncs, modLocals, loadScopes as
// first needed), filled on demand, never reset.
type evalCaches struct {
	// bound holds the types of the declared options (by *declare.Option)
	// and freeform submodules (by *declare.SubType) that name a submodule
	// or the type path, bound to this evaluation (see typeOf).
	bound       map[any]options.Type
	modLocals   map[*syntax.Module]*localSet
	loadScopes  map[*syntax.Module]*scope // see loadScope
	funcs       map[string]function.Function
	fileFuncs   map[string]function.Function // by module directory key
	removedMsgs map[*declare.Node]*thunk
	// modulePaths are the paths that the type path resolved from a path
	// relative to a module, by their absolute path: file() reads them
	// through that module (see ResolvePath).
	modulePaths map[string]modulePath
}

// evalStacks are the state of the forcing in progress: pushed when an
// option, a definition or a read of another host begins and popped when
// it ends, so empty between two calls of the API (Get, Check, ...); the
// merger and the statistics live as long as the Evaluator.
type evalStacks struct {
	// merger merges the options' definitions (see instance.force),
	// bounded by the evaluation's allocation budget.
	merger options.Merger

	stack []frame
	// defStack holds the definitions of the options being forced (see
	// instance.force).
	defStack []options.Def
	// partStack holds the parts of the definitions being split (see
	// instance.splitNamespace).
	partStack []property.Part
	stats     Stats
	// recorder, while an assertion's condition is evaluated, collects the
	// options it reads (see record).
	recorder *readRecorder
	// hostChain is the chain of reads of other hosts that this
	// evaluation is serving, when it is a view of its host (see Hosts),
	// set and restored around each such read.
	hostChain *hostRead
}

// evalLimiter bounds the evaluation (limits.go): set by New, charged while
// forcing; once a limit is spent its error stays, and every later charge
// repeats it.
type evalLimiter struct {
	limits  Limits    // cfg.Limits with the defaults
	started time.Time // for Limits.Time
	ticks   uint      // calls of checkTime
	// exhausted is the error of the spent allocation budget or time,
	// which every later charge repeats.
	exhausted *hcl.Diagnostic
	// tooDeep is the first error of a chain longer than the depth
	// limit, what every later one is (checkDepth).
	tooDeep *hcl.Diagnostic
}

// evalTrace is what the evaluation's errors carry and what it reports
// beyond its own files: filled as errors are made, kept for the
// Evaluator's life, never reset.
type evalTrace struct {
	late hcl.Diagnostics // found while splitting definitions lazily
	// hostFiles are the files of the other hosts whose errors the
	// evaluation reports (see Files).
	hostFiles map[string]*hcl.File
	traced    map[*hcl.Diagnostic]bool
	// calledNote marks the errors that name the call of the function
	// they are in (see noteCall).
	calledNote map[*hcl.Diagnostic]bool
}

// Stats counts the work an evaluation did so far.
type Stats struct {
	// Options is the number of options evaluated (each at most once).
	Options int
	// Thunks is the number of expressions evaluated lazily.
	Thunks int
	// Instances is the number of submodule instances made.
	Instances int
	// Calls is the number of calls of the modules' functions.
	Calls int
	// Allocated is the estimate of the bytes of values made that
	// Limits.Allocation bounds.
	Allocated int64
}

// Limits returns the limits of the evaluation, with their defaults.
func (ev *Evaluator) Limits() Limits { return ev.limits }

// Stats returns what the evaluation did so far.
func (ev *Evaluator) Stats() Stats { return ev.stats }

// commandLine is the file name of ranges that stand for the command line.
const commandLine = "<command line>"
