package eval_test

import (
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/nodegen/nodegen/eval"
	"github.com/nodegen/nodegen/internal/librarytrees"
	"github.com/nodegen/nodegen/internal/parsediag"
	"github.com/nodegen/nodegen/modules"
)

// BenchmarkParseLibrary parses every module of the library, on one
// goroutine, as evaluation does with no parse cache (parsediag.Parse,
// "nodegen") and with hcl's ParseConfig alone ("upstream").
func BenchmarkParseLibrary(b *testing.B) {
	files, err := librarytrees.Files(modules.FS(), eval.LibraryFileName(""))
	if err != nil {
		b.Fatal(err)
	}
	size := 0
	for _, f := range files {
		size += len(f.Src)
	}
	for _, p := range []struct {
		name  string
		parse func(src []byte, filename string) (*hcl.File, hcl.Diagnostics)
	}{
		{"nodegen", parsediag.Parse},
		{"upstream", func(src []byte, filename string) (*hcl.File, hcl.Diagnostics) {
			return hclsyntax.ParseConfig(src, filename, hcl.InitialPos)
		}},
	} {
		b.Run(p.name, func(b *testing.B) {
			b.SetBytes(int64(size))
			b.ReportAllocs()
			for b.Loop() {
				for _, f := range files {
					if _, diags := p.parse(f.Src, f.Name); diags.HasErrors() {
						b.Fatal(diags.Error())
					}
				}
			}
		})
	}
}
