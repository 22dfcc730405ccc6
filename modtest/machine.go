package modtest

import (
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/nodegen/nodegen/options"
)

// Machine is a machine block: a host, evaluated as a host file is (its
// imports, disabled_modules and config blocks with the library), that a
// machine run boots and switches to its profile.
//
//	machine "server" {
//	  imports = ["./web.hcl"]
//	  config "services.nginx" { enable = true }
//	}
type Machine struct {
	Name  string
	Block *hclsyntax.Block
	// Body is the module the machine evaluates.
	Body *hclsyntax.Body
}

// Configuration is a configuration block: a second host for a machine,
// which a step switches the machine to (switch = "NAME").
//
//	configuration "server-v2" {
//	  machine = "server"
//	  imports = ["./web.hcl"]
//	  config "services.nginx" { enable = false }
//	}
type Configuration struct {
	Name  string
	Block *hclsyntax.Block
	// Machine names the machine block the configuration is for;
	// MachineRange is where.
	Machine      string
	MachineRange hcl.Range
	Body         *hclsyntax.Body
}

// Action is what a step does.
type Action string

// The actions of a step; a step has exactly one.
const (
	// WaitForUnit waits until the unit is active (systemctl is-active);
	// it fails at once when the unit has failed.
	WaitForUnit Action = "wait_for_unit"
	// WaitUntilSucceeds runs a shell command again until it exits 0 (and
	// its output passes the step's output checks).
	WaitUntilSucceeds Action = "wait_until_succeeds"
	// Succeed runs a shell command once; it must exit 0.
	Succeed Action = "succeed"
	// Fail runs a shell command once; it must exit non-zero.
	Fail Action = "fail"
	// CopyIn copies a file of the test's (relative to the test file) into
	// the machine: copy_in = ["./local", "/path/in/machine"].
	CopyIn Action = "copy_in"
	// CopyOut copies a file of the machine out, next to the test file:
	// copy_out = ["/path/in/machine", "./local"].
	CopyOut Action = "copy_out"
	// Switch switches the machine to a configuration block's profile.
	Switch Action = "switch"
	// Rollback switches the machine back to its previous generation.
	Rollback Action = "rollback"
	// Reboot restarts the machine; the step ends when its profile is
	// active again.
	Reboot Action = "reboot"
	// Kill kills a unit's processes (systemctl kill --signal=SIGKILL).
	Kill Action = "kill"
)

// Actions lists every action, in the order the documentation gives them.
var Actions = []Action{WaitForUnit, WaitUntilSucceeds, Succeed, Fail, CopyIn, CopyOut, Switch, Rollback, Reboot, Kill}

// StepArguments are the arguments a step takes besides its action.
var StepArguments = []string{"output_contains", "output_matches", "timeout", "expect_error"}

// DefaultTimeout bounds a step that sets no timeout.
const DefaultTimeout = 60 * time.Second

// Step is one step block of a machine run: an action on one machine.
//
//	step "client" {
//	  succeed         = "curl -fsS http://server/"
//	  output_contains = "Welcome"
//	  timeout         = "10s"
//	}
type Step struct {
	// Machine is the step's label: the machine it acts on.
	Machine string
	Block   *hclsyntax.Block
	Action  Action
	// Arg is the action's string: the unit, the shell command, the
	// configuration's name. Empty for rollback and reboot.
	Arg string
	// From and To are copy_in's and copy_out's paths.
	From, To string
	// ArgRange is where the action is written.
	ArgRange hcl.Range
	// OutputContains and OutputMatches check the standard output of a
	// command (succeed, fail, wait_until_succeeds).
	OutputContains string
	OutputMatches  *regexp.Regexp
	// Timeout bounds the step; DefaultTimeout when the step sets none.
	Timeout time.Duration
	// ExpectError, with switch, makes the step expect the switch to
	// fail: building the configuration's profile (an evaluation error, a
	// check such as sshd -t refusing a file) or activating it in the
	// machine must fail with an error containing this text. ExpectRange
	// is where it is written.
	ExpectError string
	ExpectRange hcl.Range
}

// Range is the step's header, where its failures are reported.
func (s *Step) Range() hcl.Range { return s.Block.DefRange() }

// String describes the step as a line of a report: `server: succeed "curl ..."`.
func (s *Step) String() string {
	switch s.Action {
	case Rollback, Reboot:
		return fmt.Sprintf("%s: %s", s.Machine, s.Action)
	case CopyIn, CopyOut:
		return fmt.Sprintf("%s: %s %s -> %s", s.Machine, s.Action, s.From, s.To)
	}
	return fmt.Sprintf("%s: %s %q", s.Machine, s.Action, s.Arg)
}

// IsMachineRun tells whether the run drives machines (it sets machines)
// rather than checking one option tree.
func (r *Run) IsMachineRun() bool { return r.Machines != nil }

// decodeMachine decodes a machine block.
func decodeMachine(b *hclsyntax.Block) (*Machine, hcl.Diagnostics) {
	m := &Machine{Name: b.Labels[0], Block: b}
	body, diags := moduleBody(b, "machine", nil)
	m.Body = body
	return m, diags
}

// decodeConfiguration decodes a configuration block.
func decodeConfiguration(b *hclsyntax.Block) (*Configuration, hcl.Diagnostics) {
	c := &Configuration{Name: b.Labels[0], Block: b}
	body, diags := moduleBody(b, "configuration", func(a *hclsyntax.Attribute) hcl.Diagnostics {
		if a.Name != "machine" {
			return nil
		}
		s, d := literalString(a, "machine is the name of a machine block of this file, as a literal string.")
		c.Machine, c.MachineRange = s, a.Expr.Range()
		return d
	})
	c.Body = body
	if c.Machine == "" && !diags.HasErrors() {
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Missing required argument",
			Detail:   `A configuration block needs the argument "machine": the machine block it is another configuration of.`,
			Subject:  b.DefRange().Ptr(),
		})
	}
	return c, diags
}

// moduleBody splits the body of a machine or configuration block into the
// module it evaluates: imports, disabled_modules and config blocks. extra,
// when set, decodes the argument machine (a configuration's).
func moduleBody(b *hclsyntax.Block, kind string, extra func(*hclsyntax.Attribute) hcl.Diagnostics) (*hclsyntax.Body, hcl.Diagnostics) {
	var diags hcl.Diagnostics
	mod := &hclsyntax.Body{
		Attributes: hclsyntax.Attributes{},
		SrcRange:   b.Body.SrcRange,
		EndRange:   b.Body.EndRange,
	}
	takes := "imports and disabled_modules"
	if extra != nil {
		takes = "machine, imports and disabled_modules"
	}
	for _, name := range sortedAttrNames(b.Body.Attributes) {
		a := b.Body.Attributes[name]
		switch {
		case a.Name == "imports" || a.Name == "disabled_modules":
			mod.Attributes[a.Name] = a
		case extra != nil && a.Name == "machine":
			diags = append(diags, extra(a)...)
		default:
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Unsupported argument",
				Detail:   fmt.Sprintf("A %s block takes the arguments %s, not %q. Definitions go in config blocks.", kind, takes, a.Name),
				Subject:  a.NameRange.Ptr(),
			})
		}
	}
	for _, nb := range b.Body.Blocks {
		if nb.Type == "config" {
			mod.Blocks = append(mod.Blocks, nb)
			continue
		}
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Unsupported block type",
			Detail:   fmt.Sprintf("A %s block holds config blocks, not a %q block.", kind, nb.Type),
			Subject:  nb.TypeRange.Ptr(),
		})
	}
	return mod, diags
}

// decodeMachineRun decodes the machines argument and the step blocks of a
// run; every other item of a machine run is an error.
func (r *Run) decodeMachineRun(b *hclsyntax.Block) {
	a := b.Body.Attributes["machines"]
	v, d := a.Expr.Value(nil)
	r.MachinesRange = a.Expr.Range()
	ok := !d.HasErrors() && v.IsWhollyKnown() && !v.IsNull() && (v.Type().IsTupleType() || v.Type().IsListType())
	if ok {
		r.Machines = []string{}
		seen := map[string]bool{}
		for it := v.ElementIterator(); it.Next(); {
			_, e := it.Element()
			if e.IsNull() || e.Type() != cty.String || e.AsString() == "" || seen[e.AsString()] {
				ok = false
				break
			}
			seen[e.AsString()] = true
			r.Machines = append(r.Machines, e.AsString())
		}
		ok = ok && len(r.Machines) > 0
	}
	if !ok {
		r.Machines = []string{}
		r.badMachines = true
		r.Diags = append(r.Diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Invalid machines",
			Detail:   `machines is a literal list of the names of machine blocks, each once: machines = ["server", "client"].`,
			Subject:  a.Expr.Range().Ptr(),
		})
	}
	for _, name := range sortedAttrNames(b.Body.Attributes) {
		at := b.Body.Attributes[name]
		if at.Name == "machines" {
			continue
		}
		r.Diags = append(r.Diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Unsupported argument",
			Detail:   fmt.Sprintf("A run that sets machines takes step blocks and no other argument than machines, not %q. A machine's modules go in its machine block; option-tree checks go in a run of their own.", at.Name),
			Subject:  at.NameRange.Ptr(),
		})
	}
	for _, nb := range b.Body.Blocks {
		if nb.Type != "step" {
			r.Diags = append(r.Diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Unsupported block type",
				Detail:   fmt.Sprintf("A run that sets machines holds step blocks, not a %q block.", nb.Type),
				Subject:  nb.TypeRange.Ptr(),
			})
			continue
		}
		s, d := decodeStep(nb)
		r.Diags = append(r.Diags, d...)
		if s != nil {
			r.Steps = append(r.Steps, s)
		}
	}
	if len(r.Steps) == 0 && !r.Diags.HasErrors() {
		r.Diags = append(r.Diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Missing step blocks",
			Detail:   `A run that sets machines needs at least one step block: step "MACHINE" { wait_for_unit = "x.service" }.`,
			Subject:  b.DefRange().Ptr(),
		})
	}
}

// decodeStep decodes a step block; it returns nil with errors.
func decodeStep(b *hclsyntax.Block) (*Step, hcl.Diagnostics) {
	var diags hcl.Diagnostics
	if len(b.Labels) != 1 {
		return nil, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Invalid step block",
			Detail:   `A step block has one label, the machine it acts on: step "server" { ... }.`,
			Subject:  b.DefRange().Ptr(),
		}}
	}
	for _, nb := range b.Body.Blocks {
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Unsupported block type",
			Detail:   fmt.Sprintf("A step block takes arguments only, not a %q block.", nb.Type),
			Subject:  nb.TypeRange.Ptr(),
		})
	}
	s := &Step{Machine: b.Labels[0], Block: b, Timeout: DefaultTimeout}
	var action *hclsyntax.Attribute
	var outputRange, expectRange *hcl.Range
	for _, name := range sortedAttrNames(b.Body.Attributes) {
		a := b.Body.Attributes[name]
		switch a.Name {
		case "expect_error":
			s.ExpectError, diags = appendString(diags, a, "expect_error is a literal, non-empty string that the switch's error must contain.")
			s.ExpectRange = a.Expr.Range()
			if s.ExpectError != "" {
				expectRange = a.NameRange.Ptr()
			}
		case "output_contains":
			s.OutputContains, diags = appendString(diags, a, "output_contains is a literal string the command's output must contain.")
			outputRange = a.NameRange.Ptr()
		case "output_matches":
			src, d := literalString(a, "output_matches is a literal string: a regular expression (Go's syntax) the command's output must match.")
			diags = append(diags, d...)
			if d.HasErrors() {
				continue
			}
			re, err := regexp.Compile(src)
			if err != nil {
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Invalid output_matches",
					Detail:   fmt.Sprintf("output_matches is not a regular expression: %s.", err),
					Subject:  a.Expr.Range().Ptr(),
				})
				continue
			}
			s.OutputMatches = re
			outputRange = a.NameRange.Ptr()
		case "timeout":
			src, d := literalString(a, `timeout is a literal duration such as "10s" or "2m".`)
			diags = append(diags, d...)
			if d.HasErrors() {
				continue
			}
			t, err := time.ParseDuration(src)
			if err != nil || t <= 0 {
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Invalid timeout",
					Detail:   fmt.Sprintf(`timeout is a positive duration such as "10s" or "2m", not %q.`, src),
					Subject:  a.Expr.Range().Ptr(),
				})
				continue
			}
			s.Timeout = t
		default:
			if !isAction(a.Name) {
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Unsupported argument",
					Detail:   fmt.Sprintf("A step takes one action (%s) and the arguments %s, not %q.%s", actionList(), strings.Join(StepArguments, ", "), a.Name, didYouMean(a.Name, stepArgumentNames())),
					Subject:  a.NameRange.Ptr(),
				})
				continue
			}
			if action != nil {
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Conflicting step actions",
					Detail:   fmt.Sprintf("A step does one thing: it already has %s at %s. Write another step for %s.", action.Name, options.ShowPos(action.NameRange), a.Name),
					Subject:  a.NameRange.Ptr(),
				})
				continue
			}
			action = a
			diags = append(diags, s.decodeAction(a)...)
		}
	}
	if action == nil && !diags.HasErrors() {
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Missing step action",
			Detail:   fmt.Sprintf("A step needs one action: %s.", actionList()),
			Subject:  b.DefRange().Ptr(),
		})
	}
	if outputRange != nil && action != nil {
		switch s.Action {
		case Succeed, Fail, WaitUntilSucceeds:
		default:
			diags = append(diags, &hcl.Diagnostic{
				Severity: hcl.DiagError,
				Summary:  "Unsupported argument",
				Detail:   fmt.Sprintf("output_contains and output_matches check a command's output: they go with succeed, fail or wait_until_succeeds, not %s.", s.Action),
				Subject:  outputRange,
			})
		}
	}
	if expectRange != nil && action != nil && s.Action != Switch {
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  "Unsupported argument",
			Detail:   fmt.Sprintf("expect_error makes a switch expect to fail; it goes with switch, not %s (a command expected to fail is fail = \"...\").", s.Action),
			Subject:  expectRange,
		})
	}
	if diags.HasErrors() {
		return nil, diags
	}
	return s, diags
}

// decodeAction decodes the action argument a of s.
func (s *Step) decodeAction(a *hclsyntax.Attribute) hcl.Diagnostics {
	s.Action, s.ArgRange = Action(a.Name), a.Expr.Range()
	switch s.Action {
	case Rollback, Reboot:
		v, d := a.Expr.Value(nil)
		if d.HasErrors() || v.IsNull() || !v.IsKnown() || v.Type() != cty.Bool || v.False() {
			return hcl.Diagnostics{{
				Severity: hcl.DiagError,
				Summary:  "Invalid " + a.Name,
				Detail:   fmt.Sprintf("%s takes the literal true: %s = true.", a.Name, a.Name),
				Subject:  a.Expr.Range().Ptr(),
			}}
		}
		return nil
	case CopyIn, CopyOut:
		v, d := a.Expr.Value(nil)
		ok := !d.HasErrors() && v.IsWhollyKnown() && !v.IsNull() && (v.Type().IsTupleType() || v.Type().IsListType()) && v.LengthInt() == 2
		var paths []string
		if ok {
			for it := v.ElementIterator(); it.Next(); {
				_, e := it.Element()
				if e.IsNull() || e.Type() != cty.String || e.AsString() == "" {
					ok = false
					break
				}
				paths = append(paths, e.AsString())
			}
		}
		inside := 1
		example := `copy_in = ["./file", "/etc/file"]`
		if s.Action == CopyOut {
			inside, example = 0, `copy_out = ["/var/log/x.log", "./x.log"]`
		}
		if ok && !strings.HasPrefix(paths[inside], "/") {
			ok = false
		}
		if !ok {
			return hcl.Diagnostics{{
				Severity: hcl.DiagError,
				Summary:  "Invalid " + a.Name,
				Detail:   fmt.Sprintf("%s is a literal list of two paths, from and to; the machine's path is absolute, the test's is relative to the test file: %s.", a.Name, example),
				Subject:  a.Expr.Range().Ptr(),
			}}
		}
		s.From, s.To = paths[0], paths[1]
		return nil
	}
	arg, d := literalString(a, fmt.Sprintf("%s is a literal, non-empty string: %s.", a.Name, actionArgHelp(s.Action)))
	s.Arg = arg
	return d
}

func actionArgHelp(a Action) string {
	switch a {
	case WaitForUnit, Kill:
		return "the name of a unit, such as sshd.service"
	case Switch:
		return "the name of a configuration block of the step's machine"
	}
	return "a shell command, run by /bin/sh -c in the machine"
}

func stepArgumentNames() []string {
	out := append([]string{}, StepArguments...)
	for _, a := range Actions {
		out = append(out, string(a))
	}
	return out
}

func isAction(name string) bool {
	for _, a := range Actions {
		if string(a) == name {
			return true
		}
	}
	return false
}

func actionList() string {
	s := make([]string, len(Actions))
	for i, a := range Actions {
		s[i] = string(a)
	}
	return strings.Join(s, ", ")
}

// literalString reads a's value as a literal, non-empty string; help is
// the diagnostic's detail otherwise.
func literalString(a *hclsyntax.Attribute, help string) (string, hcl.Diagnostics) {
	v, diags := a.Expr.Value(nil)
	if diags.HasErrors() || v.IsNull() || !v.IsKnown() || v.Type() != cty.String || v.AsString() == "" {
		return "", hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Invalid " + a.Name,
			Detail:   help,
			Subject:  a.Expr.Range().Ptr(),
		}}
	}
	return v.AsString(), nil
}

func appendString(diags hcl.Diagnostics, a *hclsyntax.Attribute, help string) (string, hcl.Diagnostics) {
	s, d := literalString(a, help)
	return s, append(diags, d...)
}

// checkMachineRefs checks the names a file's blocks refer to: the machines
// of runs and configurations, steps' machines, and switch's
// configurations. It adds the errors to the runs and to the file.
func (f *File) checkMachineRefs() {
	for _, c := range f.Configurations {
		if c.Machine != "" && f.Machine(c.Machine) == nil {
			f.Diags = append(f.Diags, unknownMachine(c.Machine, c.MachineRange, f))
		}
	}
	for _, r := range f.Runs {
		if !r.IsMachineRun() {
			continue
		}
		in := map[string]bool{}
		for _, m := range r.Machines {
			in[m] = true
			if f.Machine(m) == nil {
				r.Diags = append(r.Diags, unknownMachine(m, r.MachinesRange, f))
			}
		}
		for _, s := range r.Steps {
			if !in[s.Machine] && !r.badMachines {
				r.Diags = append(r.Diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Unknown step machine",
					Detail:   fmt.Sprintf("The run's machines are %s; a step acts on one of them, not %q.", quoteList(r.Machines), s.Machine),
					Subject:  s.Block.LabelRanges[0].Ptr(),
				})
				continue
			}
			if s.Action != Switch || !in[s.Machine] {
				continue
			}
			c := f.Configuration(s.Arg)
			switch {
			case c == nil:
				r.Diags = append(r.Diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Unknown configuration",
					Detail:   fmt.Sprintf("switch names a configuration block of this file; there is no configuration %q.%s", s.Arg, didYouMean(s.Arg, f.configurationNames())),
					Subject:  s.ArgRange.Ptr(),
				})
			case c.Machine != s.Machine:
				r.Diags = append(r.Diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Configuration of another machine",
					Detail:   fmt.Sprintf("The configuration %q (%s) is for the machine %q, not %q.", c.Name, options.ShowPos(c.Block.DefRange()), c.Machine, s.Machine),
					Subject:  s.ArgRange.Ptr(),
				})
			}
		}
	}
}

func unknownMachine(name string, rng hcl.Range, f *File) *hcl.Diagnostic {
	return &hcl.Diagnostic{
		Severity: hcl.DiagError,
		Summary:  "Unknown machine",
		Detail:   fmt.Sprintf("There is no machine block named %q in this file.%s", name, didYouMean(name, f.machineNames())),
		Subject:  rng.Ptr(),
	}
}

// Machine returns the machine block named name, or nil.
func (f *File) Machine(name string) *Machine {
	for _, m := range f.Machines {
		if m.Name == name {
			return m
		}
	}
	return nil
}

// Configuration returns the configuration block named name, or nil.
func (f *File) Configuration(name string) *Configuration {
	for _, c := range f.Configurations {
		if c.Name == name {
			return c
		}
	}
	return nil
}

func (f *File) machineNames() []string {
	var out []string
	for _, m := range f.Machines {
		out = append(out, m.Name)
	}
	return out
}

func (f *File) configurationNames() []string {
	var out []string
	for _, c := range f.Configurations {
		out = append(out, c.Name)
	}
	return out
}

func quoteList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fmt.Sprintf("%q", n)
	}
	return strings.Join(q, ", ")
}

// didYouMean suggests the name of names closest to name, as " Did you
// mean "x"?", or "".
func didYouMean(name string, names []string) string {
	if best := options.DidYouMean(name, names); best != "" {
		return fmt.Sprintf(" Did you mean %q?", best)
	}
	return ""
}
