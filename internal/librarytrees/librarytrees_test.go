package librarytrees

import (
	"bytes"
	"os"
	"testing"

	"github.com/nodegen/nodegen/eval"
	"github.com/nodegen/nodegen/internal/parsecache"
	"github.com/nodegen/nodegen/internal/parsediag"
	"github.com/nodegen/nodegen/internal/syntaxcodec"
	"github.com/nodegen/nodegen/modules"
)

// TestBundleUpToDate fails when library.bundle is not what Build makes of
// the library now (a module or the parser changed since); NODEGEN_UPDATE=1
// writes it again.
func TestBundleUpToDate(t *testing.T) {
	want, err := Build(modules.FS(), eval.LibraryFileName(""))
	if err != nil {
		t.Fatal(err)
	}
	if os.Getenv("NODEGEN_UPDATE") != "" {
		if err := os.WriteFile("library.bundle", want, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if !bytes.Equal(bundle, want) {
		t.Fatal("library.bundle is stale: run NODEGEN_UPDATE=1 go test ./internal/librarytrees/")
	}
}

// TestBundleTrees checks that the bundle gives every library module the
// tree the parser makes of it, and nothing for a changed source.
func TestBundleTrees(t *testing.T) {
	b := Bundle()
	if b == nil {
		t.Fatal("the bundle cannot be read")
	}
	c := parsecache.New(t.TempDir()).WithBundle(b)
	files, err := Files(modules.FS(), eval.LibraryFileName(""))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		got, diags := c.Parse(f.Src, f.Name)
		want, _ := parsediag.Parse(f.Src, f.Name)
		if len(diags) > 0 || !syntaxcodec.Equal(got, want) {
			t.Errorf("%s: the bundle's tree differs from the parser's (%s)", f.Name, diags.Error())
		}
	}
	if s := c.Stats(); s.Bundled != int64(len(files)) || b.Len() != len(files) || s.Hits+s.Written != 0 {
		t.Errorf("%d modules, %d in the bundle; stats %+v", len(files), b.Len(), s)
	}

	// A changed source is not the bundle's.
	f := files[0]
	changed := append([]byte("# changed\n"), f.Src...)
	c.Parse(changed, f.Name)
	if c.Stats().Bundled != int64(len(files)) {
		t.Errorf("a changed %s was decoded from the bundle", f.Name)
	}
}
