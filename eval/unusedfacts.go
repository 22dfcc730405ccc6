package eval

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"reflect"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/hashicorp/hcl/v2"

	"github.com/nodegen/nodegen/eval/internal/syntax"
	"github.com/nodegen/nodegen/internal/regularfile"
)

// Unused modules a run does not decode.
//
// What unused.go needs to know of a library module that may be left out
// (its moduleUse, and that it does nothing by itself) is a fact of its
// source, the nodegen build and the limits. A process that evaluates once
// (`nodegen eval`) would otherwise decode every library module and
// evaluate the candidates by themselves on every run, only to leave them
// out. So the facts of a library (every module that may be left out, by
// the SHA-256 of its source) are kept in the parse cache
// (parsecache.Cache.Fact), under the hash of the library's sources (their
// names and sums) and the limits: a run that finds them makes each such
// module a stub (syntax.Module.Lazy, its moduleUse stored on it) instead
// of decoding it, and decodes only the stubs it keeps (decodeStubs). A run
// that does not (the first, or one after a module changed) decodes every
// module, learns what each does by itself, and writes the facts
// (keepFacts).

// pendingFacts are the library sources of an evaluation whose facts the
// parse cache did not have: written once unusedModules knows them.
type pendingFacts struct {
	key  [sha256.Size]byte
	libs []syntax.Source
	sums [][sha256.Size]byte
}

// sourceBufs keep the buffers stubUnused reads sources into, to hash
// them.
var sourceBufs = sync.Pool{New: func() any { return new([]byte) }}

// factsMagic starts the key of a library's facts and their encoding.
const factsMagic = "nodegen unused modules 3\n"

// stubUnused reads the sources of the library's modules among roots and
// makes a stub of each one the parse cache's facts say may be left out
// (see the top of this file); it returns what to write when the cache
// has no facts for them. Modules the process has decoded already are
// taken as they are.
func (ev *Evaluator) stubUnused(roots []syntax.Source) (pf *pendingFacts, stubbed bool) {
	var libs []syntax.Source
	for _, s := range roots {
		if s.Lib && reflect.TypeOf(s.FS).Comparable() {
			libs = append(libs, s)
		}
	}
	if len(libs) == 0 {
		return nil, false
	}
	sums := make([][sha256.Size]byte, len(libs))
	var failed atomic.Bool
	forEachParallel(len(libs), func(i int) {
		buf := sourceBufs.Get().(*[]byte)
		defer sourceBufs.Put(buf)
		var src []byte
		ok := false
		if p, host := hostPath(libs[i]); host {
			src, ok = regularfile.ReadFast((*buf)[:0], p, ev.limits.FileBytes)
		}
		if ok {
			*buf = src
		} else {
			var err error
			if src, err = readModule(libs[i], ev.limits.FileBytes); err != nil {
				failed.Store(true)
				return
			}
		}
		sums[i] = sha256.Sum256(src)
	})
	if failed.Load() {
		return nil, false // parsing the module says what is wrong
	}
	h := sha256.New()
	fmt.Fprintf(h, "%s%v\x00", factsMagic, ev.limits)
	for i, s := range libs {
		fmt.Fprintf(h, "%s\x00", s.Display())
		h.Write(sums[i][:])
	}
	pf = &pendingFacts{libs: libs, sums: sums}
	h.Sum(pf.key[:0])
	ev.libRoots = make(map[string]bool, len(libs))
	for _, s := range libs {
		ev.libRoots[s.Key()] = true
	}
	data, ok := ev.cfg.ParseCache.Fact(pf.key)
	if !ok {
		return pf, false
	}
	uses, ok := decodeFacts(data)
	if !ok {
		return pf, false
	}
	ev.listed = map[*syntax.Module]*moduleUse{}
	for i, s := range libs {
		u := uses[sums[i]]
		if u == nil {
			continue
		}
		if p, parsed := parsedLibrary.Load(libraryKey{s.FS, s.Path}); parsed {
			// decoded by the process already: it is taken as it is, and
			// left out as a stub would be
			if m := p.(*parsedModule).m; m != nil {
				ev.listed[m] = u
			}
			continue
		}
		m := &syntax.Module{Src: s, Lazy: true, ID: moduleIDs.Add(1)}
		m.Use.Store(u)
		ev.listed[m] = u
		ev.loader.add(s, "", m) // (a name for its file, which it has not)
	}
	return nil, true
}

// libraryIntact says the library modules of the evaluation are those
// whose facts were read: no host disabled one (its options then declared
// by no module), and no library module imported another.
func (ev *Evaluator) libraryIntact() bool {
	n := 0
	for _, m := range ev.Mods {
		if m.Shared || m.Lazy {
			if !ev.libRoots[m.Src.Key()] {
				return false
			}
			n++
		}
	}
	return n == len(ev.libRoots)
}

// unusedStubs is unusedModules for an evaluation whose library has facts:
// the modules they list (ev.listed: the stubs, and those the process had
// decoded already) are left out but those the caller's reads and the
// host's modules reach, and what these reach in turn (see hostPaths and
// keepAlong); the library's other modules are kept.
func (ev *Evaluator) unusedStubs() (kept, left []*syntax.Module) {
	paths, host := ev.hostPaths()
	lib := &libraryUse{}
	for _, m := range ev.Mods {
		if u := ev.listed[m]; u != nil {
			for _, p := range u.declares {
				lib.declared.add(p, int32(len(lib.uses)))
			}
			lib.uses = append(lib.uses, u)
			lib.unused = append(lib.unused, true)
		}
	}
	lib.keepAlong(lib.unused, paths, host)
	return ev.splitMods(func(m *syntax.Module) bool { return ev.listed[m] != nil }, lib.unused)
}

// decodeStubs decodes the stubs among ev.Mods: those the evaluation keeps
// after all (all of them, when it leaves nothing out).
func (ev *Evaluator) decodeStubs() hcl.Diagnostics {
	var diags hcl.Diagnostics
	mods := ev.Mods[:0:0]
	for _, m := range ev.Mods {
		if !m.Lazy {
			mods = append(mods, m)
			continue
		}
		k := m.Src.Key()
		l := ev.loader
		l.mu.Lock()
		delete(l.mods, k)
		l.mu.Unlock()
		diags = append(diags, l.parseOne(m.Src)...)
		if dm := l.mods[k]; dm != nil {
			mods = append(mods, dm)
		}
	}
	if len(mods) != len(ev.Mods) || len(diags) > 0 {
		ev.Mods = mods
		return diags
	}
	copy(ev.Mods, mods)
	return nil
}

// keepFacts writes the facts of the library whose sources pf lists: the
// modules the library itself does not use (unusedModules with no host,
// learning what each does by itself), each as its sum, the common prefix
// of the paths it declares (along which a read reaches it, see
// commonPrefix), and the paths it reads, defines and defines at.
func (ev *Evaluator) keepFacts(pf *pendingFacts) {
	if pf == nil {
		return
	}
	mods := make([]*syntax.Module, len(pf.libs))
	var paths [][]string
	for i, s := range pf.libs {
		p, ok := parsedLibrary.Load(libraryKey{s.FS, s.Path})
		if !ok {
			return // a module that cannot be read
		}
		pm := p.(*parsedModule)
		mods[i] = pm.m
		if len(pm.diags) > 0 {
			// kept, as a module of another shape is
			paths = append(paths, useOf(pm.m).reads...)
			paths = append(paths, useOf(pm.m).defines...)
		}
	}
	lib := libraryUseOf(mods)
	unused := slices.Clone(lib.unused)
	for i, s := range pf.libs {
		p, _ := parsedLibrary.Load(libraryKey{s.FS, s.Path})
		if len(p.(*parsedModule).diags) > 0 {
			unused[i] = false
		}
	}
	ev.settle(lib, mods, unused, paths, &moduleUse{})
	data := []byte(factsMagic)
	for i, m := range mods {
		if unused[i] {
			u := useOf(m)
			data = append(data, pf.sums[i][:]...)
			data = appendUse(data, [][]string{commonPrefix(u.declares)}, u.reads, u.defines, u.targets)
		}
	}
	ev.cfg.ParseCache.PutFact(pf.key, data)
}

// commonPrefix is the longest path every one of paths begins with: a path
// along one of them is along it, so that it stands for them where being
// reached is all that counts.
func commonPrefix(paths [][]string) []string {
	p := paths[0]
	for _, q := range paths[1:] {
		n := 0
		for n < len(p) && n < len(q) && p[n] == q[n] {
			n++
		}
		p = p[:n]
	}
	return p
}

// appendUse appends the lists of paths to b.
func appendUse(b []byte, lists ...[][]string) []byte {
	for _, paths := range lists {
		b = binary.AppendUvarint(b, uint64(len(paths)))
		for _, p := range paths {
			b = binary.AppendUvarint(b, uint64(len(p)))
			for _, seg := range p {
				b = binary.AppendUvarint(b, uint64(len(seg)))
				b = append(b, seg...)
			}
		}
	}
	return b
}

// paths returns u with the paths it reads, defines and defines at
// decoded, when decodeFacts left them encoded (u.lazy, which decodeFacts
// checked).
func (u *moduleUse) paths() *moduleUse {
	if u.lazy == nil {
		return u
	}
	data := u.lazy
	u.lazy = nil
	uvarint := func() int {
		v, n := binary.Uvarint(data)
		data = data[n:]
		return int(v)
	}
	for _, dst := range []*[][]string{&u.reads, &u.defines, &u.targets} {
		for range uvarint() {
			p := make([]string, uvarint())
			for i := range p {
				l := uvarint()
				p[i] = string(data[:l])
				data = data[l:]
			}
			*dst = append(*dst, p)
		}
	}
	return u
}

// decodeFacts reads what keepFacts wrote: the moduleUse of each module
// the library does not use, by its source's sum (its declares the common
// prefix of those of its source); false when data is not such a record.
func decodeFacts(data []byte) (map[[sha256.Size]byte]*moduleUse, bool) {
	if len(data) < len(factsMagic) || string(data[:len(factsMagic)]) != factsMagic {
		return nil, false
	}
	data = data[len(factsMagic):]
	uvarint := func() (int, bool) {
		v, n := binary.Uvarint(data)
		if n <= 0 || v > uint64(len(data)) {
			return 0, false
		}
		data = data[n:]
		return int(v), true
	}
	uses := map[[sha256.Size]byte]*moduleUse{}
	for len(data) > 0 {
		if len(data) < sha256.Size {
			return nil, false
		}
		var sum [sha256.Size]byte
		copy(sum[:], data)
		data = data[sha256.Size:]
		u := &moduleUse{candidate: true}
		u.alone.Store(inertYes)
		// The common prefix now; the paths it reads, defines and defines
		// at are needed only if it is kept (moduleUse.paths).
		for list := range 4 {
			start := data
			n, ok := uvarint()
			if !ok {
				return nil, false
			}
			for range n {
				segs, ok := uvarint()
				if !ok {
					return nil, false
				}
				var p []string
				for range segs {
					l, ok := uvarint()
					if !ok || l > len(data) {
						return nil, false
					}
					if list == 0 {
						p = append(p, string(data[:l]))
					}
					data = data[l:]
				}
				if list == 0 {
					u.declares = append(u.declares, p)
				}
			}
			if list == 1 {
				u.lazy = start
			}
		}
		u.lazy = u.lazy[:len(u.lazy)-len(data)]
		uses[sum] = u
	}
	return uses, true
}
