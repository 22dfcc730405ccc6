package eval

import (
	"fmt"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/nodegen/nodegen/eval/internal/declare"
	"github.com/nodegen/nodegen/eval/internal/syntax"
	"github.com/nodegen/nodegen/internal/ctyelems"
	"github.com/nodegen/nodegen/options"
)

// Check evaluates the whole configuration, then every assertion and
// warning of the top level and of every submodule instance. Failed
// assertions are errors; warnings are returned in a stable order.
func (ev *Evaluator) Check() ([]Warning, hcl.Diagnostics) {
	_, diags := ev.Config()
	warns, d := ev.Assertions()
	return warns, dedupe(append(diags, d...))
}

// Assertions checks the assertions and warnings of the top level and of
// every submodule instance made so far (and of those that checking makes),
// without evaluating the rest of the configuration: what writing a profile
// does after evaluating environment.etc, as NixOS checks its assertions
// when it builds the system and not on every option.
func (ev *Evaluator) Assertions() ([]Warning, hcl.Diagnostics) {
	var diags hcl.Diagnostics
	var warns []Warning
	// One recorder for every check, emptied for each: what it recorded
	// is used before the next check.
	rec := &readRecorder{}
	check := func(c *syntax.Check, sc *scope, isAssert bool) {
		rec.base, rec.reads, rec.hosts = len(ev.stack), rec.reads[:0], rec.hosts[:0]
		ev.recorder = rec
		ok, known, d := sc.evalBool(c.Condition, "condition")
		ev.recorder = nil
		diags = append(diags, d...)
		if !known {
			return
		}
		if isAssert == ok {
			return
		}
		msgs, d := sc.evalMessages(c.Message)
		diags = append(diags, d...)
		if isAssert && len(msgs) > 0 {
			rec.reads = sc.staticReads(c.Condition, rec.reads)
		}
		for _, msg := range msgs {
			if isAssert {
				diags = append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Assertion failed: " + msg,
					Detail:   joinNotes(sc.inst.origin(), readsNote(rec.reads), hostsNote(rec.hosts)),
					Subject:  c.Block.DefRange().Ptr(),
				})
			} else {
				warns = append(warns, Warning{Message: msg, Range: c.Block.DefRange()})
			}
		}
	}
	for _, m := range ev.Mods {
		if ev.skipped[m] {
			continue // inert: its checks hold and are quiet (see inert.go)
		}
		sc := ev.topScope(m)
		for _, c := range m.Asserts {
			check(c, sc, true)
		}
		for _, c := range m.Warnings {
			check(c, sc, false)
		}
	}
	for i := 0; i < len(ev.instances); i++ {
		inst := ev.instances[i]
		for _, body := range inst.st.Bodies {
			sc := inst.bodyScope(body)
			for _, c := range body.Asserts {
				check(c, sc, true)
			}
			for _, c := range body.Warnings {
				check(c, sc, false)
			}
		}
	}
	for _, n := range ev.decl.Renamed {
		w, d := ev.renameChecks(n)
		warns = append(warns, w...)
		diags = append(diags, d...)
	}
	diags = append(diags, ev.late...)
	sort.SliceStable(warns, func(i, j int) bool {
		if warns[i].Message != warns[j].Message {
			return warns[i].Message < warns[j].Message
		}
		return options.ShowPos(warns[i].Range) < options.ShowPos(warns[j].Range)
	})
	return warns, dedupe(diags)
}

// evalMessages evaluates the message of an assert or warning block: a
// string, or a list of strings (one failure or warning each).
func (sc *scope) evalMessages(expr hclsyntax.Expression) ([]string, hcl.Diagnostics) {
	v, diags := sc.deep(expr)
	if diags.HasErrors() || !v.IsKnown() {
		return nil, diags
	}
	if !v.IsNull() && (v.Type().IsTupleType() || v.Type().IsListType()) {
		var out []string
		for _, e := range ctyelems.Elems(v) {
			if e.IsNull() || e.Type() != cty.String {
				return nil, append(diags, &hcl.Diagnostic{
					Severity: hcl.DiagError,
					Summary:  "Invalid message",
					Detail:   "A message is a string or a list of strings.",
					Subject:  expr.Range().Ptr(),
				})
			}
			out = append(out, e.AsString())
		}
		return out, diags
	}
	str, d := asString(v, expr.Range(), "Invalid message", "A message is a string or a list of strings.")
	if d != nil {
		return nil, append(diags, d)
	}
	return []string{str}, diags
}

// removedMessage evaluates (once) the message of a removed_option.
func (ev *Evaluator) removedMessage(n *declare.Node) (string, hcl.Diagnostics) {
	t, ok := ev.removedMsgs[n]
	if !ok {
		t = &thunk{expr: n.Removed.Message, sc: ev.topScope(n.RemMod), what: "the message of removed_option " + n.Path.String()}
		ev.removedMsgs[n] = t
	}
	v, diags := t.ForceDeep()
	if diags.HasErrors() || !v.IsKnown() {
		return "", diags
	}
	str, d := asString(v, n.Removed.Message.Range(), "Invalid message", "The message of a removed_option is a string.")
	if d != nil {
		return "", append(diags, d)
	}
	return str, diags
}

// joinNotes joins the non-empty notes of a message, one paragraph each.
func joinNotes(notes ...string) string {
	var out []string
	for _, n := range notes {
		if n != "" {
			out = append(out, n)
		}
	}
	return strings.Join(out, "\n")
}

// renameChecks warns about the definitions of n, a renamed option, and
// fails on those of n, a removed one.
func (ev *Evaluator) renameChecks(n *declare.Node) ([]Warning, hcl.Diagnostics) {
	var warns []Warning
	var diags hcl.Diagnostics
	diags = append(diags, ev.top.drainTo(n.Path[:len(n.Path)-1])...)
	s := ev.top.peekState(n)
	if s == nil {
		return nil, diags
	}
	for _, d := range s.defs {
		live, dd := lives(n.Path, d.Def)
		diags = append(diags, dd...)
		if !live {
			continue
		}
		if n.Rename != nil {
			warns = append(warns, Warning{
				Message: fmt.Sprintf("The option %q defined in %s has been renamed to %q.", n.Path.String(), d.Range.Filename, options.Path(n.Rename.To).String()),
				Range:   d.Range,
			})
			continue
		}
		msg, dd := ev.removedMessage(n)
		diags = append(diags, dd...)
		diags = append(diags, &hcl.Diagnostic{
			Severity: hcl.DiagError,
			Summary:  fmt.Sprintf("Option %q was removed", n.Path.String()),
			Detail:   fmt.Sprintf("The option definition %q in %s no longer has any effect; please remove it.\n%s", n.Path.String(), d.Range.Filename, msg),
			Subject:  d.Range.Ptr(),
		})
	}
	return warns, diags
}
