package parsecache

import (
	"strings"
	"testing"

	"github.com/nodegen/nodegen/internal/parsediag"
	"github.com/nodegen/nodegen/internal/syntaxcodec"
)

func TestBundle(t *testing.T) {
	other := "option \"x\" { type = int }\n"
	data, err := AppendBundle(nil, []BundleFile{{"lib/a.hcl", []byte(module)}, {"lib/b.hcl", []byte(other)}})
	if err != nil {
		t.Fatal(err)
	}
	b, err := ReadBundle(data)
	if err != nil {
		t.Fatal(err)
	}
	if b.Len() != 2 {
		t.Errorf("Len = %d, want 2", b.Len())
	}
	c := New(t.TempDir()).WithBundle(b)
	tests := []struct {
		name, filename, src string
		bundled             bool
	}{
		{"the bundle's", "lib/a.hcl", module, true},
		{"another of the bundle's", "lib/b.hcl", other, true},
		{"a source the bundle holds under another name", "lib/c.hcl", module, false},
		{"a changed source", "lib/a.hcl", strings.Replace(module, "8080", "8081", 1), false},
		{"a longer source", "lib/b.hcl", other + "\n", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := c.Stats().Bundled
			parseSame(t, c, tt.src, tt.filename)
			if got := c.Stats().Bundled - before; got != map[bool]int64{true: 1}[tt.bundled] {
				t.Errorf("%d decoded from the bundle, want bundled %v", got, tt.bundled)
			}
		})
	}
}

func TestAppendBundleRefusesBadFiles(t *testing.T) {
	if _, err := AppendBundle(nil, []BundleFile{{"bad.hcl", []byte("option \"x\" {\n")}}); err == nil || !strings.Contains(err.Error(), "bad.hcl") {
		t.Errorf("a file with an error: %v, want an error naming it", err)
	}
}

// TestReadBundleDamaged checks that every truncation of a bundle, and a
// bundle with bytes after its end, is refused rather than half read.
func TestReadBundleDamaged(t *testing.T) {
	data, err := AppendBundle(nil, []BundleFile{{"a.hcl", []byte(module)}})
	if err != nil {
		t.Fatal(err)
	}
	for n := range len(data) {
		if _, err := ReadBundle(data[:n]); err == nil {
			t.Fatalf("a bundle cut to %d of %d bytes was read", n, len(data))
		}
	}
	if _, err := ReadBundle(append(data, 0)); err == nil {
		t.Error("a bundle with a byte after its end was read")
	}
	var nilBundle *Bundle
	if _, ok := nilBundle.parse([]byte(module), "a.hcl"); ok || nilBundle.Len() != 0 {
		t.Error("a nil bundle holds something")
	}
}

// TestBundleDamagedTree checks that a tree that does not decode is
// parsed instead.
func TestBundleDamagedTree(t *testing.T) {
	data, err := AppendBundle(nil, []BundleFile{{"a.hcl", []byte(module)}})
	if err != nil {
		t.Fatal(err)
	}
	data[len(data)-1] ^= 0xff // the tree's last byte
	b, err := ReadBundle(data)
	if err != nil {
		t.Fatal(err)
	}
	c := New(t.TempDir()).WithBundle(b)
	got, _ := c.Parse([]byte(module), "a.hcl")
	want, _ := parsediag.Parse([]byte(module), "a.hcl")
	if !syntaxcodec.Equal(got, want) || c.Stats().Bundled != 0 {
		t.Errorf("a damaged tree: stats %+v", c.Stats())
	}
}

// TestBundled checks the cache NODEGEN_CACHE=off leaves: the bundle's
// trees for the sources they were made from, every other file parsed, and
// nothing written anywhere.
func TestBundled(t *testing.T) {
	data, err := AppendBundle(nil, []BundleFile{{"lib/a.hcl", []byte(module)}})
	if err != nil {
		t.Fatal(err)
	}
	b, err := ReadBundle(data)
	if err != nil {
		t.Fatal(err)
	}
	c := Bundled(b)
	if !c.Off() || !(*Cache)(nil).Off() || New(t.TempDir()).Off() {
		t.Errorf("Off: Bundled %v, nil %v, New %v; want true, true, false", c.Off(), (*Cache)(nil).Off(), New(t.TempDir()).Off())
	}
	parseSame(t, c, module, "lib/a.hcl")
	parseSame(t, c, module, "host.hcl")
	parseSame(t, c, module, "host.hcl")
	if s := c.Stats(); s != (Stats{Bundled: 1}) {
		t.Errorf("%+v, want one file from the bundle and nothing cached", s)
	}
	if c.dir != "" {
		t.Errorf("a bundled cache has the directory %q", c.dir)
	}
}
