package eval

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/nodegen/nodegen/internal/ctyelems"
	"github.com/nodegen/nodegen/lib"
	"github.com/nodegen/nodegen/options"
	"github.com/nodegen/nodegen/property"
)

// HostFile is one host of a fleet: its name (what hosts.NAME reads) and
// the files of its modules.
type HostFile struct {
	Name  string
	Files []string
}

// Hosts is a fleet of hosts evaluated together, whose modules read each
// other's configuration: hosts.NAME.config.PATH reads option PATH of host
// NAME, hosts.NAME.name is NAME, and hosts lists the names (colmena's and
// nixosTest's nodes).
//
// A host read by another is evaluated on demand, in a view of its own (an
// Evaluator of its files that shares the declared tree through the Fleet),
// and only as far as what is read needs: reading one option of a host
// forces that option and what it depends on. At most hostViews views are
// kept; the values read are kept by host and path, so that a value read by
// a thousand hosts is evaluated once. A read that depends on itself
// through other hosts (host a reads b, whose option reads a's option that
// reads b's) is a cycle, reported at the expressions that form it.
//
// Hosts is safe for concurrent use: a view is used by one evaluation at a
// time (a busy view is not waited for: the reader evaluates a view of its
// own), so that hosts built in parallel never wait on each other.
type Hosts struct {
	base  Config
	files map[string][]string
	names []string

	// namesTuple is keys(hosts): the names as a tuple of strings, made
	// once for every host of the fleet that reads it.
	namesTuple cty.Value

	mu     sync.Mutex
	views  []*hostView // least recently used first
	values map[hostKey]*hostValue
}

// hostViews bounds the views a Hosts keeps.
const hostViews = 8

// hostKey names a value read from another host.
type hostKey struct{ host, path string }

// hostValue is what reading a path of a host gave: a namespace (read
// further lazily) or a forced value, with the definitions of the option
// read, for the notes of fleet checks.
type hostValue struct {
	namespace bool
	value     cty.Value
	defined   []hcl.Range
	isDefault bool
	diags     hcl.Diagnostics
}

// hostView is the evaluation of one host for the others to read.
type hostView struct {
	mu    sync.Mutex
	name  string
	ev    *Evaluator
	diags hcl.Diagnostics // what New reported
}

// hostRead is one read of another host's option in the chain of reads
// that led to the evaluation at hand: the reader, what it read and where.
type hostRead struct {
	reader string
	key    hostKey
	rng    hcl.Range
	view   *hostView
	outer  *hostRead
}

// NewHosts returns the fleet of hosts, each evaluated (when another reads
// it) with base's library, limits, parse cache and Fleet and its own
// files. Names are unique; the caller checks that.
func NewHosts(hosts []HostFile, base Config) *Hosts {
	h := &Hosts{base: base, files: map[string][]string{}, values: map[hostKey]*hostValue{}}
	h.base.Files, h.base.Inline, h.base.Hosts, h.base.Host = nil, nil, h, ""
	for _, hf := range hosts {
		h.files[hf.Name] = hf.Files
		h.names = append(h.names, hf.Name)
	}
	slices.Sort(h.names)
	h.namesTuple = lib.KeysTuple(h.names)
	return h
}

// Names returns the names of the hosts, sorted.
func (h *Hosts) Names() []string { return slices.Clone(h.names) }

// Config returns the Config that evaluates host name as part of the fleet.
func (h *Hosts) Config(name string) Config {
	cfg := h.base
	cfg.Files = slices.Clone(h.files[name])
	cfg.Host = name
	return cfg
}

// view returns a view of host name for the chain of reads at, and a
// function that releases it. A view in the chain is used again (the same
// evaluation reads on); a kept view that another evaluation is using is
// not waited for: the reader gets a view of its own, not kept.
func (h *Hosts) view(name string, at *hostRead) (*hostView, func()) {
	for r := at; r != nil; r = r.outer {
		if r.view != nil && r.view.name == name {
			return r.view, func() {}
		}
	}
	h.mu.Lock()
	var v *hostView
	for i, kept := range h.views {
		if kept.name == name {
			v = kept
			h.views = append(slices.Delete(h.views, i, i+1), v)
			break
		}
	}
	if v == nil {
		v = &hostView{name: name}
		h.views = append(h.views, v)
		if len(h.views) > hostViews {
			h.views = slices.Delete(h.views, 0, 1)
		}
	}
	h.mu.Unlock()
	if !v.mu.TryLock() {
		v = &hostView{name: name}
		v.mu.Lock()
	}
	if v.ev == nil {
		v.ev, v.diags = New(h.Config(name))
	}
	return v, v.mu.Unlock
}

// read reads path p of host name for ev, at rng.
func (h *Hosts) read(ev *Evaluator, name string, p options.Path, rng hcl.Range) *hostValue {
	key := hostKey{name, p.String()}
	h.mu.Lock()
	got := h.values[key]
	h.mu.Unlock()
	if got == nil {
		got = h.evaluate(ev, key, p, rng)
	}
	if r := ev.recorder; r != nil && !got.namespace && !got.diags.HasErrors() && ev.recordsHere() {
		if !slices.ContainsFunc(r.hosts, func(o hostOptionRead) bool { return o.key == key }) {
			r.hosts = append(r.hosts, hostOptionRead{key: key, v: got})
		}
	}
	return got
}

// evaluate reads path p of host key.host in its view.
func (h *Hosts) evaluate(ev *Evaluator, key hostKey, p options.Path, rng hcl.Range) *hostValue {
	for r := ev.hostChain; r != nil; r = r.outer {
		if r.key == key {
			return &hostValue{value: cty.DynamicVal, diags: hcl.Diagnostics{h.cycleDiag(ev, key, rng)}}
		}
	}
	chain := &hostRead{reader: ev.cfg.Host, key: key, rng: rng, outer: ev.hostChain}
	view, release := h.view(key.host, chain)
	chain.view = view
	got := &hostValue{}
	if view.diags.HasErrors() {
		got.value, got.diags = cty.DynamicVal, view.diags
	} else {
		vev := view.ev
		saved := vev.hostChain
		vev.hostChain = chain
		if saved == nil {
			// A kept view serves reads for the whole run: the time limit
			// bounds each read, as the reader's own bounds it too.
			vev.started = time.Now()
		}
		got = vev.readForHost(p)
		vev.hostChain = saved
	}
	if got.diags.HasErrors() && view.ev != nil {
		// The errors are in the other host's files: the reader shows them.
		if ev.hostFiles == nil {
			ev.hostFiles = map[string]*hcl.File{}
		}
		for name, f := range view.ev.Files() {
			ev.hostFiles[name] = f
		}
	}
	release()
	if got.diags.HasErrors() {
		got.diags = append(copyDiags(got.diags), &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Cannot read another host",
			Detail:   fmt.Sprintf("Reading hosts.%s.config.%s failed: see the errors above, on host %s.", key.host, key.path, key.host),
			Subject:  rng.Ptr(),
		})
		// What failed may be this chain's cycle: not kept.
		return got
	}
	h.mu.Lock()
	if prev := h.values[key]; prev != nil {
		got = prev
	} else {
		h.values[key] = got
	}
	h.mu.Unlock()
	return got
}

// cycleDiag is the error of a read of key at rng that the chain of reads
// of ev is already making.
func (h *Hosts) cycleDiag(ev *Evaluator, key hostKey, rng hcl.Range) *hcl.Diagnostic {
	var reads []string
	reads = append(reads, fmt.Sprintf("host %s reads hosts.%s.config.%s at %s", ev.cfg.Host, key.host, key.path, options.ShowPos(rng)))
	for r := ev.hostChain; r != nil; r = r.outer {
		reads = append(reads, fmt.Sprintf("host %s reads hosts.%s.config.%s at %s", r.reader, r.key.host, r.key.path, options.ShowPos(r.rng)))
		if r.key == key {
			break
		}
	}
	slices.Reverse(reads)
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Cycle between hosts",
		Detail:   fmt.Sprintf("hosts.%s.config.%s depends on itself through other hosts:\n  %s", key.host, key.path, strings.Join(reads, "\n  ")),
		Subject:  rng.Ptr(),
	}
}

// readForHost reads path p for another host: a namespace stays lazy, an
// option's value is forced completely, with its definitions.
func (ev *Evaluator) readForHost(p options.Path) *hostValue {
	v := property.RefVal(&nsRef{inst: ev.top, n: ev.top.root})
	var diags hcl.Diagnostics
	rng := hcl.Range{Filename: commandLine, Start: hcl.InitialPos, End: hcl.InitialPos}
	for i, seg := range p {
		var d hcl.Diagnostics
		v, d = property.Shallow(v)
		diags = append(diags, d...)
		if !d.HasErrors() && v.IsKnown() && !v.IsNull() && v.Type().IsObjectType() && !ctyelems.HasAttr(v.Type(), seg) {
			d = hcl.Diagnostics{{
				Severity: hcl.DiagError,
				Summary:  "Unsupported attribute",
				Detail:   fmt.Sprintf("The value of %q on host %s does not have an attribute named %q.", p[:i].String(), ev.cfg.Host, seg),
			}}
			diags = append(diags, d...)
		}
		if d.HasErrors() {
			return &hostValue{value: cty.DynamicVal, diags: withoutCommandLine(diags)}
		}
		v, d = getAttr(v, seg, rng)
		diags = append(diags, d...)
		if d.HasErrors() {
			return &hostValue{value: cty.DynamicVal, diags: withoutCommandLine(diags)}
		}
	}
	v, d := property.Shallow(v)
	diags = append(diags, d...)
	if _, ok := property.AsRef(v); ok && !d.HasErrors() {
		return &hostValue{namespace: true, diags: withoutCommandLine(diags)}
	}
	dv, d := property.Deep(v)
	diags = append(diags, d...)
	got := &hostValue{value: dv, diags: withoutCommandLine(dedupe(diags))}
	if !diags.HasErrors() && ev.IsDeclared(p) {
		if x, xd := ev.explain(p, false); !xd.HasErrors() && x != nil {
			for _, def := range x.Definitions {
				if def.State == property.Won && !def.IsDefault {
					got.defined = append(got.defined, def.Range)
				}
			}
			got.isDefault = len(got.defined) == 0 && x.HasDefault
		}
	}
	return got
}

// keys lists the names of the namespace at p of host name.
func (h *Hosts) keys(ev *Evaluator, name string, p options.Path) ([]string, hcl.Diagnostics) {
	chain := &hostRead{reader: ev.cfg.Host, key: hostKey{name, p.String()}, outer: ev.hostChain}
	view, release := h.view(name, chain)
	defer release()
	if view.diags.HasErrors() {
		return nil, view.diags
	}
	vev := view.ev
	saved := vev.hostChain
	vev.hostChain = chain
	if saved == nil {
		vev.started = time.Now()
	}
	defer func() { vev.hostChain = saved }()
	v := property.RefVal(&nsRef{inst: vev.top, n: vev.top.root})
	for _, seg := range p {
		var d hcl.Diagnostics
		v, d = getAttr(v, seg, hcl.Range{})
		if d.HasErrors() {
			return nil, d
		}
	}
	v, d := property.Shallow(v)
	if r, ok := property.AsRef(v); ok && !d.HasErrors() {
		return r.Keys()
	}
	return nil, d
}

// recordsHere tells whether a read now is the assertion's own (see
// record): no option is being computed since the recording began.
func (ev *Evaluator) recordsHere() bool {
	r := ev.recorder
	for _, f := range ev.stack[min(r.base, len(ev.stack)):] {
		if f.opt != nil {
			return false
		}
	}
	return true
}

// hostOptionRead is an option of another host that an assertion read.
type hostOptionRead struct {
	key hostKey
	v   *hostValue
}

// hostsNote lists the options of other hosts an assertion read, each
// with its value and where the host defined it.
func hostsNote(reads []hostOptionRead) string {
	if len(reads) == 0 {
		return ""
	}
	lines := make([]string, 0, len(reads))
	for _, o := range reads {
		line := fmt.Sprintf("hosts.%s.config.%s = %s", o.key.host, o.key.path, options.ShowValue(o.v.value))
		switch {
		case len(o.v.defined) > 0:
			line += ", defined at " + showRanges(userFirst(o.v.defined))
		case o.v.isDefault:
			line += ", its default"
		}
		lines = append(lines, line)
	}
	return "The condition read of the other hosts:\n  " + strings.Join(lines, "\n  ")
}

// hostsRef is the value of hosts: the hosts of the fleet by name.
type hostsRef struct {
	ev *Evaluator
}

// names are the hosts hosts lists: the fleet's, or this host alone.
func (r *hostsRef) names() []string {
	if h := r.ev.cfg.Hosts; h != nil {
		return h.names
	}
	if r.ev.cfg.Host != "" {
		return []string{r.ev.cfg.Host}
	}
	return nil
}

// Attr implements property.Ref: host name.
func (r *hostsRef) Attr(name string, rng hcl.Range) (cty.Value, bool, hcl.Diagnostics) {
	ev := r.ev
	if name == ev.cfg.Host && name != "" {
		return property.RefVal(&hostRef{ev: ev, name: name, self: true}), true, nil
	}
	if ev.cfg.Hosts == nil {
		self := "this host is evaluated alone"
		if ev.cfg.Host != "" {
			self = fmt.Sprintf("host %s is evaluated alone", ev.cfg.Host)
		}
		return cty.DynamicVal, false, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Reading another host needs a fleet",
			Detail: fmt.Sprintf("This reads host %q, but %s: a host reads another only when they are evaluated together, in a fleet. "+
				"Evaluate it with --fleet FLEET.hcl, a fleet file whose hosts include %s (nodegen eval --fleet FLEET.hcl HOST), or build both (nodegen build HOST.hcl %s.hcl).", name, self, name, name),
			Subject: rng.Ptr(),
		}}
	}
	if _, ok := slices.BinarySearch(ev.cfg.Hosts.names, name); !ok {
		detail := fmt.Sprintf("The fleet has no host named %q: its hosts are those of the fleet file (--fleet) and those nodegen build or deploy is given.", name)
		if s := didYouMean(name, ev.cfg.Hosts.names); s != "" {
			detail += fmt.Sprintf(" Did you mean %q?", s)
		}
		return cty.DynamicVal, false, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Unknown host", Detail: detail, Subject: rng.Ptr()}}
	}
	return property.RefVal(&hostRef{ev: ev, name: name}), true, nil
}

// Keys implements property.Ref: the names of the hosts.
func (r *hostsRef) Keys() ([]string, hcl.Diagnostics) { return slices.Clone(r.names()), nil }

// keysTuple implements keysTupler: the fleet's names, made once.
func (r *hostsRef) keysTuple() cty.Value {
	if h := r.ev.cfg.Hosts; h != nil {
		return h.namesTuple
	}
	return lib.KeysTuple(r.names())
}

// Materialize implements property.Ref: every host, its whole
// configuration forced.
func (r *hostsRef) Materialize() (cty.Value, hcl.Diagnostics) {
	out := map[string]cty.Value{}
	var diags hcl.Diagnostics
	for _, n := range r.names() {
		v, _, d := r.Attr(n, hcl.Range{})
		diags = append(diags, d...)
		if d.HasErrors() {
			continue
		}
		v, d = property.Deep(v)
		diags = append(diags, d...)
		out[n] = v
	}
	return ctyelems.ObjectVal(out), diags
}

// hostRef is hosts.NAME: its name and its configuration.
type hostRef struct {
	ev   *Evaluator
	name string
	self bool // the host of the evaluation itself
}

// Attr implements property.Ref: name or config.
func (r *hostRef) Attr(name string, rng hcl.Range) (cty.Value, bool, hcl.Diagnostics) {
	switch name {
	case "name":
		return cty.StringVal(r.name), true, nil
	case "config":
		if r.self {
			return r.ev.top.configRef(), true, nil
		}
		return property.RefVal(&remoteRef{ev: r.ev, host: r.name}), true, nil
	}
	detail := fmt.Sprintf("A host has no attribute named %q: hosts.%s has name and config.", name, r.name)
	return cty.DynamicVal, false, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Unsupported attribute", Detail: detail, Subject: rng.Ptr()}}
}

// Keys implements property.Ref.
func (r *hostRef) Keys() ([]string, hcl.Diagnostics) { return []string{"config", "name"}, nil }

// Materialize implements property.Ref.
func (r *hostRef) Materialize() (cty.Value, hcl.Diagnostics) {
	cv, _, diags := r.Attr("config", hcl.Range{})
	cv, d := property.Deep(cv)
	return ctyelems.ObjectVal(map[string]cty.Value{"name": cty.StringVal(r.name), "config": cv}), append(diags, d...)
}

// remoteRef is a namespace of another host's configuration.
type remoteRef struct {
	ev   *Evaluator
	host string
	path options.Path
}

// Attr implements property.Ref: reading the option or namespace in the
// host's view.
func (r *remoteRef) Attr(name string, rng hcl.Range) (cty.Value, bool, hcl.Diagnostics) {
	p := append(slices.Clip(r.path), name)
	got := r.ev.cfg.Hosts.read(r.ev, r.host, p, rng)
	if got.namespace {
		return property.RefVal(&remoteRef{ev: r.ev, host: r.host, path: p}), true, got.diags
	}
	return got.value, !got.diags.HasErrors(), got.diags
}

// Keys implements property.Ref.
func (r *remoteRef) Keys() ([]string, hcl.Diagnostics) {
	return r.ev.cfg.Hosts.keys(r.ev, r.host, r.path)
}

// Materialize implements property.Ref: the namespace, forced.
func (r *remoteRef) Materialize() (cty.Value, hcl.Diagnostics) {
	keys, diags := r.Keys()
	if diags.HasErrors() {
		return cty.DynamicVal, diags
	}
	out := map[string]cty.Value{}
	for _, k := range keys {
		v, _, d := r.Attr(k, hcl.Range{})
		diags = append(diags, d...)
		v, d = property.Deep(v)
		diags = append(diags, d...)
		out[k] = v
	}
	return ctyelems.ObjectVal(out), diags
}
