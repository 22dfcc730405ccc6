package modtest

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"

	"github.com/nodegen/nodegen/eval"
)

// Report collects results and writes them, as text while they come or as
// one JSON document at the end.
type Report struct {
	w    io.Writer
	json bool
	// Diags renders diagnostics with source snippets (the command line's
	// printer); nil writes them without.
	diags func(w io.Writer, files map[string]*hcl.File, diags hcl.Diagnostics)

	Passed, Failed, Skipped int
	// skipReasons are the distinct reasons of skipped runs, in order.
	skipReasons []string
	files       []jsonFile
	// blank is true when the text so far ends with an empty line.
	blank bool
}

// NewTextReport makes a report that writes text to w: a line per file and
// per run, each failure's diagnostics rendered by printDiags, and at Close
// the line "N passed, N failed".
func NewTextReport(w io.Writer, printDiags func(io.Writer, map[string]*hcl.File, hcl.Diagnostics)) *Report {
	return &Report{w: w, diags: printDiags}
}

// NewJSONReport makes a report that writes one JSON document to w at
// Close.
func NewJSONReport(w io.Writer) *Report {
	return &Report{w: w, json: true}
}

// File adds the result of one file.
func (r *Report) File(fr *FileResult) {
	if fr.Diags.HasErrors() {
		r.Failed++
	}
	for _, run := range fr.Runs {
		switch {
		case run.Skipped != "":
			r.Skipped++
			if !slices.Contains(r.skipReasons, run.Skipped) {
				r.skipReasons = append(r.skipReasons, run.Skipped)
			}
		case run.Passed:
			r.Passed++
		default:
			r.Failed++
		}
	}
	if r.json {
		r.files = append(r.files, toJSONFile(fr))
		return
	}
	r.blank = false
	switch {
	case fr.Diags.HasErrors():
		fmt.Fprintf(r.w, "%s... fail\n", fr.Path)
		r.printDiags(fr.Files, fr.Diags)
		return
	case fr.NoRuns:
		fmt.Fprintf(r.w, "%s... no runs\n", fr.Path)
		return
	}
	fmt.Fprintln(r.w, fr.Path)
	for _, run := range fr.Runs {
		status := "pass"
		switch {
		case run.Skipped != "":
			status = "skip: " + run.Skipped
		case !run.Passed:
			status = "fail"
		}
		fmt.Fprintf(r.w, "  run %q... %s\n", run.Name, status)
		for _, n := range run.Notes {
			fmt.Fprintf(r.w, "    %s\n", n)
		}
		for _, w := range run.Warnings {
			fmt.Fprintf(r.w, "    warning: %s\n", w.Message)
		}
		if !run.Passed && run.Skipped == "" {
			r.printDiags(run.Files, run.Diags)
		} else {
			r.blank = false
		}
	}
}

func (r *Report) printDiags(files map[string]*hcl.File, diags hcl.Diagnostics) {
	fmt.Fprintln(r.w)
	r.blank = true
	if r.diags != nil {
		r.diags(r.w, files, diags)
		return
	}
	for _, d := range diags {
		fmt.Fprintf(r.w, "%s\n\n", d.Error())
	}
}

// Close writes the closing line, or the JSON document, and tells whether
// anything failed.
func (r *Report) Close() (failed bool) {
	if r.json {
		doc := jsonReport{Files: r.files, Passed: r.Passed, Failed: r.Failed, Skipped: r.Skipped}
		if doc.Files == nil {
			doc.Files = []jsonFile{}
		}
		enc := json.NewEncoder(r.w)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		_ = enc.Encode(doc)
		return r.Failed > 0
	}
	if r.Passed+r.Failed > 0 && !r.blank {
		fmt.Fprintln(r.w)
	}
	if r.Skipped > 0 {
		fmt.Fprintf(r.w, "%d passed, %d failed, %d skipped (%s)\n", r.Passed, r.Failed, r.Skipped, strings.Join(r.skipReasons, "; "))
	} else {
		fmt.Fprintf(r.w, "%d passed, %d failed\n", r.Passed, r.Failed)
	}
	return r.Failed > 0
}

type jsonReport struct {
	Files   []jsonFile `json:"files"`
	Passed  int        `json:"passed"`
	Failed  int        `json:"failed"`
	Skipped int        `json:"skipped,omitempty"`
}

type jsonFile struct {
	Path        string     `json:"path"`
	Status      string     `json:"status"`
	Diagnostics []jsonDiag `json:"diagnostics"`
	Runs        []jsonRun  `json:"runs"`
}

type jsonRun struct {
	Name        string     `json:"name"`
	Range       *jsonRange `json:"range"`
	Status      string     `json:"status"`
	Diagnostics []jsonDiag `json:"diagnostics"`
	Warnings    []string   `json:"warnings"`
	Skipped     string     `json:"skipped,omitempty"`
	Notes       []string   `json:"notes,omitempty"`
}

type jsonDiag struct {
	Severity string      `json:"severity"`
	Summary  string      `json:"summary"`
	Detail   string      `json:"detail,omitempty"`
	Range    *jsonRange  `json:"range,omitempty"`
	Assert   *jsonAssert `json:"assert,omitempty"`
}

type jsonAssert struct {
	ErrorMessage string      `json:"error_message"`
	Condition    string      `json:"condition"`
	Values       []jsonValue `json:"values"`
}

type jsonValue struct {
	Expr  string          `json:"expr"`
	Value json.RawMessage `json:"value,omitempty"`
	Error string          `json:"error,omitempty"`
}

type jsonRange struct {
	Filename string  `json:"filename"`
	Start    jsonPos `json:"start"`
	End      jsonPos `json:"end"`
}

type jsonPos struct {
	Line   int `json:"line"`
	Column int `json:"column"`
	Byte   int `json:"byte"`
}

func toJSONRange(r *hcl.Range) *jsonRange {
	if r == nil {
		return nil
	}
	return &jsonRange{
		Filename: r.Filename,
		Start:    jsonPos{r.Start.Line, r.Start.Column, r.Start.Byte},
		End:      jsonPos{r.End.Line, r.End.Column, r.End.Byte},
	}
}

func toJSONDiags(diags hcl.Diagnostics) []jsonDiag {
	out := []jsonDiag{}
	for _, d := range eval.Dedupe(diags) {
		sev := "error"
		if d.Severity == hcl.DiagWarning {
			sev = "warning"
		}
		jd := jsonDiag{Severity: sev, Summary: d.Summary, Detail: d.Detail, Range: toJSONRange(d.Subject)}
		if f, ok := d.Extra.(*AssertFailure); ok {
			ja := &jsonAssert{ErrorMessage: f.Message, Condition: f.Condition, Values: []jsonValue{}}
			for _, v := range f.Values {
				jv := jsonValue{Expr: v.Expr, Error: v.Error}
				if v.Error == "" {
					if b, err := eval.JSON(v.Value); err == nil {
						jv.Value = json.RawMessage(b)
					}
				}
				ja.Values = append(ja.Values, jv)
			}
			jd.Assert = ja
		}
		out = append(out, jd)
	}
	return out
}

func toJSONFile(fr *FileResult) jsonFile {
	jf := jsonFile{Path: fr.Path, Status: "pass", Diagnostics: toJSONDiags(fr.Diags), Runs: []jsonRun{}}
	if fr.Failed() {
		jf.Status = "fail"
	}
	for _, run := range fr.Runs {
		jr := jsonRun{Name: run.Name, Range: toJSONRange(&run.Range), Status: "pass", Diagnostics: toJSONDiags(run.Diags), Warnings: []string{}}
		switch {
		case run.Skipped != "":
			jr.Status, jr.Skipped = "skip", run.Skipped
		case !run.Passed:
			jr.Status = "fail"
		}
		jr.Notes = run.Notes
		for _, w := range run.Warnings {
			jr.Warnings = append(jr.Warnings, w.Message)
		}
		jf.Runs = append(jf.Runs, jr)
	}
	return jf
}
