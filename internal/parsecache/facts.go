package parsecache

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"hash/crc32"

	"github.com/nodegen/nodegen/internal/regularfile"
)

// Facts are small records a caller keeps beside the trees, each under a
// key of its own making (the SHA-256 of what it was computed from: the
// sums of the sources, say), in the cache's directory of this build: what
// eval learned of a library's modules, so that a later run need not
// decode them. Like an entry, a fact that cannot be read, is truncated or
// corrupt is no fact, and one is written to a temporary file and renamed
// into place.

// factMagic starts every fact.
var factMagic = []byte("nodegen fact 1\n")

// factPrefix starts the name of a fact's file, after the directory.
const factPrefix = "fact-"

// Fact returns the data PutFact stored under key, and whether there is
// such a fact, whole; false for a cache without a directory.
func (c *Cache) Fact(key [sha256.Size]byte) ([]byte, bool) {
	if c.Off() {
		return nil, false
	}
	data, ok := regularfile.ReadFast(nil, c.factName(key), maxEntry)
	if !ok || len(data) < len(factMagic)+4 || !bytes.Equal(data[:len(factMagic)], factMagic) {
		return nil, false
	}
	rest := data[len(factMagic)+4:]
	if binary.LittleEndian.Uint32(data[len(factMagic):]) != crc32.ChecksumIEEE(rest) {
		return nil, false
	}
	return rest, true
}

// PutFact stores data under key, written in the background as the
// entries are (see Wait); nothing for a cache without a directory.
func (c *Cache) PutFact(key [sha256.Size]byte, data []byte) {
	if c.Off() {
		return
	}
	out := append([]byte(nil), factMagic...)
	out = binary.LittleEndian.AppendUint32(out, crc32.ChecksumIEEE(data))
	out = append(out, data...)
	c.enqueue(pendingEntry{name: c.factName(key), data: &out, fact: true})
}

// factName is the file of the fact under key.
func (c *Cache) factName(key [sha256.Size]byte) string {
	return c.entryPrefix + factPrefix + hex.EncodeToString(key[:])
}
