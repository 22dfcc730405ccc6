package parsecache

import (
	"bytes"
	"debug/elf"
	"io"
	"os"
)

// buildID returns the Go build ID of the running executable, which the Go
// toolchain changes whenever anything compiled into it changes: the key
// that keeps the trees of one parser apart from another's. ok is false
// when it cannot be read.
func buildID() (id string, ok bool) {
	exe, err := os.Executable()
	if err != nil {
		return "", false
	}
	f, err := os.Open(exe)
	if err != nil {
		return "", false
	}
	defer f.Close()
	if ef, err := elf.NewFile(f); err == nil {
		// ELF: the ID is the descriptor of the Go note (name "Go", type 4).
		if s := ef.Section(".note.go.buildid"); s != nil {
			if note, err := s.Data(); err == nil {
				if id, ok := goNote(note, ef.ByteOrder); ok {
					return id, true
				}
			}
		}
	}
	// Other formats: the toolchain writes `\xff Go build ID: "ID"\n \xff`
	// near the start of the text.
	head := make([]byte, 32<<10)
	n, _ := io.ReadFull(io.NewSectionReader(f, 0, int64(len(head))), head)
	head = head[:n]
	prefix := []byte("\xff Go build ID: \"")
	i := bytes.Index(head, prefix)
	if i < 0 {
		return "", false
	}
	rest := head[i+len(prefix):]
	j := bytes.IndexByte(rest, '"')
	if j <= 0 {
		return "", false
	}
	return string(rest[:j]), true
}

// goNote reads the descriptor of the Go build ID note.
func goNote(note []byte, order interface{ Uint32([]byte) uint32 }) (string, bool) {
	if len(note) < 16 {
		return "", false
	}
	namesz, descsz, typ := order.Uint32(note), order.Uint32(note[4:]), order.Uint32(note[8:])
	if namesz != 4 || typ != 4 || string(note[12:16]) != "Go\x00\x00" || uint64(descsz) > uint64(len(note)-16) || descsz == 0 {
		return "", false
	}
	return string(note[16 : 16+descsz]), true
}
