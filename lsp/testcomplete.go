package lsp

import (
	"regexp"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/nodegen/nodegen/modtest"
)

// testKeyword is a block type or an argument a test file's grammar takes
// somewhere, with what completion says of it.
type testKeyword struct {
	name, doc string
	block     bool
}

// testKeywords are the items of each place of a test file, by the type of
// the innermost block the cursor is in ("" is the file's top level). A
// run offers both an option-tree run's items and a machine run's.
var testKeywords = map[string][]testKeyword{
	"": {
		{"run", "A run: an option tree evaluated and asserted on, or, with machines, machines booted and driven by steps.", true},
		{"machine", "A machine: a host (imports and config blocks, as a host file), booted as a systemd-nspawn machine and switched to its profile by the runs that name it.", true},
		{"configuration", "Another configuration of a machine, which a step switches it to (switch = \"NAME\").", true},
	},
	"run": {
		{"imports", "The modules the run evaluates, relative to the test file.", false},
		{"disabled_modules", "Library modules left out of the run's evaluation.", false},
		{"expect_error", "Text that the evaluation's error must contain: the run passes when the evaluation fails with it.", false},
		{"machines", "The machine blocks this run boots, on one private network where each resolves the others by name: machines = [\"server\", \"client\"]. A run that sets machines holds step blocks.", false},
		{"config", "Definitions of the run's module: config \"OPTION.PATH\" { ... }.", true},
		{"assert", "A condition on the evaluated options, with its error_message.", true},
		{"step", "A step of a machine run, on the machine of its label: one action, and output checks or a timeout.", true},
	},
	"machine": {
		{"imports", "The modules the machine's host evaluates, relative to the test file.", false},
		{"disabled_modules", "Library modules left out of the machine's evaluation.", false},
		{"config", "Definitions of the machine's host: config \"OPTION.PATH\" { ... }.", true},
	},
	"configuration": {
		{"machine", "The machine block this is another configuration of.", false},
		{"imports", "The modules the configuration evaluates, relative to the test file.", false},
		{"disabled_modules", "Library modules left out of the configuration's evaluation.", false},
		{"config", "Definitions of the configuration: config \"OPTION.PATH\" { ... }.", true},
	},
	"step": stepKeywords(),
}

// stepDocs says what each argument of a step does.
var stepDocs = map[string]string{
	string(modtest.WaitForUnit):       "Waits until the unit is active; fails at once when it has failed.",
	string(modtest.WaitUntilSucceeds): "Runs a shell command again until it exits 0 (and its output passes the step's output checks).",
	string(modtest.Succeed):           "Runs a shell command once; it must exit 0.",
	string(modtest.Fail):              "Runs a shell command once; it must exit non-zero.",
	string(modtest.CopyIn):            "Copies a file of the test's into the machine: copy_in = [\"./local\", \"/path/in/machine\"].",
	string(modtest.CopyOut):           "Copies a file of the machine out, next to the test file: copy_out = [\"/path/in/machine\", \"./local\"].",
	string(modtest.Switch):            "Switches the machine to a configuration block's profile.",
	string(modtest.Rollback):          "Switches the machine back to its previous generation: rollback = true.",
	string(modtest.Reboot):            "Restarts the machine; the step ends when its profile is active again: reboot = true.",
	string(modtest.Kill):              "Kills a unit's processes (SIGKILL).",
	"output_contains":                 "Text the command's standard output must contain (succeed, fail, wait_until_succeeds).",
	"output_matches":                  "A regular expression (Go's syntax) the command's standard output must match (succeed, fail, wait_until_succeeds).",
	"timeout":                         "How long the step may take, such as \"10s\"; 60s when unset.",
	"expect_error":                    "With switch: text the switch's error must contain; the step passes when the switch fails with it.",
}

func stepKeywords() []testKeyword {
	var out []testKeyword
	for _, a := range modtest.Actions {
		out = append(out, testKeyword{name: string(a), doc: stepDocs[string(a)]})
	}
	for _, a := range modtest.StepArguments {
		out = append(out, testKeyword{name: a, doc: stepDocs[a]})
	}
	return out
}

var (
	// keywordLine is a line being typed up to the cursor that is a
	// keyword so far: an argument's or a block type's name.
	// The name may follow a block's opening brace on its line.
	keywordLine = regexp.MustCompile(`(?:^|\{)[ \t]*([A-Za-z_][A-Za-z0-9_-]*)?$`)
	// stringValueLine is a line whose cursor is in a string being typed
	// as (an element of) an argument's value: NAME = "..., NAME = [..., "...
	stringValueLine = regexp.MustCompile(`([A-Za-z_][A-Za-z0-9_-]*)[ \t]*=[^"=]*(?:"[^"]*"[^"=]*)*"([^"]*)$`)
	// stepLabelLine is a step block's label being typed.
	stepLabelLine = regexp.MustCompile(`^[ \t]*step[ \t]+"([^"]*)$`)
)

// testCompletion proposes, in a test file and outside config and assert
// blocks (where options complete as in a module): the block types and
// arguments of the place the cursor is in, a step's actions and
// arguments, and the names a machine test refers to: the file's machines
// in a run's machines and a configuration's machine, the run's machines
// in a step's label, the step's machine's configurations in switch.
//
// handled is true where the cursor is on such a name: nothing else
// completes there.
func testCompletion(src []byte, name string, off int, edit func(start, end int, text string) *textEdit) (items []CompletionItem, handled bool) {
	f := modtest.Parse(src, name)
	body, ok := f.HCL.Body.(*hclsyntax.Body)
	if !ok {
		return nil, false
	}
	chain := blocksAt(body, off)
	inner := ""
	if len(chain) > 0 {
		inner = chain[len(chain)-1].Type
	}
	if inner == "config" || inner == "assert" {
		return nil, false
	}
	lineStart := off
	for lineStart > 0 && src[lineStart-1] != '\n' {
		lineStart--
	}
	line := string(src[lineStart:off])
	end := off
	for end < len(src) && (isIdentByte(src[end])) {
		end++
	}
	if m := keywordLine.FindStringSubmatch(line); m != nil {
		for _, k := range testKeywords[inner] {
			if !strings.HasPrefix(k.name, m[1]) {
				continue
			}
			detail := "argument"
			if k.block {
				detail = "block"
			}
			items = append(items, CompletionItem{Label: k.name, Kind: kindField, Detail: detail,
				Documentation: &markupContent{Kind: "markdown", Value: k.doc}, TextEdit: edit(off-len(m[1]), end, k.name)})
		}
		return items, true
	}
	var names []string
	var typed, what string
	if m := stepLabelLine.FindStringSubmatch(line); m != nil && inner == "run" {
		typed, what = m[1], "machine of the run"
		if r := runOf(f, chain); r != nil {
			names = r.Machines
		}
	} else if m := stringValueLine.FindStringSubmatch(line); m != nil {
		typed = m[2]
		switch {
		case inner == "run" && m[1] == "machines", inner == "configuration" && m[1] == "machine":
			what = "machine block"
			for _, mb := range f.Machines {
				names = append(names, mb.Name)
			}
		case inner == "step" && m[1] == string(modtest.Switch):
			what = "configuration of the machine"
			step := chain[len(chain)-1]
			for _, c := range f.Configurations {
				if len(step.Labels) == 1 && c.Machine == step.Labels[0] {
					names = append(names, c.Name)
				}
			}
		}
	}
	if what == "" {
		return nil, false
	}
	end = off
	for end < len(src) && src[end] != '"' && src[end] != '\n' {
		end++
	}
	for _, n := range names {
		if strings.HasPrefix(n, typed) {
			items = append(items, CompletionItem{Label: n, Kind: kindValue, Detail: what, TextEdit: edit(off-len(typed), end, n)})
		}
	}
	return items, true
}

// blocksAt is the chain of blocks of body that contain off, outermost
// first.
func blocksAt(body *hclsyntax.Body, off int) []*hclsyntax.Block {
	var chain []*hclsyntax.Block
	for {
		var next *hclsyntax.Body
		for _, b := range body.Blocks {
			if b.OpenBraceRange.End.Byte <= off && off <= b.CloseBraceRange.Start.Byte {
				chain = append(chain, b)
				next = b.Body
				break
			}
		}
		if next == nil {
			return chain
		}
		body = next
	}
}

// runOf is the run block of chain (the blocks the cursor is in).
func runOf(f *modtest.File, chain []*hclsyntax.Block) *modtest.Run {
	for _, b := range chain {
		if b.Type != "run" {
			continue
		}
		i := slices.IndexFunc(f.Runs, func(r *modtest.Run) bool { return r.Block == b })
		if i >= 0 {
			return f.Runs[i]
		}
	}
	return nil
}
