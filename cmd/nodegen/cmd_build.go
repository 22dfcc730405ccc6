package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/spf13/pflag"
	"golang.org/x/term"

	"github.com/nodegen/nodegen/eval"
	"github.com/nodegen/nodegen/evalprofile"
	"github.com/nodegen/nodegen/internal/runtimetune"
	"github.com/nodegen/nodegen/profile"
)

func init() {
	commands = append(commands, &command{
		name:    "build",
		summary: "Build the profiles of many hosts in one run, in parallel.",
		usage:   "nodegen build [-o DIR] [-j N] [--json] [--bare] [--show-trace] [--fleet FLEET.hcl] HOST.hcl...",
		help: `Each HOST.hcl is a host of its own: it is evaluated with the module
library (as "nodegen eval HOST.hcl" would), and its profile is written to
DIR/NAME, NAME being the file's name without .hcl. The hosts are a fleet:
a module reads another host's options as hosts.NAME.config.PATH (with
--fleet FLEET.hcl, the fleet file's hosts too; given no HOST.hcl, build
builds the fleet file's hosts). Two hosts with the same
name are a usage error. The library is parsed once for all hosts, and the
hosts are evaluated N at a time (default: one per CPU). Hosts that declare
the same options (the library's, and those of the modules they import) share
one declared option tree; a host that declares options of its own has its
own.

The profiles are written without a sync each, and made durable by one sync
of DIR at the end: when build exits, every profile it reports built is on
disk. A host that fails is reported with its name and its errors; the
others are built all the same, and the exit status is 1.

On a terminal, stderr shows a progress bar (hosts done, rate, time left);
otherwise a line per host, in the order given. The summary (hosts built and
failed, files, time) ends the run. With --json, stdout is one JSON document
with a result per host (name, ok, profile, files, warnings, errors) and the
totals; the output is the same whatever N.`,
		example: "nodegen build -o results hosts/*.hcl\nnodegen build -j 2 --json hosts/web01.hcl hosts/web02.hcl",
		args:    argsModules,
		flags:   buildCommand,
		gc:      runtimetune.ManyEvaluations,
	})
}

func buildCommand(fs *pflag.FlagSet) func([]string, io.Writer, io.Writer) int {
	var ef evalFlags
	out := fs.StringP("out", "o", "results", "the directory to write the profiles to, one `DIR`/NAME per host")
	completeWith(fs, "out", completeDirs)
	jobs := fs.IntP("jobs", "j", 0, "evaluate `N` hosts at once (default: one per CPU)")
	completeWith(fs, "jobs", completeFree)
	asJSON := fs.Bool("json", false, "print the results as one JSON document")
	ef.add(fs)
	return func(args []string, stdout, stderr io.Writer) int {
		return runBuild(args, &ef, *out, *jobs, *asJSON, stdout, stderr)
	}
}

// buildHost is one host of a build.
type buildHost struct {
	name string // the profile's directory name below the output
	file string // the host file, as given
}

// hostResult is what building one host gave.
type hostResult struct {
	Name     string   `json:"name"`
	File     string   `json:"file"`
	OK       bool     `json:"ok"`
	Profile  string   `json:"profile,omitempty"`
	Files    int      `json:"files"`
	Warnings []string `json:"warnings"`
	Errors   []string `json:"errors"`
	// report is the rendered diagnostics, for the text output.
	report []byte
	// prof is the evaluated profile until it is written.
	prof profile.Profile
}

func runBuild(args []string, ef *evalFlags, out string, jobs int, asJSON bool, stdout, stderr io.Writer) int {
	c := findCommand("build")
	if len(args) == 0 {
		// With --fleet alone, the fleet's hosts.
		for _, h := range ef.fleetHosts {
			args = append(args, h.File)
		}
	}
	switch {
	case len(args) == 0:
		return usageError(stderr, c, "no host given")
	case out == "":
		return usageError(stderr, c, "-o needs a directory, not an empty string")
	case jobs < 0:
		return usageError(stderr, c, "-j %d: want a positive number of hosts at once", jobs)
	}
	hosts, err := buildHosts(args)
	if err != nil {
		return usageError(stderr, c, "%s", err)
	}
	if jobs == 0 {
		jobs = runtime.GOMAXPROCS(0)
	}
	start := time.Now()
	// The profiles are written side by side in out: what interrupted
	// writes left there is cleaned up once, not before each host's.
	batch, err := profile.NewBatch(out)
	if err != nil {
		fmt.Fprintf(stderr, "nodegen build: %s: %s\n", out, err)
		return exitError
	}
	prog := newProgress(stderr, len(hosts), start)
	results := make([]hostResult, len(hosts))
	emit := inOrder(len(hosts), func(i int) {
		prog.report(&results[i])
		if !asJSON {
			// Reported: only the counts are needed from here on, so
			// that what the build holds does not grow with its hosts'
			// messages.
			results[i].Warnings, results[i].Errors, results[i].report = nil, nil, nil
		}
	})
	// Evaluations run jobs at a time; one writer writes the profiles as
	// they come, since writes to one directory take turns anyway (see
	// profile.Write), and the evaluators need not wait for them.
	next := make(chan int)
	built := make(chan builtHost, jobs)
	// The hosts share the declared option trees they have in common,
	// and read each other (with those of --fleet).
	ef.addHosts(hosts)
	fleet := ef.sharedFleet()
	var evaluators sync.WaitGroup
	for range min(jobs, len(hosts)) {
		evaluators.Add(1)
		go func() {
			defer evaluators.Done()
			for i := range next {
				results[i] = evalHost(hosts[i], ef, fleet)
				if results[i].OK {
					built <- builtHost{i, results[i].prof}
				} else {
					emit(i)
				}
			}
		}()
	}
	wrote := make(chan struct{})
	go func() {
		defer close(wrote)
		for b := range built {
			results[b.i].write(batch, out, hosts[b.i].name, b.prof)
			emit(b.i)
		}
	}()
	for i := range hosts {
		next <- i
	}
	close(next)
	evaluators.Wait()
	close(built)
	<-wrote

	code := exitOK
	ok, failed, files := 0, 0, 0
	for _, r := range results {
		if r.OK {
			ok++
			files += r.Files
		} else {
			failed++
			code = exitError
		}
	}
	if ok > 0 {
		if err := profile.Sync(out); err != nil {
			fmt.Fprintf(stderr, "nodegen build: syncing %s: %s\n", out, err)
			code = exitError
		}
	}
	took := time.Since(start)
	prog.finish()
	summary := stdout
	if asJSON {
		summary = stderr
		writeBuildJSON(stdout, results, ok, failed, files)
	}
	fmt.Fprintf(summary, "built %d of %d hosts (%d files) to %s, %d failed, in %.2f s (%.1f hosts/s)\n",
		ok, len(hosts), files, out, failed, took.Seconds(), float64(len(hosts))/took.Seconds())
	return code
}

// buildHosts names the hosts: NAME is the file's base name without .hcl.
func buildHosts(files []string) ([]buildHost, error) {
	hosts := make([]buildHost, len(files))
	byName := map[string]string{}
	for i, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".hcl")
		if name == "" || name == "." || name == ".." || strings.HasPrefix(name, ".") {
			return nil, fmt.Errorf("%s: a host file needs a name that can be a directory (NAME.hcl, NAME not starting with a dot)", f)
		}
		if prev, ok := byName[name]; ok {
			return nil, fmt.Errorf("%s and %s are both host %q: each host needs a file name of its own", prev, f, name)
		}
		byName[name] = f
		hosts[i] = buildHost{name: name, file: f}
	}
	return hosts, nil
}

// builtHost is the profile of host i, evaluated, to be written.
type builtHost struct {
	i    int
	prof profile.Profile
}

// evalHost evaluates one host of the fleet and builds its profile; the
// result is OK when the profile is ready to be written (see write).
func evalHost(h buildHost, ef *evalFlags, fleet *eval.Fleet) hostResult {
	r := hostResult{Name: h.name, File: h.file, Warnings: []string{}, Errors: []string{}}
	cfg := ef.config([]string{h.file})
	cfg.Fleet = fleet
	cfg.Host = h.name
	ev, diags := newEvaluator(cfg)
	if diags.HasErrors() {
		return r.failed(ev.Files(), diags)
	}
	p, diags := evalprofile.Build(ev)
	r.Warnings = append(r.Warnings, profileWarnings(p, diags)...)
	if diags.HasErrors() {
		return r.failed(ev.Files(), diags)
	}
	r.OK, r.prof = true, p
	return r
}

// write writes the host's profile to out/name with batch, unsynced, and
// records the outcome.
func (r *hostResult) write(batch *profile.Batch, out, name string, p profile.Profile) {
	r.prof = profile.Profile{}
	dir := filepath.Join(out, name)
	if err := batch.WriteUnsynced(name, p); err != nil {
		r.OK = false
		r.Errors = append(r.Errors, err.Error())
		r.report = fmt.Appendf(nil, "Error: %s\n", err)
		return
	}
	r.Profile = dir
	for _, e := range p.Entries {
		if e.Mode != profile.TypeSymlink {
			r.Files++
		}
	}
}

// failed records the errors of diags, and renders them as eval prints them.
func (r hostResult) failed(files map[string]*hcl.File, diags hcl.Diagnostics) hostResult {
	for _, d := range diags {
		if d.Severity != hcl.DiagError {
			continue
		}
		msg := d.Summary
		if d.Detail != "" {
			msg += ": " + d.Detail
		}
		if d.Subject != nil {
			msg = fmt.Sprintf("%s:%d:%d: %s", d.Subject.Filename, d.Subject.Start.Line, d.Subject.Start.Column, msg)
		}
		r.Errors = append(r.Errors, msg)
	}
	var buf bytes.Buffer
	printDiags(&buf, files, diags)
	r.report = buf.Bytes()
	return r
}

func writeBuildJSON(w io.Writer, results []hostResult, built, failed, files int) {
	doc := struct {
		Hosts  []hostResult `json:"hosts"`
		Built  int          `json:"built"`
		Failed int          `json:"failed"`
		Files  int          `json:"files"`
	}{results, built, failed, files}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	_ = enc.Encode(doc)
}

// inOrder returns a function to call when item i of n is done; it calls
// emit for each item once every item before it was emitted, so that the
// output is in the order of the items whatever order they finish in.
func inOrder(n int, emit func(i int)) func(i int) {
	var mu sync.Mutex
	done := make([]bool, n)
	next := 0
	return func(i int) {
		mu.Lock()
		defer mu.Unlock()
		done[i] = true
		for next < n && done[next] {
			emit(next)
			next++
		}
	}
}

// progress reports a build on stderr: a bar redrawn in place on a
// terminal, else a line per host.
type progress struct {
	w        io.Writer
	total    int
	done     int
	start    time.Time
	terminal bool
	width    int
	drawn    time.Time // when the bar was last drawn
	now      func() time.Time
}

func newProgress(w io.Writer, total int, start time.Time) *progress {
	p := &progress{w: w, total: total, start: start, now: time.Now}
	if f, ok := w.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		p.terminal = true
		p.width = 80
		if wd, _, err := term.GetSize(int(f.Fd())); err == nil && wd > 0 {
			p.width = wd
		}
	}
	return p
}

// report prints the outcome of one host: its warnings and errors and, on
// a terminal, the bar; elsewhere a line. Calls come in the hosts' order.
func (p *progress) report(r *hostResult) {
	p.done++
	var b bytes.Buffer
	for _, w := range r.Warnings {
		fmt.Fprintf(&b, "%s: warning: %s\n", r.Name, w)
	}
	if !r.OK {
		fmt.Fprintf(&b, "%s: failed (%s):\n", r.Name, r.File)
		b.Write(r.report)
	}
	switch {
	case !p.terminal && r.OK:
		fmt.Fprintf(&b, "[%*d/%d] %s: %d files\n", len(fmt.Sprint(p.total)), p.done, p.total, r.Name, r.Files)
	case !p.terminal:
		fmt.Fprintf(&b, "[%*d/%d] %s: FAILED\n", len(fmt.Sprint(p.total)), p.done, p.total, r.Name)
	default:
		now := p.now()
		if b.Len() == 0 && p.done < p.total && now.Sub(p.drawn) < 100*time.Millisecond {
			return // nothing new but the count: redraw at most ten times a second
		}
		p.drawn = now
		// Clear the bar's line, print the messages, draw the bar anew.
		b = *bytes.NewBuffer(append([]byte("\r\033[K"), b.Bytes()...))
		b.WriteString(progressBar(p.done, p.total, now.Sub(p.start), p.width))
	}
	p.w.Write(b.Bytes())
}

// finish ends the bar's line.
func (p *progress) finish() {
	if p.terminal {
		io.WriteString(p.w, "\r\033[K")
	}
}

// progressBar draws done of total hosts after elapsed, in width columns:
//
//	[=========>          ] 450/1000 hosts  112.5/s  ETA 5s
func progressBar(done, total int, elapsed time.Duration, width int) string {
	rate := 0.0
	if s := elapsed.Seconds(); s > 0 {
		rate = float64(done) / s
	}
	eta := "?"
	if rate > 0 {
		eta = (time.Duration(float64(total-done)/rate*float64(time.Second)) + time.Second/2).Truncate(time.Second).String()
	}
	text := fmt.Sprintf(" %d/%d hosts  %.1f/s  ETA %s", done, total, rate, eta)
	cells := min(width-len(text)-3, 40)
	if cells < 5 {
		return strings.TrimPrefix(text, " ")
	}
	filled := cells * done / max(total, 1)
	bar := strings.Repeat("=", filled)
	if filled < cells {
		bar += ">" + strings.Repeat(" ", cells-filled-1)
	}
	return "[" + bar + "]" + text
}
