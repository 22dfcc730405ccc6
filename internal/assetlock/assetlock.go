// Package assetlock reads and writes nodegen.lock.hcl, the dependency lock
// file of a directory of host files, as Terraform's .terraform.lock.hcl is
// for providers: for each asset (environment.assets) whose hash neither
// the library nor a host pins, its URL, size and sha512, as `nodegen lock`
// downloaded it. The file is HCL, sorted by URL and written the same byte
// for byte from the same entries, to be committed beside the host files:
//
//	asset "https://dl.k8s.io/v1.37.2/kubernetes-node-linux-amd64.tar.gz" {
//	  size   = 123456789
//	  sha512 = "..."
//	}
//
// Parse reads it with a file:line:col diagnostic for every mistake (Read
// reads it from a file system first, as a bounded regular file); Format
// writes it; Definitions turns its entries into the definitions of
// environment.assetLock, each located in the lock file, and AddTo adds
// them to an evaluation of host files (nodegen eval, build, switch,
// deploy, the language server), so that an asset without a hash of its
// own takes its URL's sha512 from it.
package assetlock

import (
	"fmt"
	"math/big"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/hashicorp/hcl/v2/hclwrite"
	"github.com/zclconf/go-cty/cty"

	"github.com/nodegen/nodegen/internal/assetfetch"
	"github.com/nodegen/nodegen/internal/parsediag"
)

// FileName is the lock file's name, in the directory of the host files.
const FileName = "nodegen.lock.hcl"

// header opens every lock file that Format writes.
const header = `# nodegen.lock.hcl: the hashes of the assets that neither the library nor
# the hosts pin, as "nodegen lock" downloaded them. Commit it beside the host
# files; "nodegen lock HOST.hcl" adds what is missing, and
# "nodegen lock --check HOST.hcl" checks it against the downloads.
`

// Entry is the lock of one asset's download.
type Entry struct {
	// URL is the asset's url (before any mirror rewrites it).
	URL string
	// Size is the download's size in bytes, SHA512 its lower-case hex
	// sha512.
	Size   int64
	SHA512 string
	// Range is the entry's block in the file it was read from, and
	// LabelRange, SizeRange and SHA512Range those of its URL and
	// values; zero for an entry not read from a file.
	Range, LabelRange, SizeRange, SHA512Range hcl.Range
}

// File is a lock file's entries, sorted by URL, each URL once.
type File struct {
	Entries []Entry
	// Source is the file's text as read (nil for a new file), for the
	// snippets of diagnostics.
	Source *hcl.File
}

// Lookup returns the entry of a URL.
func (f *File) Lookup(url string) (Entry, bool) {
	i := sort.Search(len(f.Entries), func(i int) bool { return f.Entries[i].URL >= url })
	if i < len(f.Entries) && f.Entries[i].URL == url {
		return f.Entries[i], true
	}
	return Entry{}, false
}

// New returns a lock file of entries, sorted by URL; a later entry of a
// URL replaces an earlier one.
func New(entries []Entry) *File {
	byURL := map[string]Entry{}
	for _, e := range entries {
		byURL[e.URL] = e
	}
	f := &File{Entries: make([]Entry, 0, len(byURL))}
	for _, e := range byURL {
		f.Entries = append(f.Entries, e)
	}
	sort.Slice(f.Entries, func(i, j int) bool { return f.Entries[i].URL < f.Entries[j].URL })
	return f
}

// Format renders the lock file: the header, then one asset block per
// entry in URL order, with hclwrite's formatting. The same entries give
// the same bytes.
func (f *File) Format() []byte {
	out := hclwrite.NewEmptyFile()
	body := out.Body()
	for _, e := range f.Entries {
		body.AppendNewline()
		b := body.AppendNewBlock("asset", []string{e.URL}).Body()
		b.SetAttributeValue("size", cty.NumberIntVal(e.Size))
		b.SetAttributeValue("sha512", cty.StringVal(e.SHA512))
	}
	return append([]byte(header), hclwrite.Format(out.Bytes())...)
}

// Parse reads a lock file's text. Every mistake is a diagnostic located
// in the file: a block or argument a lock file does not have, a value
// that is not a constant of its type, a URL twice. Entries with mistakes
// are left out.
func Parse(src []byte, filename string) (*File, hcl.Diagnostics) {
	file, diags := parsediag.Parse(src, filename)
	if diags.HasErrors() {
		return &File{Source: file}, diags
	}
	body := file.Body.(*hclsyntax.Body)
	for _, a := range sortedAttrs(body.Attributes) {
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Unsupported argument",
			Detail:   fmt.Sprintf("A lock file holds asset blocks only, not the argument %q.", a.Name),
			Subject:  a.NameRange.Ptr(),
		})
	}
	var entries []Entry
	seen := map[string]hcl.Range{}
	for _, b := range body.Blocks {
		e, d := parseAsset(b)
		diags = append(diags, d...)
		if d.HasErrors() {
			continue
		}
		if prev, ok := seen[e.URL]; ok {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Duplicate asset",
				Detail:   fmt.Sprintf("The asset %q is locked already at %s:%d:%d; a URL has one entry.", e.URL, prev.Filename, prev.Start.Line, prev.Start.Column),
				Subject:  e.LabelRange.Ptr(),
			})
			continue
		}
		seen[e.URL] = e.LabelRange
		entries = append(entries, e)
	}
	f := New(entries)
	f.Source = file
	return f, diags
}

// parseAsset reads one asset block.
func parseAsset(b *hclsyntax.Block) (Entry, hcl.Diagnostics) {
	bad := func(subject hcl.Range, summary, format string, args ...any) hcl.Diagnostics {
		return hcl.Diagnostics{{Severity: hcl.DiagError, Summary: summary, Detail: fmt.Sprintf(format, args...), Subject: subject.Ptr()}}
	}
	if b.Type != "asset" {
		return Entry{}, bad(b.TypeRange, "Unsupported block type", "A lock file holds asset blocks only, not %q.", b.Type)
	}
	if len(b.Labels) != 1 {
		r := b.TypeRange
		if len(b.LabelRanges) > 1 {
			r = b.LabelRanges[1]
		}
		return Entry{}, bad(r, "Wrong number of labels", "An asset block has one label, the asset's URL: asset \"https://...\" { ... }.")
	}
	e := Entry{URL: b.Labels[0], Range: b.Range(), LabelRange: b.LabelRanges[0]}
	var diags hcl.Diagnostics
	if why := assetfetch.CheckURL(e.URL); why != "" {
		diags = append(diags, bad(e.LabelRange, "Invalid asset URL", "The URL %q %s.", e.URL, why)...)
	}
	for _, inner := range b.Body.Blocks {
		diags = append(diags, bad(inner.TypeRange, "Unsupported block type", "An asset block has the arguments size and sha512, and no blocks.")...)
	}
	for _, a := range sortedAttrs(b.Body.Attributes) {
		switch a.Name {
		case "size":
			e.SizeRange = a.Expr.Range()
			n, d := constant(a, cty.Number)
			diags = append(diags, d...)
			if d.HasErrors() {
				continue
			}
			bf := n.AsBigFloat()
			i, acc := bf.Int64()
			if !bf.IsInt() || acc != big.Exact || i < 0 {
				diags = append(diags, bad(e.SizeRange, "Invalid size", "The size of a download is a whole number of bytes, 0 or more, not %s.", bf.Text('g', -1))...)
				continue
			}
			e.Size = i
		case "sha512":
			e.SHA512Range = a.Expr.Range()
			s, d := constant(a, cty.String)
			diags = append(diags, d...)
			if d.HasErrors() {
				continue
			}
			e.SHA512 = s.AsString()
			if !isLowerHex(e.SHA512, 128) {
				diags = append(diags, bad(e.SHA512Range, "Invalid sha512", "A sha512 is 128 lower-case hex digits; this is %q.", e.SHA512)...)
			}
		default:
			diags = append(diags, bad(a.NameRange, "Unsupported argument", "An asset block has the arguments size and sha512, not %q.", a.Name)...)
		}
	}
	for _, want := range []string{"size", "sha512"} {
		if b.Body.Attributes[want] == nil {
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Missing required argument",
				Detail:   fmt.Sprintf("The asset %q has no %s; every asset block has size and sha512.", e.URL, want),
				Subject:  b.OpenBraceRange.Ptr(),
				Context:  b.Range().Ptr(),
			})
		}
	}
	return e, diags
}

// constant evaluates an argument that must be a constant of type t.
func constant(a *hclsyntax.Attribute, t cty.Type) (cty.Value, hcl.Diagnostics) {
	kind := map[cty.Type]string{cty.Number: "a number", cty.String: "a quoted string"}[t]
	v, diags := a.Expr.Value(nil)
	if diags.HasErrors() {
		return cty.NilVal, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Not a constant",
			Detail:   fmt.Sprintf("The %s of a lock entry is %s, written out: no references, functions or templates.", a.Name, kind),
			Subject:  a.Expr.Range().Ptr(),
		}}
	}
	if v.IsNull() || !v.IsKnown() || !v.Type().Equals(t) {
		return cty.NilVal, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Wrong type",
			Detail:   fmt.Sprintf("The %s of a lock entry is %s.", a.Name, kind),
			Subject:  a.Expr.Range().Ptr(),
		}}
	}
	return v, nil
}

func sortedAttrs(m hclsyntax.Attributes) []*hclsyntax.Attribute {
	out := make([]*hclsyntax.Attribute, 0, len(m))
	for _, a := range m {
		out = append(out, a)
	}
	sort.Slice(out, func(i, j int) bool {
		return out[i].SrcRange.Start.Byte < out[j].SrcRange.Start.Byte
	})
	return out
}

// isLowerHex reports whether s is n lower-case hexadecimal digits.
func isLowerHex(s string, n int) bool {
	return len(s) == n && strings.Trim(s, "0123456789abcdef") == ""
}
