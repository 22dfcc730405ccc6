package lsp

import (
	"maps"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/nodegen/nodegen/eval"
	"github.com/nodegen/nodegen/evalprofile"
)

// check publishes the diagnostics of a document changed since its last
// check: those of the full evaluation in its first host (checkOpened) when
// it was just opened, which is when the editor's text and the files it
// reads are the ones on disk, else those as it is typed (checkChanged).
func (s *Server) check(d *document) {
	if d.opened && !d.lib && !isTestFile(d.name) {
		d.opened = false
		s.checkOpened(d)
		return
	}
	d.opened = false
	s.checkChanged(d)
}

// checkChanged evaluates an edited document in its first target as far
// as a definition's own value: parse errors, unknown options (with "did
// you mean"), values not of their option's type, conflicts; and publishes
// those located in the document. The library's files are not checked.
func (s *Server) checkChanged(d *document) {
	if d.lib {
		return
	}
	if isTestFile(d.name) {
		s.checkTestChanged(d)
		return
	}
	// The first host only: a role many hosts import is checked in all of
	// them on save.
	t := s.targets(d)[0]
	ev, diags, _ := s.merged(t)
	d.ev = ev
	s.recordFiles(t, ev)
	s.publish(d.uri, d.version, forURI(s.located(ev.Files(), diags, &d.uri), d.uri))
}

// merged evaluates the module at name as far as every option's value;
// loaded is false when loading it (parsing, declaring, splitting the
// definitions) failed. Merging after such errors still finds the values
// not of their type, unless the modules could not be read at all.
func (s *Server) merged(name string) (ev *eval.Evaluator, diags hcl.Diagnostics, loaded bool) {
	ev, diags = s.evaluate([]string{name})
	loaded = !diags.HasErrors()
	if len(ev.Files()) > 0 {
		_, more := ev.Config()
		diags = append(diags, more...)
	}
	return ev, eval.Dedupe(diags), loaded
}

// checkSaved runs the full evaluation of each of a saved document's
// targets, as `nodegen eval` does (the profile's files, the assertions
// and warnings, the check of the executables and of the startup, the
// checks of the files by the programs that read them), and
// publishes every diagnostic at every place it names, in every file. A
// test file's runs are run.
func (s *Server) checkSaved(d *document) {
	if isTestFile(d.name) {
		s.checkTestSaved(d)
		return
	}
	s.checkFull(d, s.targets(d))
}

// checkOpened runs the full evaluation of a document just opened in its
// first host, as a save runs it in each: an opened host shows its failed
// assertions, warnings and profile checks at once, without a save; a role
// that many hosts import costs one host's evaluation to open, and is
// checked in all of them on save.
func (s *Server) checkOpened(d *document) {
	s.checkFull(d, s.targets(d)[:1])
}

// checkFull runs the full evaluation of each of targets, the hosts of the
// document d, and publishes every diagnostic at every place it names (see
// checkSaved).
func (s *Server) checkFull(d *document, targets []string) {
	uris := []string{d.uri}
	for i, t := range targets {
		ev, diags, loaded := s.merged(t)
		// The profile, as nodegen eval builds it when loading succeeded.
		if loaded {
			p, built := evalprofile.Build(ev)
			diags = append(diags, built...)
			if !built.HasErrors() {
				// The checks of the files by the programs that read
				// them (sshd -t, nft -c, ...: scripts the modules
				// chose), only when the user enabled them
				// (Options.Checks), as nodegen eval --checks runs them.
				_, checked := evalprofile.RunChecks(ev, p.Entries, s.checks)
				diags = append(diags, checked...)
			}
			warns, _ := ev.Assertions()
			msgs := map[string]bool{}
			for _, w := range warns {
				msgs[w.Message] = true
				rng := w.Range
				diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: w.Message, Subject: &rng})
			}
			// The warnings of the checks of the profile are located
			// already (built): the others are the file's.
			for _, w := range p.Warnings {
				if evalprofile.LocatedWarning(w, built) != nil {
					msgs[w] = true
				}
			}
			for _, w := range p.Warnings {
				if !msgs[w] {
					diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagWarning, Summary: w})
				}
			}
		}
		if i == 0 {
			d.ev = ev // queries answer from the first host, as after a change
		}
		s.recordFiles(t, ev)
		host, _ := s.nameURI(t)
		uris = append(uris, host)
		uris = append(uris, s.record(t, s.located(ev.Files(), eval.Dedupe(diags), &host))...)
	}
	s.publishRecorded(uris)
}

// record keeps the diagnostics of an evaluation (named key: a host, a
// test file) and returns the URIs whose diagnostics it changes: those it
// has some in, and those its last evaluation had some in.
func (s *Server) record(key string, located []locatedDiagnostic) []string {
	var uris []string
	for u := range s.keyDiags[key] {
		uris = append(uris, u)
	}
	byURI := map[string][]locatedDiagnostic{}
	for _, ld := range located {
		uris = append(uris, ld.uri)
		byURI[ld.uri] = append(byURI[ld.uri], ld)
	}
	s.keyDiags[key] = byURI
	return uris
}

// publishRecorded publishes, in each file of uris, the diagnostics every
// key's last evaluation has there (a role two hosts import shows the
// errors of both), none when there are none. The library's files are left
// out: they are not the user's to fix.
func (s *Server) publishRecorded(uris []string) {
	set := map[string]bool{}
	for _, u := range uris {
		set[u] = true
	}
	for _, u := range slices.Sorted(maps.Keys(set)) {
		if s.isLibraryURI(u) {
			continue
		}
		var all []locatedDiagnostic
		for _, k := range slices.Sorted(maps.Keys(s.keyDiags)) {
			all = append(all, s.keyDiags[k][u]...)
		}
		var version *int
		if od := s.docs[u]; od != nil {
			v := od.version
			version = &v
		}
		s.publishVersion(u, version, forURI(all, u))
	}
}

func (s *Server) isLibraryURI(u string) bool {
	p, err := uriPath(u)
	if err != nil {
		return false
	}
	_, ok := s.libraryName(p)
	return ok
}

func (s *Server) publish(uri string, version int, diags []Diagnostic) {
	s.publishVersion(uri, &version, diags)
}

func (s *Server) publishVersion(uri string, version *int, diags []Diagnostic) {
	if diags == nil {
		diags = []Diagnostic{}
	}
	_ = s.notify("textDocument/publishDiagnostics", publishDiagnosticsParams{URI: uri, Version: version, Diagnostics: diags})
}

// locatedDiagnostic is a diagnostic in a document.
type locatedDiagnostic struct {
	uri string
	Diagnostic
}

func forURI(ds []locatedDiagnostic, uri string) []Diagnostic {
	out := []Diagnostic{}
	seen := map[string]bool{}
	for _, d := range ds {
		if d.uri != uri {
			continue
		}
		key := d.Message + "\x00" + strconv.Itoa(d.Range.Start.Line) + ":" + strconv.Itoa(d.Range.Start.Character)
		if seen[key] {
			continue
		}
		seen[key] = true
		out = append(out, d.Diagnostic)
	}
	return out
}

// quoted matches the places a message quotes: file:line:col, the file
// one of the evaluation's (host.hcl:2:14,
// <nodegen>/modules/misc/assertions.hcl:28:1).
var quoted = regexp.MustCompile(`((?:<nodegen>/)?[^\s:(),"'<>]+\.hcl):(\d+):(\d+)`)

// located places each diagnostic at its subject and at every place of an
// evaluated file its message quotes (each definition of a conflict, what
// an assertion read), each copy naming the others as related. A
// diagnostic with no place in the user's files is placed at the start of
// fallback, if given (the library's files are not published).
func (s *Server) located(files map[string]*hcl.File, diags hcl.Diagnostics, fallback *string) []locatedDiagnostic {
	display := s.displayNames(files)
	var out []locatedDiagnostic
	for _, d := range diags {
		msg := d.Summary
		if d.Detail != "" {
			msg += "\n\n" + d.Detail
		}
		msg = display.Replace(msg)
		sev := severityError
		if d.Severity == hcl.DiagWarning {
			sev = severityWarning
		}
		// The places, each once: a quoted place where the subject starts
		// is the subject.
		var locs []Location
		type place struct {
			uri   string
			start Position
		}
		seen := map[place]bool{}
		add := func(l Location) {
			if p := (place{l.URI, l.Range.Start}); !seen[p] {
				seen[p] = true
				locs = append(locs, l)
			}
		}
		if d.Subject != nil {
			if uri, ok := s.nameURI(d.Subject.Filename); ok {
				if t := s.fileText(d.Subject.Filename); t != nil {
					add(Location{URI: uri, Range: t.rangeOf(*d.Subject, s.enc)})
				}
			}
		}
		for _, m := range quoted.FindAllStringSubmatch(d.Detail, -1) {
			name := m[1]
			if files[name] == nil {
				continue
			}
			uri, ok := s.nameURI(name)
			if !ok {
				continue
			}
			t := s.fileText(name)
			if t == nil {
				continue
			}
			line, _ := strconv.Atoi(m[2])
			col, _ := strconv.Atoi(m[3])
			a, b := t.restOfLine(t.lineColumn(line, col))
			add(Location{URI: uri, Range: Range{t.position(a, s.enc), t.position(b, s.enc)}})
		}
		if !slices.ContainsFunc(locs, func(l Location) bool { return !s.isLibraryURI(l.URI) }) {
			// Nothing in the user's files (a warning of the library's
			// about the host's settings): shown at the start of the
			// file checked, the library's places as related.
			if fallback == nil {
				continue
			}
			locs = append([]Location{{URI: *fallback}}, locs...)
		}
		for i, l := range locs {
			ld := locatedDiagnostic{uri: l.URI, Diagnostic: Diagnostic{Range: l.Range, Severity: sev, Source: "nodegen", Message: msg}}
			for j, o := range locs {
				if j != i {
					ld.RelatedInformation = append(ld.RelatedInformation, relatedInformation{Location: o, Message: relatedMessage(j, d)})
				}
			}
			out = append(out, ld)
		}
	}
	return out
}

// relatedMessage names the j-th place of a diagnostic: its subject, or a
// place its message quotes.
func relatedMessage(j int, d *hcl.Diagnostic) string {
	if j == 0 && d.Subject != nil {
		return d.Summary
	}
	return "involved: " + d.Summary
}

// displayNames rewrites the names of an evaluation's user files in a
// message as a user reads them: relative to the workspace root when below
// it, else absolute (evaluations name them by their path inside the
// overlay, without the leading slash).
func (s *Server) displayNames(files map[string]*hcl.File) *strings.Replacer {
	names := make([]string, 0, len(files))
	for name := range files {
		if !strings.HasPrefix(name, "<") {
			names = append(names, name)
		}
	}
	// The longest first, so that no name is replaced inside a longer one.
	sort.Slice(names, func(i, j int) bool {
		return len(names[i]) > len(names[j]) || len(names[i]) == len(names[j]) && names[i] < names[j]
	})
	var pairs []string
	for _, name := range names {
		pairs = append(pairs, name, s.display(name))
	}
	return strings.NewReplacer(pairs...)
}

// display is how a user file's name is shown.
func (s *Server) display(name string) string {
	if s.root != "" {
		if rel, ok := strings.CutPrefix(name, s.root+"/"); ok {
			return rel
		}
	}
	return "/" + name
}
