package parsecache

import (
	"crypto/sha256"
	"os"
	"path/filepath"
	"testing"
)

// TestFacts stores a fact and reads it back, in another Cache of the
// same directory; a damaged fact, one under another key, and any fact of
// a cache without a directory are none.
func TestFacts(t *testing.T) {
	dir := t.TempDir()
	key := sha256.Sum256([]byte("library"))
	c := New(dir)
	if _, ok := c.Fact(key); ok {
		t.Fatal("a fact before any was stored")
	}
	c.PutFact(key, []byte("inert: a, b"))
	c.Wait()
	if s := c.Stats(); s.Written != 0 {
		t.Errorf("Stats counts a fact as an entry written: %+v", s)
	}
	data, ok := New(dir).Fact(key)
	if !ok || string(data) != "inert: a, b" {
		t.Fatalf("Fact = %q, %v", data, ok)
	}
	if _, ok := New(dir).Fact(sha256.Sum256([]byte("other"))); ok {
		t.Error("a fact under a key never stored")
	}
	if _, ok := Bundled(nil).Fact(key); ok {
		t.Error("a fact of a cache without a directory")
	}
	var nilCache *Cache
	nilCache.PutFact(key, []byte("x"))
	if _, ok := nilCache.Fact(key); ok {
		t.Error("a fact of a nil cache")
	}
	name := c.factName(key)
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	b[len(b)-1] ^= 1
	if err := os.WriteFile(name, b, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, ok := New(dir).Fact(key); ok {
		t.Error("a damaged fact read as whole")
	}
	if err := os.WriteFile(name, b[:3], 0o600); err != nil {
		t.Fatal(err)
	}
	if _, ok := New(dir).Fact(key); ok {
		t.Error("a truncated fact read as whole")
	}
	if filepath.Dir(name) != dir {
		t.Errorf("the fact %s is not in the cache's directory %s", name, dir)
	}
}
