package main

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/nodegen/nodegen/eval"
	"github.com/nodegen/nodegen/options"
)

// completeCommand is the hidden command the completion scripts run to
// complete what a static script cannot know: option paths (the last
// argument of option, the value of eval -A) and library files (modules
// cat). It takes the words of the command line after "nodegen", the word
// being completed last, and prints the completions, one a line.
const completeCommand = "__complete"

func runComplete(words []string, stdout io.Writer) int {
	if len(words) < 2 {
		return exitOK
	}
	c := findCommand(words[0])
	if c == nil {
		return exitOK
	}
	cur, prev := words[len(words)-1], valueFlag(c, words[len(words)-2])
	var out []string
	switch {
	case c.args == argsLibraryFiles && len(words) == 3 && words[1] == "cat":
		for _, f := range libraryFiles(library()) {
			if strings.HasPrefix(f, cur) {
				out = append(out, f)
			}
		}
	case prev != nil && prev.values[0] == completeOptions,
		prev == nil && c.args == argsModulesOption && !strings.HasPrefix(cur, "-"):
		out = optionCompletions(declarationsInScope(c, words[1:len(words)-1]), cur)
	}
	for _, w := range out {
		fmt.Fprintln(stdout, w)
	}
	return exitOK
}

// valueFlag returns the flag of c that word names (-o, --out, -out) if
// that flag takes a value, so that the next word is its value; else nil.
func valueFlag(c *command, word string) *flagInfo {
	name, ok := strings.CutPrefix(word, "-")
	if !ok || strings.Contains(word, "=") {
		return nil
	}
	name = strings.TrimPrefix(name, "-")
	for _, f := range commandFlagInfo(c) {
		if f.takesValue && (f.long == name || f.short == name) {
			return &f
		}
	}
	return nil
}

// declarationsInScope declares the options of the modules a command line
// names (its .hcl arguments; the library unless --bare is among them). It
// evaluates nothing: loading the modules is all completion costs.
func declarationsInScope(c *command, args []string) []eval.Declaration {
	var ef evalFlags
	var files []string
	for i, a := range args {
		switch {
		case a == "--bare" || a == "-bare":
			ef.bare = true
		case strings.HasSuffix(a, ".hcl") && (i == 0 || valueFlag(c, args[i-1]) == nil):
			files = append(files, a)
		}
	}
	ev, _ := eval.New(ef.config(files))
	return ev.Declarations()
}

// optionCompletions completes cur, a partial option path, one segment at
// a time: the next segments of the declared paths it is a prefix of, with
// a trailing dot when the path goes on. A placeholder segment of a
// declaration (<name> of an attrsOf, * of a list) matches any name typed
// for it, and is itself never offered.
func optionCompletions(decls []eval.Declaration, cur string) []string {
	done, partial := options.Path(nil), cur
	if i := strings.LastIndexByte(cur, '.'); i >= 0 {
		p, err := options.ParsePath(cur[:i])
		if err != nil {
			return nil
		}
		done, partial = p, cur[i+1:]
	}
	seen := map[string]bool{}
	var out []string
	for _, d := range decls {
		if len(d.Path) <= len(done) || !matchesTyped(d.Path[:len(done)], done) {
			continue
		}
		next := d.Path[len(done)]
		if next == "<name>" || next == "*" {
			continue
		}
		if !strings.HasPrefix(options.Path{next}.String(), partial) {
			continue
		}
		c := done.Child(next).String()
		if len(d.Path) > len(done)+1 {
			c += "."
		}
		if !seen[c] {
			seen[c] = true
			out = append(out, c)
		}
	}
	sort.Strings(out)
	return out
}

// matchesTyped reports whether a declared path matches the segments a user
// typed, placeholders matching any segment.
func matchesTyped(decl, typed options.Path) bool {
	for i, seg := range decl {
		if seg != typed[i] && seg != "<name>" && seg != "*" {
			return false
		}
	}
	return true
}
