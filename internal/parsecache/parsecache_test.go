package parsecache

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/nodegen/nodegen/internal/parsediag"
	"github.com/nodegen/nodegen/internal/syntaxcodec"
)

const module = `options "svc" {
  option "port" {
    type    = port
    default = 8080
  }
}

config "svc" {
  url  = "http://${config.svc.host}:${config.svc.port}"
  tags = [for t in ["a", "b"] : upper(t) if t != "b"]
}
`

// entries lists the cache entries in dir, temporary files left out.
func entries(t *testing.T, dir string) []string {
	t.Helper()
	names, err := filepath.Glob(filepath.Join(dir, "[0-9a-f]*"))
	if err != nil {
		t.Fatal(err)
	}
	return names
}

// parseSame parses src through c and checks that the result is what
// parsediag.Parse makes of it.
func parseSame(t *testing.T, c *Cache, src, filename string) {
	t.Helper()
	got, gotDiags := c.Parse([]byte(src), filename)
	want, wantDiags := parsediag.Parse([]byte(src), filename)
	if !syntaxcodec.Equal(got, want) {
		t.Errorf("%s: the cache's tree differs from the parser's", filename)
	}
	if gotDiags.Error() != wantDiags.Error() {
		t.Errorf("%s: diagnostics %q, want %q", filename, gotDiags.Error(), wantDiags.Error())
	}
}

func TestParseCaches(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "build")
	c := New(dir)
	parseSame(t, c, module, "a.hcl")
	if s := c.Stats(); s != (Stats{Hits: 0, Written: 1}) {
		t.Fatalf("first parse: %+v, want one entry written", s)
	}
	if n := len(entries(t, dir)); n != 1 {
		t.Fatalf("%d entries, want 1", n)
	}
	// Another process (another Cache) decodes it, under another name.
	c2 := New(dir)
	parseSame(t, c2, module, "other/b.hcl")
	if s := c2.Stats(); s != (Stats{Hits: 1, Written: 0}) {
		t.Fatalf("second parse: %+v, want one hit", s)
	}
}

func TestParseDoesNotCacheDiagnostics(t *testing.T) {
	dir := t.TempDir()
	c := New(dir)
	for _, src := range []string{"a = \n", "config {\n  \"a.b\" = 1\n}\n", "x = \"unterminated\n"} {
		parseSame(t, c, src, "bad.hcl")
		parseSame(t, c, src, "bad.hcl")
	}
	if n := len(entries(t, dir)); n != 0 {
		t.Errorf("%d entries for files with errors, want none", n)
	}
}

// TestParseBadEntries spoils the entry of a file in every way a cache
// can be spoilt: each is ignored, the file parsed, and the entry written
// again.
func TestParseBadEntries(t *testing.T) {
	dir := t.TempDir()
	first := New(dir)
	first.Parse([]byte(module), "m.hcl")
	first.Wait()
	names := entries(t, dir)
	if len(names) != 1 {
		t.Fatalf("%d entries, want 1", len(names))
	}
	good, err := os.ReadFile(names[0])
	if err != nil {
		t.Fatal(err)
	}
	other := New(t.TempDir())
	other.Parse([]byte("a = 1\n"), "o.hcl")
	other.Wait()
	otherEntry, err := os.ReadFile(entries(t, other.dir)[0])
	if err != nil {
		t.Fatal(err)
	}
	flip := func(i int) []byte {
		b := append([]byte(nil), good...)
		b[i] ^= 0x20
		return b
	}
	for name, data := range map[string][]byte{
		"empty":                 {},
		"truncated header":      good[:10],
		"truncated tree":        good[:len(good)-7],
		"another magic":         flip(3),
		"another format":        append([]byte("nodegen parse cache 0\n"), good[len(magic):]...),
		"a flipped checksum":    flip(len(magic)),
		"a flipped source hash": flip(len(magic) + 4),
		"a flipped tree byte":   flip(len(good) - 20),
		"another file's entry":  otherEntry,
		"garbage":               []byte("not an entry at all, but long enough to have a header of the size wanted"),
	} {
		t.Run(name, func(t *testing.T) {
			if err := os.WriteFile(names[0], data, 0o600); err != nil {
				t.Fatal(err)
			}
			c := New(dir)
			parseSame(t, c, module, "m.hcl")
			if s := c.Stats(); s != (Stats{Hits: 0, Written: 1}) {
				t.Errorf("%+v, want the entry ignored and written again", s)
			}
			again, err := os.ReadFile(names[0])
			if err != nil || string(again) != string(good) {
				t.Errorf("the entry was not written again")
			}
		})
	}
}

// TestParseUnwritable checks that a cache that cannot be written parses
// every time and says nothing.
func TestParseUnwritable(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	c := New(filepath.Join(file, "cache")) // under a regular file
	parseSame(t, c, module, "m.hcl")
	parseSame(t, c, module, "m.hcl")
	if s := c.Stats(); s != (Stats{}) {
		t.Errorf("%+v, want nothing cached", s)
	}
}

func TestParseNil(t *testing.T) {
	var c *Cache
	parseSame(t, c, module, "m.hcl")
	if s := c.Stats(); s != (Stats{}) {
		t.Errorf("%+v from a nil cache", s)
	}
}

// TestParseConcurrent parses the same files from many goroutines through
// two caches of one directory, as concurrent runs do.
func TestParseConcurrent(t *testing.T) {
	dir := t.TempDir()
	caches := []*Cache{New(dir), New(dir)}
	srcs := []string{module, "a = 1\n", "b = [1, 2]\n"}
	var wg sync.WaitGroup
	for i := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range 10 {
				parseSame(t, caches[i%2], srcs[(i+j)%len(srcs)], "f.hcl")
			}
		}()
	}
	wg.Wait()
	for _, c := range caches {
		c.Wait()
	}
	if n := len(entries(t, dir)); n != len(srcs) {
		t.Errorf("%d entries, want %d", n, len(srcs))
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".entry-*")); len(left) != 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

func TestOpen(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	t.Setenv(EnvVar, "off")
	if c := Open(); c != nil {
		t.Errorf("NODEGEN_CACHE=off: Open returned a cache in %s", c.dir)
	}
	t.Setenv(EnvVar, "")
	c := Open()
	if c == nil {
		t.Fatal("Open returned no cache (no build ID?)")
	}
	if filepath.Dir(filepath.Dir(c.dir)) != filepath.Join(os.Getenv("XDG_CACHE_HOME"), "nodegen") {
		t.Errorf("cache in %s, not under $XDG_CACHE_HOME/nodegen/parse", c.dir)
	}
}

// TestStaleBuildsRemoved checks that the first entry of a build removes
// the directories of other builds unchanged for a week, and keeps the
// others.
func TestStaleBuildsRemoved(t *testing.T) {
	parent := t.TempDir()
	old, recent := filepath.Join(parent, "old"), filepath.Join(parent, "recent")
	for _, d := range []string{old, recent} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	weekAgo := time.Now().Add(-staleAfter - time.Hour)
	if err := os.Chtimes(old, weekAgo, weekAgo); err != nil {
		t.Fatal(err)
	}
	c := New(filepath.Join(parent, "current"))
	c.Parse([]byte(module), "m.hcl")
	c.Wait()
	if _, err := os.Stat(old); !os.IsNotExist(err) {
		t.Errorf("the stale build's directory is still there (%v)", err)
	}
	if _, err := os.Stat(recent); err != nil {
		t.Errorf("the recent build's directory was removed: %v", err)
	}
}

// TestStaleTempsRemoved checks that the first entry a run writes removes
// the temporary files of a run that exited an hour ago before it finished
// writing, and keeps a recent one (another run's, being written).
func TestStaleTempsRemoved(t *testing.T) {
	dir := t.TempDir()
	old, recent := filepath.Join(dir, tempPrefix+"old"), filepath.Join(dir, tempPrefix+"recent")
	for _, f := range []string{old, recent} {
		if err := os.WriteFile(f, []byte("partial"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	hourAgo := time.Now().Add(-2 * time.Hour)
	if err := os.Chtimes(old, hourAgo, hourAgo); err != nil {
		t.Fatal(err)
	}
	c := New(dir)
	c.Parse([]byte(module), "m.hcl")
	c.Wait()
	if _, err := os.Stat(old); !os.IsNotExist(err) {
		t.Errorf("the stale temporary file is still there (%v)", err)
	}
	if _, err := os.Stat(recent); err != nil {
		t.Errorf("the recent temporary file was removed: %v", err)
	}
}

func TestBuildID(t *testing.T) {
	id, ok := buildID()
	if !ok || id == "" {
		t.Fatalf("no build ID for the test executable")
	}
}

func TestEntryName(t *testing.T) {
	sum := sha256.Sum256([]byte("a = 1\n"))
	for _, dir := range []string{"/var/cache/nodegen/parse/x", "rel/dir", "trailing/", "/", "", ".", "a/./b/../c", "//double"} {
		want := filepath.Join(dir, hex.EncodeToString(sum[:]))
		if got := New(dir).entryName(sum); got != want {
			t.Errorf("New(%q).entryName = %q, want %q", dir, got, want)
		}
	}
}
