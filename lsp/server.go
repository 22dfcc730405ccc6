package lsp

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"net/url"
	"path"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/nodegen/nodegen/eval"
	"github.com/nodegen/nodegen/internal/assetlock"
	"github.com/nodegen/nodegen/internal/fleetfile"
	"github.com/nodegen/nodegen/internal/parsecache"
	"github.com/nodegen/nodegen/profilecheck"
)

// Options configure a server.
type Options struct {
	// Library is the built-in module library (modules.FS()); nil
	// evaluates the workspace's files alone (--bare).
	Library fs.FS
	// ParseCache keeps parsed library modules between evaluations.
	ParseCache *parsecache.Cache
	// Hosts are host files (absolute, or relative to the workspace
	// root): a file is checked in the evaluation of each host that reads
	// it. The client's initializationOptions.hosts add to them. With
	// none, the hosts are the workspace's modules no other imports.
	Hosts []string
	// LibraryDir is where the library's files are written for go to
	// definition (read-only files, an editor opens them as any file);
	// "" is the user's cache directory's nodegen/lsp/library.
	LibraryDir string
	// Fleet is a fleet file (absolute, or relative to the workspace
	// root; see internal/fleetfile): its hosts are evaluated together, a
	// module reading another host's options as hosts.NAME.config.PATH,
	// and each is a host a file is checked in, as Hosts are. The
	// client's initializationOptions.fleet replaces it.
	Fleet string
	// Checks says which checks of the generated files (each a script a
	// module chose, run by the programs it names) a save runs: "off"
	// (also "", the default: a server started in a repository nobody
	// vetted runs none of its scripts), "auto" or "required", as
	// nodegen eval --checks. The client's initializationOptions.checks
	// replaces it.
	Checks string
	// Log, when set, receives the stack of a request that panicked (a
	// bug: the client is answered an internal error, and the server goes
	// on).
	Log io.Writer
}

// Server is a language server for nodegen modules, over one connection.
// It handles one message at a time, in order (an evaluation takes tens of
// milliseconds): every answer follows from the edits before it, but for
// completion, which answers at once from their last evaluation.
type Server struct {
	opts Options
	out  *writer
	enc  encoding

	initialized bool
	shutdown    bool
	root        string // the workspace root, a path inside fsys ("" if none)
	checks      profilecheck.Mode

	fsys *overlay
	docs map[string]*document
	// dirty are the documents changed since their last check.
	dirty map[string]bool
	hosts []string // paths inside fsys
	// fleet are the hosts of the fleet file (see Options.Fleet), their
	// files paths inside fsys.
	fleet []eval.HostFile
	// ws is the workspace's modules and their imports, when no hosts are
	// named; read when first needed, again after a save.
	ws *workspace
	// hostFiles maps each host to the files its last evaluation read.
	hostFiles map[string]map[string]bool
	// keyDiags are the diagnostics of the last full evaluation of each
	// host (or test file), by URI: what a save publishes merges them.
	keyDiags map[string]map[string][]locatedDiagnostic

	libEval  *eval.Evaluator  // the library alone, for its own files
	libTexts map[string]*text // the library's files read so far
	// declCache keeps the declarations of recent evaluations.
	declCache map[*eval.Evaluator][]eval.Declaration
	typeCache map[*eval.Evaluator][]eval.TypedDeclaration

	// handled, when set, is called after each message with the number of
	// messages written so far (tests wait on it).
	handled func(written int)
}

// document is a file open in the editor.
type document struct {
	uri     string
	name    string // the file's name in evaluations (path inside fsys, or a library name)
	lib     bool   // a file of the built-in library (read-only)
	version int
	text    *text
	body    *hclsyntax.Body // what parses of it
	// ev is the latest evaluation that read the document.
	ev *eval.Evaluator
	// opened is set from didOpen to the document's first check, unless
	// an edit comes first: that check is the full one, as a save's (see
	// Server.check).
	opened bool
}

// New returns a server that writes to out.
func New(opts Options, out io.Writer) *Server {
	return &Server{
		opts:      opts,
		out:       &writer{w: out},
		fsys:      newOverlay(),
		docs:      map[string]*document{},
		dirty:     map[string]bool{},
		hostFiles: map[string]map[string]bool{},
		keyDiags:  map[string]map[string][]locatedDiagnostic{},
		libTexts:  map[string]*text{},
		declCache: map[*eval.Evaluator][]eval.Declaration{},
		typeCache: map[*eval.Evaluator][]eval.TypedDeclaration{},
	}
}

// checkMode reads Options.Checks: "" is off.
func checkMode(s string) (profilecheck.Mode, error) {
	if s == "" {
		return profilecheck.Off, nil
	}
	return profilecheck.ParseMode(s)
}

// errExit is returned by Run after an exit notification that followed a
// shutdown request.
var errExit = errors.New("exit")

// Run reads and handles messages from in until exit or the end of the
// input. The error is nil after shutdown and exit, else why it stopped
// (LSP's exit code 1).
//
// Messages are read ahead of their handling, so that edits typed faster
// than they are evaluated are evaluated once: the diagnostics of changed
// documents are computed when no message waits.
func (s *Server) Run(in io.Reader) error {
	type read struct {
		body []byte
		err  error
	}
	queue := make(chan read, 256)
	go func() {
		r := newReader(in)
		for {
			body, err := r.read()
			queue <- read{body, err}
			if err != nil {
				return
			}
		}
	}()
	for {
		next := <-queue
		if next.err == io.EOF {
			if s.shutdown {
				return nil
			}
			return errors.New("the input ended without shutdown and exit")
		}
		if next.err != nil {
			return next.err
		}
		err := s.handle(next.body)
		if len(queue) == 0 && err == nil {
			s.checkDirty()
		}
		if s.handled != nil {
			s.handled(s.out.count())
		}
		if err == errExit {
			if s.shutdown {
				return nil
			}
			return errors.New("exit without shutdown")
		}
		if err != nil {
			return err
		}
	}
}

// checkDirty publishes the diagnostics of the documents changed since
// they were last checked, in the order of their URIs.
func (s *Server) checkDirty() {
	for _, uri := range slices.Sorted(maps.Keys(s.dirty)) {
		delete(s.dirty, uri)
		if d := s.docs[uri]; d != nil {
			s.call(func(*Server, json.RawMessage) (any, *responseError) { s.check(d); return nil, nil }, nil)
		}
	}
}

// handle handles one message; only a failure to write, or exit, is an
// error.
func (s *Server) handle(body []byte) error {
	var m message
	if err := json.Unmarshal(body, &m); err != nil {
		return s.reply(json.RawMessage("null"), nil, &responseError{codeParseError, err.Error()})
	}
	if m.Method == "" {
		return nil // a response to a request of ours: there are none
	}
	isRequest := len(m.ID) > 0
	if m.Method == "exit" {
		return errExit
	}
	if !s.initialized && m.Method != "initialize" {
		if isRequest {
			return s.reply(m.ID, nil, &responseError{codeServerNotInitialized, "the server is not initialized"})
		}
		return nil
	}
	if s.shutdown && isRequest {
		return s.reply(m.ID, nil, &responseError{codeInvalidRequest, "the server is shut down"})
	}
	h, ok := handlers[m.Method]
	if !ok {
		if isRequest {
			return s.reply(m.ID, nil, &responseError{codeMethodNotFound, fmt.Sprintf("no method %q", m.Method)})
		}
		return nil // notifications the server does not know are dropped
	}
	result, rerr := s.call(h, m.Params)
	if !isRequest {
		return nil
	}
	if rerr != nil {
		return s.reply(m.ID, nil, rerr)
	}
	return s.reply(m.ID, result, nil)
}

// call runs a handler. A panic is a bug of the server: the request fails
// with it, and the server goes on with the next message rather than lose
// the user's session.
func (s *Server) call(h handler, params json.RawMessage) (result any, rerr *responseError) {
	defer func() {
		if r := recover(); r != nil {
			result, rerr = nil, &responseError{codeInternalError, fmt.Sprintf("internal error: %v", r)}
			if s.opts.Log != nil {
				fmt.Fprintf(s.opts.Log, "nodegen lsp: internal error: %v\n%s", r, debug.Stack())
			}
		}
	}()
	return h(s, params)
}

func (s *Server) reply(id json.RawMessage, result any, rerr *responseError) error {
	resp := struct {
		JSONRPC string         `json:"jsonrpc"`
		ID      any            `json:"id"`
		Result  any            `json:"result,omitempty"`
		Error   *responseError `json:"error,omitempty"`
	}{JSONRPC: "2.0", ID: id, Error: rerr}
	if rerr == nil {
		// A null result is written as null: result must be present.
		if result == nil {
			result = json.RawMessage("null")
		}
		resp.Result = result
	}
	return s.out.write(resp)
}

func (s *Server) notify(method string, params any) error {
	return s.out.write(struct {
		JSONRPC string `json:"jsonrpc"`
		Method  string `json:"method"`
		Params  any    `json:"params"`
	}{"2.0", method, params})
}

// handler handles a request or notification; a notification's result is
// ignored.
type handler func(s *Server, params json.RawMessage) (any, *responseError)

var handlers map[string]handler

func init() {
	handlers = map[string]handler{
		"initialize":                  (*Server).initialize,
		"initialized":                 func(*Server, json.RawMessage) (any, *responseError) { return nil, nil },
		"shutdown":                    func(s *Server, _ json.RawMessage) (any, *responseError) { s.shutdown = true; return nil, nil },
		"textDocument/didOpen":        (*Server).didOpen,
		"textDocument/didChange":      (*Server).didChange,
		"textDocument/didSave":        (*Server).didSave,
		"textDocument/didClose":       (*Server).didClose,
		"textDocument/hover":          (*Server).hover,
		"textDocument/completion":     (*Server).completion,
		"textDocument/definition":     (*Server).definition,
		"textDocument/references":     (*Server).references,
		"textDocument/formatting":     (*Server).formatting,
		"textDocument/documentSymbol": (*Server).documentSymbol,
	}
}

// decode reads a request's params.
func decode[T any](params json.RawMessage) (T, *responseError) {
	var v T
	if err := json.Unmarshal(params, &v); err != nil {
		return v, &responseError{codeInvalidParams, err.Error()}
	}
	return v, nil
}

func (s *Server) initialize(params json.RawMessage) (any, *responseError) {
	if s.initialized {
		return nil, &responseError{codeInvalidRequest, "initialize was sent twice"}
	}
	p, rerr := decode[initializeParams](params)
	if rerr != nil {
		return nil, rerr
	}
	s.initialized = true
	// UTF-8 when the client offers it (no conversion of the offsets
	// HCL counts in bytes), else UTF-16, which every client supports.
	s.enc = utf16
	for _, e := range p.Capabilities.General.PositionEncodings {
		if e == "utf-8" {
			s.enc = utf8Enc
		}
	}
	switch {
	case p.RootURI != "":
		s.root, _ = uriPath(p.RootURI)
	case len(p.WorkspaceFolders) > 0:
		s.root, _ = uriPath(p.WorkspaceFolders[0].URI)
	case p.RootPath != "":
		s.root = strings.TrimPrefix(filepath.ToSlash(filepath.Clean(p.RootPath)), "/")
	}
	hosts := s.opts.Hosts
	checks := s.opts.Checks
	if o := p.InitializationOptions; o != nil {
		hosts = append(hosts, o.Hosts...)
		if o.Bare {
			s.opts.Library = nil
		}
		if o.Checks != "" {
			checks = o.Checks
		}
	}
	mode, err := checkMode(checks)
	if err != nil {
		s.initialized = false
		return nil, &responseError{codeInvalidParams, "initializationOptions.checks: " + err.Error()}
	}
	s.checks = mode
	fleet := s.opts.Fleet
	if o := p.InitializationOptions; o != nil && o.Fleet != "" {
		fleet = o.Fleet
	}
	if fleet != "" {
		fleet = filepath.ToSlash(fleet)
		if !strings.HasPrefix(fleet, "/") {
			fleet = path.Join("/"+s.root, fleet)
		}
		fhosts, diags := fleetfile.Load(filepath.FromSlash(fleet))
		if diags.HasErrors() {
			s.initialized = false
			return nil, &responseError{codeInvalidParams, "fleet: " + diags.Error()}
		}
		for _, h := range fhosts {
			name := strings.TrimPrefix(path.Clean(filepath.ToSlash(h.File)), "/")
			s.fleet = append(s.fleet, eval.HostFile{Name: h.Name, Files: []string{name}})
			hosts = append(hosts, "/"+name)
		}
	}
	for _, h := range hosts {
		h = filepath.ToSlash(h)
		if !strings.HasPrefix(h, "/") {
			h = path.Join("/"+s.root, h)
		}
		s.hosts = append(s.hosts, strings.TrimPrefix(path.Clean(h), "/"))
	}
	return map[string]any{
		"capabilities": map[string]any{
			"positionEncoding": s.enc.String(),
			"textDocumentSync": map[string]any{
				"openClose": true,
				"change":    2, // incremental
				"save":      map[string]any{"includeText": false},
			},
			"hoverProvider":              true,
			"completionProvider":         map[string]any{"triggerCharacters": []string{".", "\"", "="}},
			"definitionProvider":         true,
			"referencesProvider":         true,
			"documentFormattingProvider": true,
			"documentSymbolProvider":     true,
		},
		"serverInfo": map[string]any{"name": "nodegen"},
	}, nil
}

// uriPath converts a file URI to a path inside the overlay ("home/u/x.hcl").
func uriPath(uri string) (string, error) {
	u, err := url.Parse(uri)
	if err != nil {
		return "", err
	}
	if u.Scheme != "file" {
		return "", fmt.Errorf("not a file URI: %s", uri)
	}
	p := path.Clean(u.Path)
	if !strings.HasPrefix(p, "/") {
		return "", fmt.Errorf("not an absolute file URI: %s", uri)
	}
	return strings.TrimPrefix(p, "/"), nil
}

// fileURI converts a path inside the overlay to a file URI.
func fileURI(p string) string {
	return (&url.URL{Scheme: "file", Path: "/" + p}).String()
}

// nameURI is the URI of a file an evaluation names: a user file or a file
// of the library (materialised for the editor to open).
func (s *Server) nameURI(name string) (string, bool) {
	if rel, ok := eval.LibraryModule(name); ok {
		p, err := s.materialise(rel)
		if err != nil {
			return "", false
		}
		return fileURI(p), true
	}
	if name == "" || strings.HasPrefix(name, "<") {
		return "", false
	}
	return fileURI(name), true
}

func (s *Server) didOpen(params json.RawMessage) (any, *responseError) {
	p, rerr := decode[didOpenParams](params)
	if rerr != nil {
		return nil, rerr
	}
	name, err := uriPath(p.TextDocument.URI)
	if err != nil {
		return nil, nil // not a file: nothing to evaluate
	}
	d := &document{uri: p.TextDocument.URI, name: name, version: p.TextDocument.Version, opened: true}
	if rel, ok := s.libraryName(name); ok {
		d.name, d.lib = eval.LibraryFileName(rel), true
	}
	s.docs[d.uri] = d
	s.setText(d, []byte(p.TextDocument.Text))
	s.dirty[d.uri] = true
	return nil, nil
}

func (s *Server) didChange(params json.RawMessage) (any, *responseError) {
	p, rerr := decode[didChangeParams](params)
	if rerr != nil {
		return nil, rerr
	}
	d := s.docs[p.TextDocument.URI]
	if d == nil {
		return nil, nil
	}
	src := d.text.src
	for _, c := range p.ContentChanges {
		if c.Range == nil {
			src = []byte(c.Text)
			continue
		}
		t := newText(src)
		a, b := t.offset(c.Range.Start, s.enc), t.offset(c.Range.End, s.enc)
		if b < a {
			a, b = b, a
		}
		src = append(append(append([]byte{}, src[:a]...), c.Text...), src[b:]...)
	}
	d.version = p.TextDocument.Version
	d.opened = false
	s.setText(d, src)
	s.dirty[d.uri] = true
	return nil, nil
}

func (s *Server) didSave(params json.RawMessage) (any, *responseError) {
	p, rerr := decode[didSaveParams](params)
	if rerr != nil {
		return nil, rerr
	}
	d := s.docs[p.TextDocument.URI]
	if d == nil || d.lib {
		return nil, nil
	}
	if p.Text != nil {
		s.setText(d, []byte(*p.Text))
	}
	// The full evaluation publishes all the change's would, and more.
	delete(s.dirty, d.uri)
	d.opened = false
	s.ws = nil // the saved file's imports may have changed
	s.checkSaved(d)
	return nil, nil
}

func (s *Server) didClose(params json.RawMessage) (any, *responseError) {
	p, rerr := decode[didCloseParams](params)
	if rerr != nil {
		return nil, rerr
	}
	d := s.docs[p.TextDocument.URI]
	if d == nil {
		return nil, nil
	}
	delete(s.docs, d.uri)
	delete(s.dirty, d.uri)
	if !d.lib {
		s.fsys.drop(d.name)
	}
	// The file on disk is what evaluations read now; its diagnostics go
	// with the buffer.
	_ = s.notify("textDocument/publishDiagnostics", publishDiagnosticsParams{URI: d.uri, Diagnostics: []Diagnostic{}})
	return nil, nil
}

// setText records a document's new content.
func (s *Server) setText(d *document, src []byte) {
	d.text = newText(src)
	if !d.lib {
		s.fsys.set(d.name, src)
	}
	f, _ := hclsyntax.ParseConfig(src, d.name, hcl.InitialPos)
	if b, ok := f.Body.(*hclsyntax.Body); ok {
		d.body = b
	} else {
		d.body = &hclsyntax.Body{}
	}
}

// evaluate loads the modules at roots (paths inside the overlay) with the
// library.
func (s *Server) evaluate(roots []string) (*eval.Evaluator, hcl.Diagnostics) {
	// With the lock file beside the host, as nodegen eval reads it.
	cfg, diags := assetlock.AddTo(eval.Config{Files: roots, FS: s.fsys, Library: s.opts.Library, ParseCache: s.opts.ParseCache})
	if len(s.fleet) > 0 && len(roots) > 0 {
		// The fleet's hosts as the buffers have them now: a fresh set
		// for each evaluation, which keeps no value from before an edit.
		cfg.Hosts = eval.NewHosts(s.fleet, eval.Config{FS: s.fsys, Library: s.opts.Library, ParseCache: s.opts.ParseCache})
		cfg.Host = strings.TrimSuffix(path.Base(roots[0]), ".hcl")
		for _, h := range s.fleet {
			if h.Files[0] == roots[0] {
				cfg.Host = h.Name
			}
		}
	}
	ev, d := eval.New(cfg)
	return ev, append(diags, d...)
}

// targets are the evaluations a document is checked in: each host that
// read it when last evaluated, or else the document alone.
//
// Without named hosts, the hosts are the workspace's modules that no other
// module imports (scanWorkspace), and a module is checked in those whose
// imports reach it.
func (s *Server) targets(d *document) []string {
	if len(s.hosts) == 0 {
		if s.ws == nil {
			s.ws = scanWorkspace(s.fsys, s.root)
		}
		if out := s.ws.hostsOf(d.name); len(out) > 0 {
			return out
		}
		return []string{d.name}
	}
	var out []string
	for _, h := range s.hosts {
		if h == d.name {
			// A host reads its own file: no evaluation needed to know
			// (the check that follows evaluates it, and records its
			// files).
			out = append(out, h)
			continue
		}
		if _, known := s.hostFiles[h]; !known {
			// A host not evaluated yet: evaluate it to learn its files.
			ev, _ := s.evaluate([]string{h})
			s.recordFiles(h, ev)
		}
		if s.hostFiles[h][d.name] {
			out = append(out, h)
		}
	}
	if len(out) == 0 {
		out = []string{d.name}
	}
	return out
}

func (s *Server) recordFiles(host string, ev *eval.Evaluator) {
	files := map[string]bool{}
	for name := range ev.Files() {
		files[name] = true
	}
	s.hostFiles[host] = files
}

// libraryEval is the evaluation of the library alone, for its own files.
func (s *Server) libraryEval() *eval.Evaluator {
	if s.libEval == nil {
		s.libEval, _ = s.evaluate(nil)
	}
	return s.libEval
}

// evalOf is the evaluation queries on d answer from.
func (s *Server) evalOf(d *document) *eval.Evaluator {
	if d.lib || d.ev == nil {
		return s.libraryEval()
	}
	return d.ev
}

// docAt finds an open document and the byte offset of a position in it.
func (s *Server) docAt(p positionParams) (*document, int) {
	d := s.docs[p.TextDocument.URI]
	if d == nil {
		return nil, 0
	}
	return d, d.text.offset(p.Position, s.enc)
}
