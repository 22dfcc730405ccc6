package parsecache

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"

	"github.com/hashicorp/hcl/v2"

	"github.com/nodegen/nodegen/internal/parsediag"
	"github.com/nodegen/nodegen/internal/syntaxcodec"
)

// A Bundle holds the syntax trees of a fixed set of files, encoded ahead
// of time: nodegen's build carries the trees of its module library, so
// that a run decodes them without reading cache files or hashing the
// sources. A tree serves only the very source it was made from: a file
// whose name, length or CRC-32 differs is parsed, or looked up in the
// cache, as any other. A Bundle is safe for concurrent use.
type Bundle struct {
	trees map[string]bundleTree // by file name
}

type bundleTree struct {
	size int
	crc  uint32
	tree []byte // as syntaxcodec.AppendFile writes it
}

// BundleFile is a file to put in a bundle: its name, as diagnostics show
// it, and its source.
type BundleFile struct {
	Name string
	Src  []byte
}

// bundleMagic starts every bundle.
var bundleMagic = []byte("nodegen parse bundle 2\n")

// AppendBundle appends the bundle of files to dst, in the order given.
// A file the parser reports anything about, or whose tree cannot be
// encoded, is an error: the bundle is for files known to be good.
func AppendBundle(dst []byte, files []BundleFile) ([]byte, error) {
	out := append(dst, bundleMagic...)
	out = binary.AppendUvarint(out, uint64(len(files)))
	var tree []byte
	for _, f := range files {
		file, diags := parsediag.Parse(f.Src, f.Name)
		if len(diags) > 0 {
			return dst, fmt.Errorf("%s: %s", f.Name, diags.Error())
		}
		var err error
		if tree, err = syntaxcodec.AppendFile(tree[:0], file, f.Name); err != nil {
			return dst, fmt.Errorf("%s: %w", f.Name, err)
		}
		out = binary.AppendUvarint(out, uint64(len(f.Name)))
		out = append(out, f.Name...)
		out = binary.AppendUvarint(out, uint64(len(f.Src)))
		out = binary.LittleEndian.AppendUint32(out, crc32.ChecksumIEEE(f.Src))
		out = binary.AppendUvarint(out, uint64(len(tree)))
		out = append(out, tree...)
	}
	return out, nil
}

var errBadBundle = errors.New("not a parse bundle, or a damaged one")

// ReadBundle reads a bundle AppendBundle wrote. The bundle keeps data,
// which must not change.
func ReadBundle(data []byte) (*Bundle, error) {
	rest, ok := bytes.CutPrefix(data, bundleMagic)
	if !ok {
		return nil, errBadBundle
	}
	uvarint := func() (int, bool) {
		v, n := binary.Uvarint(rest)
		if n <= 0 || v > uint64(len(rest)) {
			return 0, false
		}
		rest = rest[n:]
		return int(v), true
	}
	bytesOf := func() ([]byte, bool) {
		n, ok := uvarint()
		if !ok || n > len(rest) {
			return nil, false
		}
		b := rest[:n:n]
		rest = rest[n:]
		return b, true
	}
	count, ok := uvarint()
	if !ok {
		return nil, errBadBundle
	}
	b := &Bundle{trees: make(map[string]bundleTree, count)}
	for range count {
		name, ok1 := bytesOf()
		size, ok2 := uvarint()
		if !ok1 || !ok2 || len(rest) < 4 {
			return nil, errBadBundle
		}
		crc := binary.LittleEndian.Uint32(rest)
		rest = rest[4:]
		tree, ok := bytesOf()
		if !ok {
			return nil, errBadBundle
		}
		b.trees[string(name)] = bundleTree{size: size, crc: crc, tree: tree}
	}
	if len(rest) != 0 {
		return nil, errBadBundle
	}
	return b, nil
}

// Len returns how many files b holds; 0 for a nil bundle.
func (b *Bundle) Len() int {
	if b == nil {
		return 0
	}
	return len(b.trees)
}

// parse returns the tree of src named filename, when b holds it for that
// very source.
func (b *Bundle) parse(src []byte, filename string) (*hcl.File, bool) {
	if b == nil {
		return nil, false
	}
	t, ok := b.trees[filename]
	if !ok || t.size != len(src) || t.crc != crc32.ChecksumIEEE(src) {
		return nil, false
	}
	file, err := syntaxcodec.DecodeFile(t.tree, src, filename)
	return file, err == nil
}
