package assetlock_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/hashicorp/hcl/v2"

	"github.com/nodegen/nodegen/internal/assetlock"
)

var (
	hashA = strings.Repeat("a", 128)
	hashB = strings.Repeat("b", 128)
)

// TestParseErrors gives each mistake of a lock file and wants its
// diagnostic at FILE:LINE:COLUMN.
func TestParseErrors(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []string // "LINE:COL: summary: detail fragment"
	}{
		{"syntax", "asset \"https://x/a\" {\n  size = \n}\n", []string{"2:"}},
		{"top-level argument", "version = 1\n", []string{"1:1: Unsupported argument: not the argument \"version\""}},
		{"other block", "provider \"x\" {}\n", []string{"1:1: Unsupported block type: not \"provider\""}},
		{"no label", "asset {\n  size = 1\n  sha512 = \"" + hashA + "\"\n}\n", []string{"1:1: Wrong number of labels"}},
		{"two labels", "asset \"https://x/a\" \"b\" {\n}\n", []string{"1:21: Wrong number of labels"}},
		{"bad URL", "asset \"ftp://x/a\" {\n  size = 1\n  sha512 = \"" + hashA + "\"\n}\n", []string{"1:7: Invalid asset URL: is not an https://, http:// or file:/// URL"}},
		{"URL with a space", "asset \"https://x/a b\" {\n  size = 1\n  sha512 = \"" + hashA + "\"\n}\n", []string{"1:7: Invalid asset URL: contains a space"}},
		{"missing size", "asset \"https://x/a\" {\n  sha512 = \"" + hashA + "\"\n}\n", []string{"1:21: Missing required argument: has no size"}},
		{"missing both", "asset \"https://x/a\" {\n}\n", []string{"1:21: Missing required argument: has no size", "1:21: Missing required argument: has no sha512"}},
		{"negative size", "asset \"https://x/a\" {\n  size = -1\n  sha512 = \"" + hashA + "\"\n}\n", []string{"2:10: Invalid size: not -1"}},
		{"fractional size", "asset \"https://x/a\" {\n  size = 1.5\n  sha512 = \"" + hashA + "\"\n}\n", []string{"2:10: Invalid size: not 1.5"}},
		{"size as a string", "asset \"https://x/a\" {\n  size = \"1\"\n  sha512 = \"" + hashA + "\"\n}\n", []string{"2:10: Wrong type: is a number"}},
		{"size from a reference", "asset \"https://x/a\" {\n  size = local.n\n  sha512 = \"" + hashA + "\"\n}\n", []string{"2:10: Not a constant"}},
		{"short sha512", "asset \"https://x/a\" {\n  size = 1\n  sha512 = \"abc\"\n}\n", []string{"3:12: Invalid sha512: 128 lower-case hex digits; this is \"abc\""}},
		{"upper-case sha512", "asset \"https://x/a\" {\n  size = 1\n  sha512 = \"" + strings.ToUpper(hashA) + "\"\n}\n", []string{"3:12: Invalid sha512"}},
		{"template sha512", "asset \"https://x/a\" {\n  size = 1\n  sha512 = \"${x}\"\n}\n", []string{"3:12: Not a constant"}},
		{"unknown argument", "asset \"https://x/a\" {\n  size = 1\n  sha512 = \"" + hashA + "\"\n  sha256 = \"x\"\n}\n", []string{"4:3: Unsupported argument: not \"sha256\""}},
		{"nested block", "asset \"https://x/a\" {\n  size = 1\n  sha512 = \"" + hashA + "\"\n  hashes {}\n}\n", []string{"4:3: Unsupported block type: and no blocks"}},
		{"duplicate URL", "asset \"https://x/a\" {\n  size = 1\n  sha512 = \"" + hashA + "\"\n}\nasset \"https://x/a\" {\n  size = 2\n  sha512 = \"" + hashB + "\"\n}\n",
			[]string{"5:7: Duplicate asset: locked already at nodegen.lock.hcl:1:7"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, diags := assetlock.Parse([]byte(tt.src), "nodegen.lock.hcl")
			if !diags.HasErrors() {
				t.Fatalf("no error")
			}
			var got []string
			for _, d := range diags {
				if d.Subject == nil || d.Subject.Filename != "nodegen.lock.hcl" {
					t.Errorf("diagnostic without a location in the file: %s", d)
					continue
				}
				got = append(got, fmt.Sprintf("%d:%d: %s: %s", d.Subject.Start.Line, d.Subject.Start.Column, d.Summary, d.Detail))
			}
			if len(got) != len(tt.want) {
				t.Fatalf("got %d diagnostics, want %d:\n%s", len(got), len(tt.want), strings.Join(got, "\n"))
			}
			for i, w := range tt.want {
				pos, rest, _ := strings.Cut(w, ": ")
				summary, fragment, _ := strings.Cut(rest, ": ")
				if !strings.HasPrefix(got[i], pos) || (summary != "" && !strings.Contains(got[i], summary)) || !strings.Contains(got[i], fragment) {
					t.Errorf("diagnostic %d:\n%s\nwant %s", i, got[i], w)
				}
			}
		})
	}
}

// TestRoundTrip formats entries given in any order and reads them back:
// sorted by URL, the same bytes whatever the order, and URLs that HCL
// must escape kept as they are.
func TestRoundTrip(t *testing.T) {
	entries := []assetlock.Entry{
		{URL: "https://dl.k8s.io/v1.37.2/kubernetes-src.tar.gz", Size: 42, SHA512: hashB},
		{URL: "file:///srv/mirror/a%20b/${x}/%25{y}/\"q\"\\", Size: 0, SHA512: hashA},
		{URL: "https://dl.k8s.io/v1.37.2/kubernetes-server-linux-amd64.tar.gz", Size: 1 << 40, SHA512: hashA},
	}
	data := assetlock.New(entries).Format()
	reversed := []assetlock.Entry{entries[2], entries[1], entries[0]}
	if again := assetlock.New(reversed).Format(); string(again) != string(data) {
		t.Errorf("the order of the entries changed the file:\n%s\n---\n%s", data, again)
	}
	f, diags := assetlock.Parse(data, "nodegen.lock.hcl")
	if diags.HasErrors() {
		t.Fatalf("%s\n%s", diags, data)
	}
	want := assetlock.New(entries).Entries
	if d := cmp.Diff(want, f.Entries, cmpopts.IgnoreTypes(hcl.Range{})); d != "" {
		t.Errorf("read back (-want +got):\n%s\n%s", d, data)
	}
	if again := f.Format(); string(again) != string(data) {
		t.Errorf("formatting what was read changed the file:\n%s\n---\n%s", data, again)
	}
	if !strings.HasPrefix(string(data), "# nodegen.lock.hcl") || !strings.HasSuffix(string(data), "}\n") {
		t.Errorf("file:\n%s", data)
	}
	if e, ok := f.Lookup(entries[0].URL); !ok || e.Size != 42 || e.SizeRange.Start.Line == 0 {
		t.Errorf("Lookup: %+v %v", e, ok)
	}
	if _, ok := f.Lookup("https://nowhere/"); ok {
		t.Errorf("Lookup found an entry that is not there")
	}
}
