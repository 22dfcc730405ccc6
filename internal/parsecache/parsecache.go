// Package parsecache keeps the syntax trees of parsed module files on
// disk, so that a module unchanged since the last run is decoded instead
// of parsed: decoding takes a fraction of the time and of the memory.
//
// Entries are keyed by the SHA-256 of a file's content, in a directory of
// their own for each build of nodegen (named after the executable's Go
// build ID), since another parser may make another tree. The cache is
// only ever an optimisation: an entry that cannot be read, is truncated,
// corrupt or of another format is ignored and written again, a directory
// that cannot be written is no error, and a file that parses with any
// diagnostic is never cached, so its diagnostics are the parser's every
// time. Entries are written to a temporary file and renamed into place,
// so that a reader sees a whole entry or none.
package parsecache

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"hash/crc32"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hashicorp/hcl/v2"

	"github.com/nodegen/nodegen/internal/parsediag"
	"github.com/nodegen/nodegen/internal/regularfile"
	"github.com/nodegen/nodegen/internal/syntaxcodec"
)

// EnvVar is the environment variable that turns the cache off when set
// to "off".
const EnvVar = "NODEGEN_CACHE"

// magic starts every entry.
var magic = []byte("nodegen parse cache 3\n")

// staleAfter is how long the entries of another build of nodegen are
// kept after their directory last changed.
const staleAfter = 7 * 24 * time.Hour

// tempPrefix starts the names of the temporary files entries are written
// to before they are renamed into place.
const tempPrefix = ".entry-"

// maxEntry is the largest entry read, against a cache file grown out of
// all proportion: an entry is about twice the size of its module, and a
// module at most 64 MiB unless eval's limit file is raised.
const maxEntry = 256 << 20

// Cache is a parse cache in a directory. A nil *Cache parses every file;
// a Cache from Bundled has no directory, and parses every file its bundle
// does not hold.
type Cache struct {
	dir string
	// off is set for a Cache with no directory (see Bundled).
	off bool
	// entryPrefix is dir as filepath.Join puts it before a name.
	entryPrefix string
	bundle      *Bundle // trees made ahead of time, looked up first
	mkdir       sync.Once
	dirOK       bool
	hits        atomic.Int64
	written     atomic.Int64
	bundled     atomic.Int64

	mu      sync.Mutex
	queue   []pendingEntry // to be written
	writing bool           // whether the writer runs
	writers sync.WaitGroup
}

// Open returns the cache of this build of nodegen under the user's cache
// directory ($XDG_CACHE_HOME/nodegen/parse, else ~/.cache/nodegen/parse),
// or nil when NODEGEN_CACHE=off, when there is no such directory, or when
// the executable's build cannot be told.
func Open() *Cache {
	if os.Getenv(EnvVar) == "off" {
		return nil
	}
	base, err := os.UserCacheDir()
	if err != nil {
		return nil
	}
	id, ok := buildID()
	if !ok {
		return nil
	}
	sum := sha256.Sum256([]byte(id))
	return New(filepath.Join(base, "nodegen", "parse", hex.EncodeToString(sum[:12])))
}

// New returns a cache in dir, which is created when the first entry is
// written. The entries of other builds, in the directories beside dir, are
// removed then when they have not changed for a week.
func New(dir string) *Cache {
	// What filepath.Join(dir, name) puts before an entry's name, which has
	// nothing for Join to clean (hexadecimal digits).
	prefix := filepath.Join(dir, "_")
	return &Cache{dir: dir, entryPrefix: prefix[:len(prefix)-1]}
}

// Bundled returns a cache with no directory that holds only the trees of
// b: what NODEGEN_CACHE=off leaves, since the bundle is part of the
// build, not a cache on disk. Every file b does not hold is parsed, and
// nothing is written.
func Bundled(b *Bundle) *Cache {
	return &Cache{off: true, bundle: b}
}

// Off reports whether c has no directory: it is nil, or made by Bundled.
func (c *Cache) Off() bool { return c == nil || c.off }

// WithBundle has c look up the trees of b before its own entries, and
// returns c; call it before c parses anything.
func (c *Cache) WithBundle(b *Bundle) *Cache {
	if c != nil {
		c.bundle = b
	}
	return c
}

// Stats are what a cache did in a run.
type Stats struct {
	// Hits counts the files decoded from the cache.
	Hits int64
	// Written counts the entries written.
	Written int64
	// Bundled counts the files decoded from the bundle (see WithBundle).
	Bundled int64
}

// Stats returns what the cache did so far, once the entries being
// written are; zero for a nil cache.
func (c *Cache) Stats() Stats {
	if c == nil {
		return Stats{}
	}
	c.Wait()
	return Stats{Hits: c.hits.Load(), Written: c.written.Load(), Bundled: c.bundled.Load()}
}

// Parse returns what parsediag.Parse returns for src named filename,
// decoded from the bundle or the cache when one holds src, else parsed
// (and then cached when the file parses without a diagnostic). It is
// safe for concurrent use. The entries of files parsed are written in
// the background, while the caller goes on: call Wait before exiting.
func (c *Cache) Parse(src []byte, filename string) (*hcl.File, hcl.Diagnostics) {
	if c == nil {
		return parsediag.Parse(src, filename)
	}
	if file, ok := c.bundle.parse(src, filename); ok {
		c.bundled.Add(1)
		return file, nil
	}
	if c.off {
		return parsediag.Parse(src, filename)
	}
	sum := sha256.Sum256(src)
	name := c.entryName(sum)
	buf := entryBufs.Get().(*[]byte)
	if data, ok := regularfile.ReadFast((*buf)[:0], name, maxEntry); ok {
		*buf = data
		if file, ok := decodeEntry(data, sum, src, filename); ok {
			c.hits.Add(1)
			entryBufs.Put(buf)
			return file, nil
		}
	}
	file, diags := parsediag.Parse(src, filename)
	if file == nil || len(diags) > 0 {
		entryBufs.Put(buf)
		return file, diags
	}
	data, ok := appendEntry((*buf)[:0], file, sum, filename)
	*buf = data
	if !ok {
		entryBufs.Put(buf)
		return file, diags
	}
	c.enqueue(pendingEntry{name: name, data: buf})
	return file, diags
}

// entryName is the file of the entry for a source of SHA-256 sum: its
// sum in hexadecimal in c's directory (filepath.Join's result, in one
// allocation).
func (c *Cache) entryName(sum [sha256.Size]byte) string {
	var hexSum [2 * sha256.Size]byte
	hex.Encode(hexSum[:], sum[:])
	return c.entryPrefix + string(hexSum[:])
}

// pendingEntry is an entry waiting to be written to the file name.
type pendingEntry struct {
	name string
	data *[]byte // from entryBufs, given back once written
	fact bool    // a fact (PutFact), which Stats does not count
}

// enqueue has an entry written by the cache's writer, which it starts
// when none runs: one goroutine, so that the file system's latency (a
// few hundred microseconds a file on a busy machine) overlaps the work
// of the caller rather than adding to it.
func (c *Cache) enqueue(e pendingEntry) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.queue = append(c.queue, e)
	if !c.writing {
		c.writing = true
		c.writers.Add(1)
		go c.writeQueued()
	}
}

func (c *Cache) writeQueued() {
	defer c.writers.Done()
	for {
		c.mu.Lock()
		if len(c.queue) == 0 {
			c.writing = false
			c.mu.Unlock()
			return
		}
		e := c.queue[0]
		c.queue = c.queue[1:]
		c.mu.Unlock()
		if c.write(e.name, *e.data) && !e.fact {
			c.written.Add(1)
		}
		entryBufs.Put(e.data)
	}
}

// Wait returns when the entries of the files parsed so far are written
// (or could not be). A process that exits without it loses the entries
// still queued, and may leave a temporary file, which a later run
// removes.
func (c *Cache) Wait() {
	if c != nil {
		c.writers.Wait()
	}
}

// An entry is magic, the CRC-32 (IEEE) of the rest, the SHA-256 of the
// source, and the tree as syntaxcodec.AppendFile writes it.
const headerSize = 4 + sha256.Size

// entryBufs keep the buffers entries are read and encoded in for reuse:
// nothing of an entry's bytes is kept (DecodeFile copies the names).
var entryBufs = sync.Pool{New: func() any { return new([]byte) }}

// appendEntry appends the entry of file to dst.
func appendEntry(dst []byte, file *hcl.File, sum [sha256.Size]byte, filename string) ([]byte, bool) {
	out := append(dst, magic...)
	out = binary.LittleEndian.AppendUint32(out, 0)
	out = append(out, sum[:]...)
	out, err := syntaxcodec.AppendFile(out, file, filename)
	if err != nil {
		return out, false
	}
	binary.LittleEndian.PutUint32(out[len(dst)+len(magic):], crc32.ChecksumIEEE(out[len(dst)+len(magic)+4:]))
	return out, true
}

func decodeEntry(data []byte, sum [sha256.Size]byte, src []byte, filename string) (*hcl.File, bool) {
	if len(data) < len(magic)+headerSize || !bytes.Equal(data[:len(magic)], magic) {
		return nil, false
	}
	rest := data[len(magic)+4:]
	if binary.LittleEndian.Uint32(data[len(magic):]) != crc32.ChecksumIEEE(rest) {
		return nil, false
	}
	if !bytes.Equal(rest[:sha256.Size], sum[:]) {
		return nil, false
	}
	file, err := syntaxcodec.DecodeFile(rest[sha256.Size:], src, filename)
	return file, err == nil
}

// write puts an entry in place atomically; false when it could not.
func (c *Cache) write(name string, data []byte) bool {
	c.mkdir.Do(func() {
		_, err := os.Stat(c.dir)
		fresh := os.IsNotExist(err)
		c.dirOK = os.MkdirAll(c.dir, 0o700) == nil
		switch {
		case fresh && c.dirOK:
			removeStale(filepath.Dir(c.dir), filepath.Base(c.dir))
		case c.dirOK:
			removeStaleTemps(c.dir)
		}
	})
	if !c.dirOK {
		return false
	}
	f, err := os.CreateTemp(c.dir, tempPrefix+"*")
	if err != nil {
		return false
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), name)
	}
	if err != nil {
		os.Remove(f.Name())
		return false
	}
	return true
}

// removeStaleTemps removes the temporary files in dir of writes that did
// not finish an hour ago: a process that exited before it wrote all its
// entries.
func removeStaleTemps(dir string) {
	temps, _ := filepath.Glob(filepath.Join(dir, tempPrefix+"*"))
	for _, t := range temps {
		if info, err := os.Lstat(t); err == nil && time.Since(info.ModTime()) > time.Hour {
			os.Remove(t)
		}
	}
}

// removeStale removes the directories in parent, but keep, that have not
// changed for staleAfter: the entries of other builds of nodegen.
func removeStale(parent, keep string) {
	entries, err := os.ReadDir(parent)
	if err != nil {
		return
	}
	for _, e := range entries {
		if !e.IsDir() || e.Name() == keep {
			continue
		}
		if info, err := e.Info(); err == nil && time.Since(info.ModTime()) > staleAfter {
			os.RemoveAll(filepath.Join(parent, e.Name()))
		}
	}
}
