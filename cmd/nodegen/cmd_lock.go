package main

import (
	"bytes"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/spf13/pflag"

	"github.com/nodegen/nodegen/eval"
	"github.com/nodegen/nodegen/evalprofile"
	"github.com/nodegen/nodegen/internal/assetfetch"
	"github.com/nodegen/nodegen/internal/assetlock"
	"github.com/nodegen/nodegen/internal/runtimetune"
)

func init() {
	commands = append(commands, &command{
		name:    "lock",
		summary: "Download the assets no hash pins and record their sha512s in nodegen.lock.hcl.",
		usage:   "nodegen lock [--check] [--prune] [--bare] [--show-trace] [--limit NAME=VALUE] HOST.hcl...",
		help: `Each HOST.hcl is a host of its own, evaluated with the module library (as
"nodegen build" does). Every asset of a host (environment.assets) whose hash
neither the library nor the host gives is downloaded from its url, through
the host's environment.assetMirrors, and its URL, size and sha512 are
recorded in nodegen.lock.hcl beside the host file, which eval, build,
switch and deploy then read: such an asset takes its sha512 from there.
Commit the lock file with the host files.

An asset the lock file has already is not downloaded again; its entry is
kept. Entries of assets that a host now pins are removed. Entries that none
of the given hosts uses (another host's, or an old release's) are kept,
unless --prune removes them. The file is sorted by URL and written
atomically, and only when its content changes: the same hosts and
downloads give the same bytes.

With --check, nothing is written: every asset the hosts need must have an
entry, and each is downloaded again and compared, size and sha512, with its
entry. Each missing or different asset is named (with the expected and the
downloaded hash), and the exit status is 1.`,
		example: "nodegen lock hosts/master.hcl hosts/worker.hcl\nnodegen lock --check hosts/*.hcl",
		args:    argsModules,
		flags:   lockCommand,
		gc:      runtimetune.ManyEvaluations,
	})
}

// maxLockedSize bounds a download of nodegen lock, as the switch bounds
// the assets it installs.
const maxLockedSize = 4 << 30

func lockCommand(fs *pflag.FlagSet) func([]string, io.Writer, io.Writer) int {
	var ef evalFlags
	check := fs.Bool("check", false, "write nothing: download every locked asset again and compare it with the lock file; exit 1 naming what is missing or different")
	prune := fs.Bool("prune", false, "remove the entries that none of the given hosts uses")
	ef.add(fs)
	return func(args []string, stdout, stderr io.Writer) int {
		c := findCommand("lock")
		if len(args) == 0 {
			return usageError(stderr, c, "no host given")
		}
		if *check && *prune {
			return usageError(stderr, c, "--check writes nothing: it cannot be used with --prune")
		}
		return runLock(args, &ef, *check, *prune, stdout, stderr)
	}
}

// lockNeed is an asset that a lock file must lock: one with no hash.
type lockNeed struct {
	url    string
	source string // where it is downloaded from (its mirror, or url)
	users  []string
}

// lockDir is what one lock file must hold: the assets of the hosts beside
// it.
type lockDir struct {
	path   string
	hosts  []string
	seen   map[string]bool // hosts given
	need   map[string]*lockNeed
	pinned map[string]bool // URLs a host gives a hash of
	// maxFile bounds the lock file's size (--limit file).
	maxFile int64
}

func runLock(args []string, ef *evalFlags, check, prune bool, stdout, stderr io.Writer) int {
	dirs, code := lockDirs(args, ef, stderr)
	if code != exitOK {
		fmt.Fprintln(stderr, "nodegen lock: no lock file was written")
		return code
	}
	for _, d := range dirs {
		var c int
		if check {
			c = d.check(stdout, stderr)
		} else {
			c = d.write(prune, stdout, stderr)
		}
		code = max(code, c)
	}
	return code
}

// lockDirs evaluates the hosts, without their lock files, and collects
// the assets each lock file must lock, in the order of the hosts given.
func lockDirs(args []string, ef *evalFlags, stderr io.Writer) ([]*lockDir, int) {
	byPath := map[string]*lockDir{}
	var dirs []*lockDir
	code := exitOK
	fleet := eval.NewFleet()
	for _, host := range args {
		path := assetlock.Path(host)
		d := byPath[path]
		if d == nil {
			d = &lockDir{path: path, seen: map[string]bool{}, need: map[string]*lockNeed{}, pinned: map[string]bool{}, maxFile: ef.limits.FileBytes}
			byPath[path] = d
			dirs = append(dirs, d)
		}
		if d.seen[host] {
			continue
		}
		d.seen[host] = true
		d.hosts = append(d.hosts, host)
		cfg := ef.config([]string{host})
		cfg.Fleet = fleet
		// Without the lock file: what it locks has no hash then.
		ev, diags := eval.New(cfg)
		if !diags.HasErrors() {
			var assets []assetOf
			assets, diags = hostAssets(ev)
			for _, a := range assets {
				if a.pinned {
					d.pinned[a.url] = true
					continue
				}
				n := d.need[a.url]
				if n == nil {
					n = &lockNeed{url: a.url, source: a.source}
					d.need[a.url] = n
				}
				n.users = append(n.users, fmt.Sprintf("%s (%s)", host, a.option))
			}
		}
		if diags.HasErrors() {
			fmt.Fprintf(stderr, "%s: its evaluation failed:\n", host)
			printDiags(stderr, ev.Files(), diags)
			code = exitError
		}
	}
	return dirs, code
}

// assetOf is an asset of a host, as the lock sees it.
type assetOf struct {
	url, source, option string
	pinned              bool // the library or the host gives its hash
}

// hostAssets lists a host's enabled assets.
func hostAssets(ev *eval.Evaluator) ([]assetOf, hcl.Diagnostics) {
	assets, diags := evalprofile.Assets(ev)
	out := make([]assetOf, 0, len(assets))
	for _, a := range assets {
		if why := assetfetch.CheckURL(a.URL); why != "" {
			continue // Build reports it
		}
		out = append(out, assetOf{url: a.URL, source: a.Source(), option: a.Option, pinned: a.SHA256 != "" || a.SHA512 != ""})
	}
	return out, diags
}

// sortedNeeds returns the assets to lock by URL.
func (d *lockDir) sortedNeeds() []*lockNeed {
	out := make([]*lockNeed, 0, len(d.need))
	for _, n := range d.need {
		out = append(out, n)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].url < out[j].url })
	return out
}

// fetch downloads an asset to lock and reports it on stderr.
func (n *lockNeed) fetch(stderr io.Writer) (assetfetch.Sum, error) {
	if n.source != n.url {
		fmt.Fprintf(stderr, "downloading %s (from %s)\n", n.url, n.source)
	} else {
		fmt.Fprintf(stderr, "downloading %s\n", n.url)
	}
	return assetfetch.Fetch(n.source, maxLockedSize)
}

// readExisting reads the directory's lock file; ok is false (the errors
// printed) when it cannot be read.
func (d *lockDir) readExisting(stderr io.Writer) (*assetlock.File, []byte, bool) {
	f, _, diags := assetlock.ReadHost(d.path, d.maxFile)
	if diags.HasErrors() {
		files := map[string]*hcl.File{}
		if f.Source != nil {
			files[d.path] = f.Source
		}
		printDiags(stderr, files, diags)
		return nil, nil, false
	}
	var old []byte
	if f.Source != nil {
		old = f.Source.Bytes
	}
	return f, old, true
}

// write adds the missing entries to the lock file and writes it when it
// changed.
func (d *lockDir) write(prune bool, stdout, stderr io.Writer) int {
	old, oldBytes, ok := d.readExisting(stderr)
	if !ok {
		fmt.Fprintf(stderr, "nodegen lock: %s not written: fix its errors, or remove it to lock every asset again\n", d.path)
		return exitError
	}
	var entries []assetlock.Entry
	var failed []string
	downloaded, kept, dropped, unused := 0, 0, 0, 0
	for _, n := range d.sortedNeeds() {
		if e, ok := old.Lookup(n.url); ok {
			entries = append(entries, assetlock.Entry{URL: e.URL, Size: e.Size, SHA512: e.SHA512})
			kept++
			continue
		}
		sum, err := n.fetch(stderr)
		if err != nil {
			failed = append(failed, fmt.Sprintf("  %s (for %s): %s", n.url, strings.Join(n.users, ", "), err))
			continue
		}
		entries = append(entries, assetlock.Entry{URL: n.url, Size: sum.Size, SHA512: sum.SHA512})
		downloaded++
	}
	for _, e := range old.Entries {
		switch {
		case d.need[e.URL] != nil:
		case d.pinned[e.URL]:
			dropped++
		case prune:
			unused++
		default:
			entries = append(entries, assetlock.Entry{URL: e.URL, Size: e.Size, SHA512: e.SHA512})
			unused++
		}
	}
	if len(failed) > 0 {
		fmt.Fprintf(stderr, "nodegen lock: %s not written: %d asset(s) could not be downloaded:\n%s\n", d.path, len(failed), strings.Join(failed, "\n"))
		return exitError
	}
	summary := fmt.Sprintf("%d asset(s) locked (%d downloaded, %d kept)", len(d.need), downloaded, kept)
	if dropped > 0 {
		summary += fmt.Sprintf(", %d entry(ies) removed that a host now pins", dropped)
	}
	switch {
	case unused > 0 && prune:
		summary += fmt.Sprintf(", %d unused entry(ies) removed", unused)
	case unused > 0:
		summary += fmt.Sprintf(", %d entry(ies) that none of these hosts uses kept (--prune removes them)", unused)
	}
	if len(entries) == 0 && oldBytes == nil {
		fmt.Fprintf(stdout, "%s: not written: every asset has a hash from the library or the host\n", d.path)
		return exitOK
	}
	data := assetlock.New(entries).Format()
	if bytes.Equal(data, oldBytes) {
		fmt.Fprintf(stdout, "%s: unchanged: %s\n", d.path, summary)
		return exitOK
	}
	if err := writeFileAtomic(d.path, data); err != nil {
		fmt.Fprintf(stderr, "nodegen lock: %s\n", err)
		return exitError
	}
	fmt.Fprintf(stdout, "wrote %s: %s\n", d.path, summary)
	return exitOK
}

// check downloads every asset the hosts need and compares it with its
// entry; it writes nothing.
func (d *lockDir) check(stdout, stderr io.Writer) int {
	lock, _, ok := d.readExisting(stderr)
	if !ok {
		return exitError
	}
	var problems []string
	needs := d.sortedNeeds()
	for _, n := range needs {
		e, ok := lock.Lookup(n.url)
		if !ok {
			problems = append(problems, fmt.Sprintf("  %s (for %s): no entry: run nodegen lock %s", n.url, strings.Join(n.users, ", "), strings.Join(d.hosts, " ")))
			continue
		}
		sum, err := n.fetch(stderr)
		switch {
		case err != nil:
			problems = append(problems, fmt.Sprintf("  %s (for %s): %s", n.url, strings.Join(n.users, ", "), err))
		case sum.SHA512 != e.SHA512:
			problems = append(problems, fmt.Sprintf("  %s: sha512 mismatch: expected %s (%s), got %s (downloaded from %s, %d bytes)", n.url, e.SHA512, at(e.SHA512Range), sum.SHA512, n.source, sum.Size))
		case sum.Size != e.Size:
			problems = append(problems, fmt.Sprintf("  %s: size mismatch: expected %d bytes (%s), got %d (downloaded from %s)", n.url, e.Size, at(e.SizeRange), sum.Size, n.source))
		}
	}
	if len(problems) > 0 {
		fmt.Fprintf(stderr, "nodegen lock --check: %s: %d of %d asset(s) missing or different:\n%s\n", d.path, len(problems), len(needs), strings.Join(problems, "\n"))
		return exitError
	}
	fmt.Fprintf(stdout, "%s: %d asset(s) checked: every download matches its entry\n", d.path, len(needs))
	return exitOK
}

// at names a position in a file as FILE:LINE:COLUMN.
func at(r hcl.Range) string {
	return fmt.Sprintf("%s:%d:%d", r.Filename, r.Start.Line, r.Start.Column)
}
