package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// TestDiagnosticSummariesCapitalised holds the one convention for the
// summaries of diagnostics, hcl's own ("Unsupported argument"): a
// summary starts with a capital letter, or with a name as written
// ("mkIf called with a non-boolean condition"), and ends without a full
// stop; the
// detail is the sentence. It reads every Go file of the module for a
// Summary field (hcl.Diagnostic's, profilecheck.Problem's) given a
// literal, a fmt.Sprintf of a literal or a concatenation starting with
// one, for constants whose name ends in Summary, and for the arguments
// given to a function's parameter named summary.
func TestDiagnosticSummariesCapitalised(t *testing.T) {
	fset := token.NewFileSet()
	check := func(e ast.Expr) {
		lit := leadingLiteral(e)
		if lit == nil {
			return
		}
		s, err := strconv.Unquote(lit.Value)
		if err != nil || s == "" {
			return
		}
		r, _ := utf8.DecodeRuneInString(s)
		if unicode.IsLetter(r) && !unicode.IsUpper(r) && !isName(s) {
			t.Errorf("%s: summary %s starts with a lower-case letter", fset.Position(lit.Pos()), lit.Value)
		}
		if strings.HasSuffix(s, ".") {
			t.Errorf("%s: summary %s ends with a full stop", fset.Position(lit.Pos()), lit.Value)
		}
	}
	var files []*ast.File
	err := filepath.WalkDir("../..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); name == "testdata" || (strings.HasPrefix(name, ".") && name != "." && name != "..") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err == nil {
			files = append(files, f)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	// summaryParam is, by function name, the index of its parameter
	// named summary (functions and function literals bound to a name).
	summaryParam := map[string]int{}
	param := func(name string, ft *ast.FuncType) {
		i := 0
		for _, field := range ft.Params.List {
			for _, n := range field.Names {
				if n.Name == "summary" {
					summaryParam[name] = i
				}
				i++
			}
		}
	}
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncDecl:
				param(n.Name.Name, n.Type)
			case *ast.AssignStmt:
				for i, rhs := range n.Rhs {
					if lit, ok := rhs.(*ast.FuncLit); ok && i < len(n.Lhs) {
						if id, ok := n.Lhs[i].(*ast.Ident); ok {
							param(id.Name, lit.Type)
						}
					}
				}
			}
			return true
		})
	}
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.KeyValueExpr:
				if k, ok := n.Key.(*ast.Ident); ok && k.Name == "Summary" {
					check(n.Value)
				}
			case *ast.ValueSpec:
				for i, name := range n.Names {
					if strings.HasSuffix(name.Name, "Summary") && i < len(n.Values) {
						check(n.Values[i])
					}
				}
			case *ast.CallExpr:
				var name string
				switch fun := n.Fun.(type) {
				case *ast.Ident:
					name = fun.Name
				case *ast.SelectorExpr:
					name = fun.Sel.Name
				}
				if i, ok := summaryParam[name]; ok && i < len(n.Args) {
					check(n.Args[i])
				}
			}
			return true
		})
	}
	if err != nil {
		t.Fatal(err)
	}
}

// leadingLiteral is the string literal e starts with: e itself, the
// format of a fmt.Sprintf, or the left end of a concatenation.
func leadingLiteral(e ast.Expr) *ast.BasicLit {
	switch e := e.(type) {
	case *ast.BasicLit:
		if e.Kind == token.STRING {
			return e
		}
	case *ast.BinaryExpr:
		if e.Op == token.ADD {
			return leadingLiteral(e.X)
		}
	case *ast.ParenExpr:
		return leadingLiteral(e.X)
	case *ast.CallExpr:
		if sel, ok := e.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Sprintf" && len(e.Args) > 0 {
			return leadingLiteral(e.Args[0])
		}
	}
	return nil
}

// isName reports whether s starts with a camel-case name (mkIf, mkMerge),
// which keeps its case at the start of a summary.
func isName(s string) bool {
	word, _, _ := strings.Cut(s, " ")
	return strings.IndexFunc(word, unicode.IsUpper) > 0
}
