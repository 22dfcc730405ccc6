package eval

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"sync"

	"github.com/hashicorp/hcl/v2"
	"github.com/nodegen/nodegen/eval/internal/declare"
	"github.com/nodegen/nodegen/eval/internal/syntax"
)

// Fleet is what the evaluations of the hosts of a fleet share (nodegen
// build evaluates each host on its own, in parallel goroutines): the
// declared option tree, made once for the hosts whose declaring modules
// are the same (the library and the modules they import that declare
// options, submodule types, formats or renamed and removed options; see
// syntax.Module.Declares), and the parsed declaring modules of the host, by
// their path and content, which make those trees. A host that declares
// options of its own has a tree of its own. An error in a declaration is
// reported by every evaluation whose tree it is in, located as alone.
//
// What a tree depends on besides its modules, the Limits and ShowTrace,
// tells trees apart too. Only the modules of host files are kept (not
// those of a Config.FS). A Fleet is safe for concurrent use.
type Fleet struct {
	mu sync.Mutex
	// modules are the host modules that declare something, by their
	// identity and content, up to fleetModuleBytes of them; seen those
	// parsed once. A module is kept from the second evaluation that
	// parses it on: one that a single host has is never held.
	modules     map[fleetModuleKey]*parsedModule
	seen        map[fleetModuleKey]bool
	moduleBytes int
	// asked are the sets of declaring modules asked for once; trees
	// holds the declared trees of those asked for twice or more, up to
	// fleetTrees of them: a tree is kept when two hosts share it, so that
	// what each host declares alone is not held for the whole build.
	asked map[[sha256.Size]byte]bool
	trees map[[sha256.Size]byte]*fleetTree
}

// fleetModuleBytes bounds the source bytes of the host modules a Fleet
// keeps, and fleetTrees the number of declared trees.
const (
	fleetModuleBytes = 4 << 20
	fleetTrees       = 16
)

// fleetModuleKey identifies a host module: where it is, the name
// diagnostics show for it, and what it holds.
type fleetModuleKey struct {
	key, display string
	sum          [sha256.Size]byte
}

// fleetTree is one declared tree of a Fleet, made by the first evaluation
// that needs it.
type fleetTree struct {
	once sync.Once
	decl *declare.Declared
}

// NewFleet returns an empty Fleet.
func NewFleet() *Fleet {
	return &Fleet{
		modules: map[fleetModuleKey]*parsedModule{},
		seen:    map[fleetModuleKey]bool{},
		asked:   map[[sha256.Size]byte]bool{},
		trees:   map[[sha256.Size]byte]*fleetTree{},
	}
}

// module is the module of the fleet parsed from src at s, if one is kept.
func (f *Fleet) module(s syntax.Source, src []byte) (*parsedModule, fleetModuleKey) {
	k := fleetModuleKey{key: s.Key(), display: s.Display(), sum: sha256.Sum256(src)}
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.modules[k], k
}

// keep keeps pm, the module parsed from the source k names, when it
// declares something, was parsed before and there is room, and returns
// the module the evaluation is to use.
func (f *Fleet) keep(k fleetModuleKey, size int, pm *parsedModule) *parsedModule {
	if pm.m == nil || pm.m.Body == nil || !pm.m.Declares() {
		return pm
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if prev := f.modules[k]; prev != nil {
		return prev
	}
	if !f.seen[k] || f.moduleBytes+size > fleetModuleBytes {
		f.seen[k] = true
		return pm
	}
	f.moduleBytes += size
	pm.m.Fleet = true
	f.modules[k] = pm
	return pm
}

// declared is the declared tree of ev's loaded modules: the fleet's when
// their declaring modules are those of a tree it keeps (it makes it with
// ev if none did yet), else one ev makes for itself. kept says the tree
// is the fleet's, which other evaluations share.
func (f *Fleet) declared(ev *Evaluator) (decl *declare.Declared, kept bool) {
	h := sha256.New()
	fmt.Fprintf(h, "%v %v %v\x00", ev.limits, ev.cfg.ShowTrace, declare.KeepDecoded)
	var buf []byte
	for _, m := range ev.Mods {
		if !m.Declares() {
			continue
		}
		if !m.Shared && !m.Fleet {
			// A module only this evaluation has: no other evaluation
			// would share the tree.
			return declare.Declare(&ev.Modules, declaringConsts{ev}), false
		}
		buf = binary.AppendUvarint(buf, m.ID)
	}
	h.Write(buf)
	var key [sha256.Size]byte
	h.Sum(key[:0])
	f.mu.Lock()
	t := f.trees[key]
	if t == nil {
		if !f.asked[key] || len(f.trees) >= fleetTrees {
			f.asked[key] = true
			f.mu.Unlock()
			return declare.Declare(&ev.Modules, declaringConsts{ev}), false
		}
		t = &fleetTree{}
		f.trees[key] = t
	}
	f.mu.Unlock()
	t.once.Do(func() { t.decl = declare.Declare(&ev.Modules, declaringConsts{ev}) })
	return t.decl, true
}

// libraryTrees keeps, for the evaluations of the process made without a
// Fleet, the declared trees of those whose declaring modules are all
// library modules parsed once for the process (syntax.Module.Shared):
// what the language server, nodegen test and a benchmark evaluate again
// and again. As in a Fleet, a tree is kept from the second evaluation
// that declares it: a process that evaluates one host keeps nothing.
var libraryTrees = NewFleet()

// copyDiags returns a copy of diags whose diagnostics are copies, for an
// evaluation to change as it likes.
func copyDiags(diags hcl.Diagnostics) hcl.Diagnostics {
	if len(diags) == 0 {
		return nil
	}
	return appendCopies(make(hcl.Diagnostics, 0, len(diags)), diags)
}
