package lsp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/rogpeppe/go-internal/txtar"

	"github.com/nodegen/nodegen/internal/librarytrees"
	"github.com/nodegen/nodegen/internal/parsecache"
	"github.com/nodegen/nodegen/modules"
)

// TestSessions replays the recorded exchanges of testdata/*.txtar: each
// archive holds a workspace's files and a "session" of lines "-> MESSAGE"
// (sent to the server, over a pipe) each followed by the lines "<- MESSAGE"
// the server writes before it reads the next one. $ROOT in a message is
// the workspace's directory, $LIB the directory of the library's files.
// An archive whose files include library/PATH runs against the library of
// those files instead of the built-in one: a session that is not about
// the library brings the few options it needs, so that an edit of the
// built-in library does not change what the server answers it.
// NODEGEN_UPDATE=1 rewrites the sessions with what the server answers.
func TestSessions(t *testing.T) {
	archives, _ := filepath.Glob("testdata/*.txtar")
	if len(archives) == 0 {
		t.Fatal("no testdata/*.txtar")
	}
	for _, name := range archives {
		t.Run(strings.TrimSuffix(filepath.Base(name), ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(name)
			if err != nil {
				t.Fatal(err)
			}
			got := replay(t, ar)
			idx := sessionIndex(t, ar)
			want := string(ar.Files[idx].Data)
			if os.Getenv("NODEGEN_UPDATE") != "" {
				ar.Files[idx].Data = []byte(got)
				if err := os.WriteFile(name, txtar.Format(ar), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("session (-want +got); NODEGEN_UPDATE=1 rewrites it:\n%s", diff)
			}
		})
	}
}

func sessionIndex(t *testing.T, ar *txtar.Archive) int {
	for i, f := range ar.Files {
		if f.Name == "session" {
			return i
		}
	}
	t.Fatal("no session in the archive")
	return -1
}

// harness is a server running over pipes, in process.
type harness struct {
	t       testing.TB
	in      *io.PipeWriter
	mu      sync.Mutex
	cond    *sync.Cond
	got     [][]byte
	written int // messages the server wrote, after the last it handled
	handled int // messages the server handled
	sent    int // messages sent to it
	done    chan error
	repl    *strings.Replacer
}

var testParseCache = sync.OnceValue(func() *parsecache.Cache {
	dir, err := os.MkdirTemp("", "nodegen-lsp-parse")
	if err != nil {
		panic(err)
	}
	return parsecache.New(dir).WithBundle(librarytrees.Bundle())
})

// start runs a server over pipes with the workspace at root and the
// built-in library.
func start(t testing.TB, root, libDir string) *harness {
	return startWith(t, root, libDir, modules.FS())
}

// startWith runs a server over pipes with the workspace at root and the
// library lib.
func startWith(t testing.TB, root, libDir string, lib fs.FS) *harness {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	h := &harness{t: t, in: inW, done: make(chan error, 1)}
	h.cond = sync.NewCond(&h.mu)
	s := New(Options{Library: lib, ParseCache: testParseCache(), LibraryDir: libDir}, outW)
	s.handled = func(n int) {
		h.mu.Lock()
		h.written = n
		h.handled++
		h.cond.Broadcast()
		h.mu.Unlock()
	}
	go func() {
		err := s.Run(inR)
		outW.Close()
		h.done <- err
	}()
	go func() {
		r := newReader(outR)
		for {
			b, err := r.read()
			if err != nil {
				return
			}
			h.mu.Lock()
			h.got = append(h.got, b)
			h.cond.Broadcast()
			h.mu.Unlock()
		}
	}()
	return h
}

// send writes a message and returns what the server wrote while handling
// it.
func (h *harness) send(msg []byte) [][]byte {
	h.mu.Lock()
	before := len(h.got)
	h.sent++
	h.mu.Unlock()
	fmt.Fprintf(h.in, "Content-Length: %d\r\n\r\n%s", len(msg), msg)
	timeout := time.AfterFunc(60*time.Second, func() {
		h.mu.Lock()
		h.handled = -1 << 30
		h.cond.Broadcast()
		h.mu.Unlock()
	})
	defer timeout.Stop()
	h.mu.Lock()
	defer h.mu.Unlock()
	for h.handled >= 0 && (h.handled < h.sent || len(h.got) < h.written) {
		h.cond.Wait()
	}
	if h.handled < 0 {
		h.t.Fatalf("no answer to %s", msg)
	}
	return h.got[before:h.written]
}

// replay runs an archive's session and returns it as the server answers
// it now.
func replay(t *testing.T, ar *txtar.Archive) string {
	root := t.TempDir()
	libDir := t.TempDir()
	inline := t.TempDir()
	var lib fs.FS = modules.FS()
	for _, f := range ar.Files {
		if f.Name == "session" {
			continue
		}
		p := filepath.Join(root, f.Name)
		if name, ok := strings.CutPrefix(f.Name, "library/"); ok {
			p = filepath.Join(inline, name)
			lib = os.DirFS(inline)
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	rootURI := fileURI(strings.TrimPrefix(filepath.ToSlash(root), "/"))
	libURI := fileURI(strings.TrimPrefix(filepath.ToSlash(libDir), "/"))
	toServer := strings.NewReplacer("$ROOT", rootURI, "$LIBDIR", libURI)
	fromServer := strings.NewReplacer(rootURI, "$ROOT", libURI, "$LIB", strings.TrimPrefix(root, "/"), "$ROOTPATH")
	h := startWith(t, root, libDir, lib)
	var out strings.Builder
	for _, line := range strings.Split(string(ar.Files[sessionIndex(t, ar)].Data), "\n") {
		msg, ok := strings.CutPrefix(line, "-> ")
		if !ok {
			continue
		}
		var compact bytes.Buffer
		if err := json.Compact(&compact, []byte(toServer.Replace(msg))); err != nil {
			t.Fatalf("bad message %s: %v", msg, err)
		}
		fmt.Fprintf(&out, "-> %s\n", msg)
		if strings.Contains(msg, `"method":"exit"`) {
			fmt.Fprintf(h.in, "Content-Length: %d\r\n\r\n%s", compact.Len(), compact.Bytes())
			if err := <-h.done; err != nil {
				fmt.Fprintf(&out, "<- exit: %s\n", err)
			}
			continue
		}
		for _, b := range h.send(compact.Bytes()) {
			fmt.Fprintf(&out, "<- %s\n", fromServer.Replace(string(b)))
		}
	}
	return out.String()
}

// request sends a request and returns what the server wrote for it.
func (h *harness) request(method string, params any) [][]byte {
	h.mu.Lock()
	id := h.sent + 1
	h.mu.Unlock()
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
	return h.send(b)
}

func (h *harness) notification(method string, params any) [][]byte {
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "method": method, "params": params})
	return h.send(b)
}

// TestChangesCoalesce: edits that wait to be handled are evaluated once,
// for the last text: the diagnostics published last are those of the last
// version, and there are no more publications than changes.
func TestChangesCoalesce(t *testing.T) {
	root := t.TempDir()
	rootURI := fileURI(strings.TrimPrefix(filepath.ToSlash(root), "/"))
	uri := rootURI + "/host.hcl"
	h := start(t, root, t.TempDir())
	h.request("initialize", map[string]any{"rootUri": rootURI, "capabilities": map[string]any{}})
	h.notification("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "version": 1, "text": ""}})
	var frames bytes.Buffer
	for v := 2; v <= 6; v++ {
		b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "method": "textDocument/didChange", "params": map[string]any{
			"textDocument":   map[string]any{"uri": uri, "version": v},
			"contentChanges": []any{map[string]any{"text": fmt.Sprintf("config \"networking\" {\n  hostNam%d = \"a\"\n}\n", v)}},
		}})
		fmt.Fprintf(&frames, "Content-Length: %d\r\n\r\n%s", len(b), b)
	}
	h.mu.Lock()
	before := len(h.got)
	h.sent += 5
	h.mu.Unlock()
	h.in.Write(frames.Bytes())
	h.mu.Lock()
	for h.handled < h.sent || len(h.got) < h.written {
		h.cond.Wait()
	}
	got := h.got[before:]
	h.mu.Unlock()
	if len(got) == 0 || len(got) > 5 {
		t.Fatalf("%d publications for 5 changes", len(got))
	}
	t.Logf("%d publications for 5 changes", len(got))
	last := string(got[len(got)-1])
	if !strings.Contains(last, `"version":6`) || !strings.Contains(last, `networking.hostNam6`) {
		t.Errorf("the last publication is not of the last version: %s", last)
	}
}
