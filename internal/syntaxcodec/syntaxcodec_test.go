package syntaxcodec

import (
	"bytes"
	"encoding/binary"
	"io/fs"
	"math"
	"math/big"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/rogpeppe/go-internal/txtar"
	"github.com/zclconf/go-cty/cty"

	"github.com/nodegen/nodegen/internal/hclguard"
)

// codecCmp compares syntax trees: values by cty's RawEquals and their
// number precision, operations by identity, and the unexported fields of
// bodies (a traversal step's is an empty marker); an AnonSymbolExpr's
// evaluation state is left out, and so is a file's Nav, which
// checkNavigation compares.
var codecCmp = []cmp.Option{
	cmp.AllowUnexported(hclsyntax.Body{}),
	cmpopts.IgnoreFields(hcl.File{}, "Nav"),
	cmpopts.IgnoreUnexported(hcl.TraverseRoot{}, hcl.TraverseAttr{}, hcl.TraverseIndex{}, hcl.TraverseSplat{}),
	cmp.Comparer(func(a, b cty.Value) bool {
		if !a.RawEquals(b) {
			return false
		}
		if a.Type() == cty.Number && a.IsKnown() && !a.IsNull() {
			return a.AsBigFloat().Prec() == b.AsBigFloat().Prec() && a.AsBigFloat().Mode() == b.AsBigFloat().Mode()
		}
		return true
	}),
	cmp.Comparer(func(a, b *hclsyntax.Operation) bool { return a == b }),
	cmp.Comparer(func(a, b *hclsyntax.AnonSymbolExpr) bool { return a.SrcRange == b.SrcRange }),
}

// roundTrip parses src, encodes and decodes it, and reports any difference
// from the parse. It returns false when the file has diagnostics, which
// are never encoded, or is one that hclguard refuses to parse.
func roundTrip(t *testing.T, name string, src []byte) bool {
	t.Helper()
	if len(hclguard.Config(src, name, hcl.InitialPos)) > 0 {
		return false
	}
	file, diags := hclsyntax.ParseConfig(src, name, hcl.InitialPos)
	if len(diags) > 0 {
		if _, err := AppendFile(nil, file, name); err == nil && diags.HasErrors() && hasSyntaxError(file) {
			t.Errorf("%s: a tree with a syntax error was encoded", name)
		}
		return false
	}
	data, err := AppendFile(nil, file, name)
	if err != nil {
		t.Errorf("%s: AppendFile: %v", name, err)
		return false
	}
	got, err := DecodeFile(data, src, name)
	if err != nil {
		t.Errorf("%s: DecodeFile: %v", name, err)
		return false
	}
	// reflect.DeepEqual is quick and mostly right; cmp tells the
	// difference, and forgives what DeepEqual does not (two equal numbers
	// whose big.Float differ in how they were rounded).
	checkNavigation(t, name, file, got)
	if !reflect.DeepEqual(file.Body, got.Body) || !bytes.Equal(file.Bytes, got.Bytes) {
		if diff := cmp.Diff(file, got, codecCmp...); diff != "" {
			t.Errorf("%s: decode(encode(parse(x))) differs from parse(x) (-parse +decoded):\n%s", name, diff)
		}
	}
	checkSplatItems(t, name, got.Body.(*hclsyntax.Body))
	if !Equal(file, got) {
		t.Errorf("%s: Equal finds the decoded file differs", name)
	}
	return true
}

// checkNavigation wants the Nav of the decoded file to answer as the
// parser's does at every offset of the source (and one past it).
func checkNavigation(t *testing.T, name string, parsed, decoded *hcl.File) {
	t.Helper()
	want, ok := parsed.Nav.(contextNav)
	if !ok {
		t.Fatalf("%s: the parser's Nav, %T, answers no context", name, parsed.Nav)
	}
	got, ok := decoded.Nav.(contextNav)
	if !ok {
		t.Fatalf("%s: the decoded Nav, %T, answers no context", name, decoded.Nav)
	}
	for off := 0; off <= len(parsed.Bytes); off++ {
		if g, w := got.ContextString(off), want.ContextString(off); g != w {
			t.Fatalf("%s: ContextString(%d) = %q, the parser's %q", name, off, g, w)
		}
		if g, w := got.ContextDefRange(off), want.ContextDefRange(off); g != w {
			t.Fatalf("%s: ContextDefRange(%d) = %v, the parser's %v", name, off, g, w)
		}
	}
}

// hasSyntaxError says whether the tree holds an ExprSyntaxError.
func hasSyntaxError(file *hcl.File) bool {
	found := false
	hclsyntax.VisitAll(file.Body.(*hclsyntax.Body), func(n hclsyntax.Node) hcl.Diagnostics {
		if _, ok := n.(*hclsyntax.ExprSyntaxError); ok {
			found = true
		}
		return nil
	})
	return found
}

// checkSplatItems checks that the symbol of every splat expression is the
// very node its Each refers to, as the parser makes it.
func checkSplatItems(t *testing.T, name string, body *hclsyntax.Body) {
	t.Helper()
	hclsyntax.VisitAll(body, func(n hclsyntax.Node) hcl.Diagnostics {
		s, ok := n.(*hclsyntax.SplatExpr)
		if !ok {
			return nil
		}
		found := false
		hclsyntax.VisitAll(s.Each, func(n hclsyntax.Node) hcl.Diagnostics {
			found = found || n == s.Item
			return nil
		})
		if !found {
			t.Errorf("%s: a decoded splat expression's Each does not refer to its Item", name)
		}
		return nil
	})
}

// TestCodecRepository round-trips every HCL file of the repository: the
// .hcl files and those inside the txtar archives of the tests.
func TestCodecRepository(t *testing.T) {
	root := filepath.Join("..", "..")
	encoded := 0
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && strings.HasPrefix(d.Name(), ".") && p != root {
			return filepath.SkipDir
		}
		switch {
		case strings.HasSuffix(p, ".hcl"):
			src, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			if roundTrip(t, p, src) {
				encoded++
			}
		case strings.HasSuffix(p, ".txtar"):
			ar, err := txtar.ParseFile(p)
			if err != nil {
				return err
			}
			for _, f := range ar.Files {
				if strings.HasSuffix(f.Name, ".hcl") && roundTrip(t, p+"/"+f.Name, f.Data) {
					encoded++
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d files round-tripped", encoded)
	if encoded < 500 {
		t.Errorf("only %d files were round-tripped; the walk missed the repository", encoded)
	}
}

// TestCodecSyntax round-trips each kind of node, including those the
// repository's files may not have.
func TestCodecSyntax(t *testing.T) {
	for _, src := range []string{
		``,
		"a = 1\n",
		"a = null\nb = true\nc = false\nd = 1.5e300\ne = 0.1\nf = 12345678901234567890123\n",
		"a = \"x ${b} %{if c}y%{else}z%{endif} %{for k, v in m}${k}=${v}%{endfor}\"\n",
		"a = <<EOT\n  hello ${name}\nEOT\nb = <<-EOT\n    indented\n    ${x}\n  EOT\n",
		"a = f(1, [2, 3]...)\nb = g()\n",
		"a = x ? y : z\nb = !c\nd = -e\nf = (g + h) * i / j % k - l\n",
		"a = a || b && c == d != e < f <= g > h >= i\n",
		"a = [for x in xs : x if x > 1]\nb = {for k, v in m : k => v...}\nc = {for v in m : v => 1}\n",
		"a = x[1]\nb = x[\"k\"]\nc = x.y[0].z\nd = x.0\ne = f(x)[1].y\n",
		"a = x[*].y\nb = x.*.y\nc = x[*][*].y\nd = [x][*].z[0]\ne = x[*]\n",
		"a = { b = 1, \"c\" = 2, (d) = 3, e.f = 4 }\nb = {}\nc = []\n",
		"block {}\nblock \"x\" \"y\" {\n  inner {\n    a = 1\n  }\n}\nother x {\n}\n",
		"a = \"caf\u00e9 \U0001F600\"\nb = \"\\n\\t\\\"\\\\ \\u00e9\"\n",
		"a = x.y.z\nb = \"$${not} %%{interp}\"\n",
	} {
		if !roundTrip(t, "test.hcl", []byte(src)) {
			t.Errorf("%q: has diagnostics", src)
		}
	}
}

// TestCodecNotEncoded checks that a tree with a syntax error is refused.
func TestCodecNotEncoded(t *testing.T) {
	file, diags := hclsyntax.ParseConfig([]byte("a = 1 +\nb = (\n"), "bad.hcl", hcl.InitialPos)
	if !diags.HasErrors() {
		t.Fatal("no error")
	}
	if _, err := AppendFile(nil, file, "bad.hcl"); err == nil && hasSyntaxError(file) {
		t.Error("AppendFile encoded an hclsyntax.ExprSyntaxError")
	}
	good, _ := hclsyntax.ParseConfig([]byte("a = 1\n"), "good.hcl", hcl.InitialPos)
	if _, err := AppendFile(nil, good, "other.hcl"); err == nil {
		t.Error("AppendFile encoded ranges of another file")
	}
}

// TestCodecCorrupt decodes every truncation and many corruptions of an
// encoding: each is an error or a tree, never a panic.
func TestCodecCorrupt(t *testing.T) {
	src := []byte("a = x[*].y\nb = \"${c} d\"\nblock \"l\" {\n  e = {for k, v in m : k => v if v}\n  f = g(1, -2.5, null)\n}\n")
	file, diags := hclsyntax.ParseConfig(src, "c.hcl", hcl.InitialPos)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	data, err := AppendFile(nil, file, "c.hcl")
	if err != nil {
		t.Fatal(err)
	}
	for n := 0; n < len(data); n++ {
		if _, err := DecodeFile(data[:n], src, "c.hcl"); err == nil {
			t.Errorf("a truncation to %d of %d bytes decoded", n, len(data))
		}
	}
	if _, err := DecodeFile(append(data[:len(data):len(data)], 0), src, "c.hcl"); err == nil {
		t.Error("an encoding with a byte more decoded")
	}
	for i := range data {
		for _, b := range []byte{0, 1, 0x7f, 0x80, 0xff, data[i] ^ 0x55} {
			bad := append([]byte(nil), data...)
			bad[i] = b
			DecodeFile(bad, src, "c.hcl") // must not panic
		}
	}
	bad := append([]byte(nil), data...)
	bad[0] = codecVersion + 1
	if _, err := DecodeFile(bad, src, "c.hcl"); err == nil {
		t.Error("an encoding of another version decoded")
	}
}

// TestDecoderInt holds the decoder's reading of signed varints, one and
// two bytes inline, to encoding/binary's.
func TestDecoderInt(t *testing.T) {
	for _, v := range []int64{0, 1, -1, 63, -64, 64, -65, 100, -100, 8191, -8192, 8192, -8193, 1 << 20, -(1 << 40), math.MaxInt64, math.MinInt64} {
		data := binary.AppendVarint(nil, v)
		data = append(data, 0x2a) // the next thing, which must be left
		d := &decoder{data: data}
		if got := d.int(); int64(got) != v || d.err != nil || d.pos != len(data)-1 {
			t.Errorf("int of %x = %d (pos %d, err %v), want %d (pos %d)", data, got, d.pos, d.err, v, len(data)-1)
		}
	}
	for _, data := range [][]byte{{}, {0x80}, {0xff, 0xff}} {
		d := &decoder{data: data}
		if d.int(); d.err == nil {
			t.Errorf("int of %x did not fail", data)
		}
	}
}

// TestParseNumber holds the decoder's reading of numbers, integers set
// directly, to big.ParseFloat's at cty's precision.
func TestParseNumber(t *testing.T) {
	for _, text := range []string{
		"0", "1", "7", "42", "007", "65535", "4294967296", "999999999999999999",
		"1000000000000000000", "12345678901234567890123", "-1", "-0", "+5",
		"1.5", "0.1", "1e+21", "1e-07", "6.02214076e+23", "", "x", "1x", "--1",
	} {
		want, _, werr := big.ParseFloat(text, 10, 512, big.ToNearestEven)
		got, ok := parseNumber(text)
		if ok != (werr == nil) {
			t.Errorf("parseNumber(%q): ok %v, ParseFloat's error %v", text, ok, werr)
			continue
		}
		if !ok {
			continue
		}
		if got.Cmp(want) != 0 || got.Prec() != want.Prec() || got.Mode() != want.Mode() || got.Acc() != want.Acc() ||
			got.Signbit() != want.Signbit() || got.MinPrec() != want.MinPrec() || got.Text('g', -1) != want.Text('g', -1) {
			t.Errorf("parseNumber(%q) = %s (prec %d, %v, %v), want %s (prec %d, %v, %v)", text,
				got.Text('g', -1), got.Prec(), got.Mode(), got.Acc(), want.Text('g', -1), want.Prec(), want.Mode(), want.Acc())
		}
		if !cty.NumberVal(got).RawEquals(cty.NumberVal(want)) {
			t.Errorf("parseNumber(%q): cty values differ", text)
		}
	}
}
