package ignition

import (
	"fmt"
	"strings"

	"github.com/coreos/ignition/v2/config/v3_4"
	"github.com/coreos/ignition/v2/config/v3_5"
	"github.com/coreos/vcontext/report"
)

// InvalidError is a rendered config that Ignition's own validation
// rejects.
type InvalidError struct {
	// Version is the config's version.
	Version string
	// Problems are the validation's errors, in its order.
	Problems []Problem
}

// Problem is one entry of Ignition's validation report.
type Problem struct {
	// Path is where in the config the problem is: "storage.files.3.path".
	Path string
	// Entry is the profile path the offending part comes from
	// ("etc/foo.conf"), and Option the option that produced it; empty
	// when the problem is not about one entry.
	Entry, Option string
	// Message is Ignition's.
	Message string
}

func (p Problem) String() string {
	s := p.Path + ": " + p.Message
	switch {
	case p.Option != "":
		s += fmt.Sprintf(" (%s, from %s)", p.Entry, p.Option)
	case p.Entry != "":
		s += fmt.Sprintf(" (%s)", p.Entry)
	}
	return s
}

// Error lists the problems, each with the option that produced it.
func (e *InvalidError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "the Ignition %s config is invalid:", e.Version)
	for _, p := range e.Problems {
		b.WriteString("\n  " + p.String())
	}
	return b.String()
}

// validate parses and validates the config as Ignition does. Its errors
// are an *InvalidError; its warnings are returned, each naming the option
// it comes from.
func (r *renderer) validate(config []byte, version string) ([]string, error) {
	var rpt report.Report
	var err error
	switch version {
	case "3.4.0":
		_, rpt, err = v3_4.Parse(config)
	case "3.5.0":
		_, rpt, err = v3_5.Parse(config)
	}
	inv := &InvalidError{Version: version}
	var warns []string
	for _, e := range rpt.Entries {
		p := r.problem(e)
		switch {
		case e.Kind.IsFatal():
			inv.Problems = append(inv.Problems, p)
		case e.Kind == report.Warn:
			warns = append(warns, "Ignition warns about "+p.String())
		}
	}
	if len(inv.Problems) > 0 {
		return nil, inv
	}
	if err != nil {
		return nil, fmt.Errorf("the Ignition %s config does not parse: %w", version, err)
	}
	return warns, nil
}

// problem describes a report entry, with the profile entry that the
// deepest part of its path comes from.
func (r *renderer) problem(e report.Entry) Problem {
	elems := make([]string, len(e.Context.Path))
	for i, x := range e.Context.Path {
		elems[i] = fmt.Sprint(x)
	}
	p := Problem{Path: strings.Join(elems, "."), Message: e.Message}
	for n := len(elems); n > 0; n-- {
		if o, ok := r.origins[strings.Join(elems[:n], ".")]; ok {
			p.Entry, p.Option = "etc/"+o.target, o.option
			break
		}
	}
	if p.Path == "" {
		p.Path = "config"
	}
	return p
}
