package eval_test

import (
	"go/ast"
	"go/types"
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"

	"github.com/nodegen/nodegen/internal/suitereport"
)

// runtimeTypes are the types of the evaluation that the runtime makes
// (phases 4 to 7): the Evaluator, its instances, scopes, thunks and the
// state of options. Declaring (phase 3) is to use none of them.
var runtimeTypes = []string{"Evaluator", "instance", "scope", "localSet", "thunk", "nodeState", "frame", "readRecorder", "hostRead", "Hosts"}

// TestDeclaringDoesNotEvaluate checks the layering eval/doc.go states:
// declare, and everything it calls in the package, names no type of the
// runtime, not even as the type of a value passed around: it reads
// expressions through the narrow evaluator declConsts alone (an interface,
// whose implementation is not followed), so that the declared tree is a
// function of the loaded modules, shared by a fleet's hosts as a value.
func TestDeclaringDoesNotEvaluate(t *testing.T) {
	suitereport.Program(t, "eval layering", "go", "the Go toolchain")
	g := loadCallGraph(t)

	reached, bad := g.check("declare")
	for _, want := range []string{"declare", "(*declarer).buildTrie", "(*declarer).expandDynamic", "(*declarer).dynamicLabel", "(*declarer).parseType", "(*declarer).lookupNamedType", "(*declarer).subTypeAt", "(*declarer).freeformType", "(*declarer).settleDefault", "iteratorValue", "addRenames"} {
		if !slices.Contains(reached, want) {
			t.Errorf("declare does not reach %s: the check walks less than the declaring code", want)
		}
	}
	for _, b := range bad {
		t.Errorf("declaring depends on the runtime: %s", b)
	}

	// The check finds what it looks for: the runtime's own entry points
	// name its types.
	if _, bad := g.check("(*Evaluator).instantiate"); len(bad) == 0 {
		t.Errorf("the check finds no runtime type in (*Evaluator).instantiate")
	}
}

// callGraph is the package eval's functions by their names, with the type
// information of their bodies.
type callGraph struct {
	pkg   *packages.Package
	decls map[*types.Func]*ast.FuncDecl
	byKey map[string]*types.Func
}

func loadCallGraph(t *testing.T) *callGraph {
	t.Helper()
	cfg := &packages.Config{Mode: packages.NeedName | packages.NeedFiles | packages.NeedSyntax | packages.NeedTypes | packages.NeedTypesInfo | packages.NeedImports}
	pkgs, err := packages.Load(cfg, "github.com/nodegen/nodegen/eval")
	if err != nil {
		t.Fatalf("loading eval: %v", err)
	}
	if len(pkgs) != 1 || len(pkgs[0].Errors) > 0 {
		t.Fatalf("loading eval: %v", pkgs[0].Errors)
	}
	g := &callGraph{pkg: pkgs[0], decls: map[*types.Func]*ast.FuncDecl{}, byKey: map[string]*types.Func{}}
	for _, f := range g.pkg.Syntax {
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok {
				continue
			}
			fn := g.pkg.TypesInfo.Defs[fd.Name].(*types.Func)
			g.decls[fn] = fd
			g.byKey[funcKey(fn)] = fn
		}
	}
	return g
}

// funcKey names a function as the test does: name, or (*T).name.
func funcKey(fn *types.Func) string {
	sig := fn.Type().(*types.Signature)
	if sig.Recv() == nil {
		return fn.Name()
	}
	recv := sig.Recv().Type()
	ptr := ""
	if p, ok := recv.(*types.Pointer); ok {
		recv, ptr = p.Elem(), "*"
	}
	return "(" + ptr + recv.(*types.Named).Obj().Name() + ")." + fn.Name()
}

// check walks the functions of the package that the function named root
// calls, transitively, and returns their names and the places where one
// of them names a runtime type.
func (g *callGraph) check(root string) (reached, bad []string) {
	start := g.byKey[root]
	if start == nil {
		return nil, []string{"no function " + root}
	}
	info := g.pkg.TypesInfo
	fset := g.pkg.Fset
	seen := map[*types.Func]bool{start: true}
	queue := []*types.Func{start}
	for len(queue) > 0 {
		fn := queue[0]
		queue = queue[1:]
		reached = append(reached, funcKey(fn))
		fd := g.decls[fn]
		ast.Inspect(fd, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.Ident:
				if callee, ok := info.Uses[n].(*types.Func); ok && g.decls[callee] != nil && !seen[callee] {
					seen[callee] = true
					queue = append(queue, callee)
				}
			case ast.Expr:
				if tv, ok := info.Types[n]; ok {
					if name := runtimeTypeIn(tv.Type, map[types.Type]bool{}); name != "" {
						bad = append(bad, fset.Position(n.Pos()).String()+" in "+funcKey(fn)+": "+name)
						return false
					}
				}
			}
			return true
		})
	}
	return reached, bad
}

// runtimeTypeIn is the name of a runtime type that t is or holds (as a
// pointer, slice, map or function's element), or "".
func runtimeTypeIn(t types.Type, seen map[types.Type]bool) string {
	if t == nil || seen[t] {
		return ""
	}
	seen[t] = true
	switch t := t.(type) {
	case *types.Named:
		obj := t.Obj()
		if obj.Pkg() != nil && strings.HasSuffix(obj.Pkg().Path(), "/nodegen/eval") && slices.Contains(runtimeTypes, obj.Name()) {
			return obj.Name()
		}
	case *types.Pointer:
		return runtimeTypeIn(t.Elem(), seen)
	case *types.Slice:
		return runtimeTypeIn(t.Elem(), seen)
	case *types.Map:
		if n := runtimeTypeIn(t.Key(), seen); n != "" {
			return n
		}
		return runtimeTypeIn(t.Elem(), seen)
	case *types.Signature:
		for _, tup := range []*types.Tuple{t.Params(), t.Results()} {
			for v := range tup.Variables() {
				if n := runtimeTypeIn(v.Type(), seen); n != "" {
					return n
				}
			}
		}
		if r := t.Recv(); r != nil {
			return runtimeTypeIn(r.Type(), seen)
		}
	}
	return ""
}
