package profilecheck

import (
	"bytes"
	"net"
	"net/url"
	"path"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// waitKind is what a wait loop waits for.
type waitKind int

const (
	waitFile waitKind = iota // a file to exist
	waitURL                  // a URL to answer
	waitPort                 // a TCP port to accept connections
)

// wait is a shell loop that repeats until something exists or answers.
type wait struct {
	// loop is the loop's head as written: "while ! test -f /run/x".
	loop string
	kind waitKind
	// file is the absolute path waited for (waitFile).
	file string
	// url is the URL waited for (waitURL).
	url string
	// scheme ("" for waitPort), host and port of a URL or port wait.
	scheme, host, port string
}

// what names what the loop waits for, for messages.
func (w wait) what() string {
	switch w.kind {
	case waitFile:
		return w.file
	case waitURL:
		return w.url
	default:
		return net.JoinHostPort(w.host, w.port)
	}
}

// shellWaits parses a shell script and returns its wait loops: `while`
// loops whose condition is negated and `until` loops, whose condition is
// `test`/`[` of a file, curl or wget of a URL, or `nc -z HOST PORT`. A
// condition with an expansion in what it waits for cannot be resolved and
// is left out; so is a script that does not parse.
func shellWaits(script string) []wait {
	f, err := syntax.NewParser().Parse(strings.NewReader(script), "")
	if err != nil {
		return nil
	}
	var out []wait
	syntax.Walk(f, func(n syntax.Node) bool {
		wc, ok := n.(*syntax.WhileClause)
		if !ok || len(wc.Cond) == 0 {
			return true
		}
		stmt := wc.Cond[len(wc.Cond)-1]
		// The loop goes on while the condition fails: until C, while ! C.
		wantSuccess := wc.Until != stmt.Negated
		if w, ok := condWait(stmt.Cmd, wantSuccess); ok {
			head := "while "
			if wc.Until {
				head = "until "
			}
			var b bytes.Buffer
			if err := syntax.NewPrinter(syntax.SingleLine(true)).Print(&b, stmt); err == nil {
				w.loop = head + b.String()
				out = append(out, w)
			}
		}
		return true
	})
	return out
}

// condWait recognises the command of a loop condition. wantSuccess says
// whether the loop ends when the command succeeds.
func condWait(cmd syntax.Command, wantSuccess bool) (wait, bool) {
	switch c := cmd.(type) {
	case *syntax.BinaryCmd:
		// curl URL | grep ...: the first command of the pipe.
		if c.Op == syntax.Pipe || c.Op == syntax.PipeAll {
			return condWait(c.X.Cmd, wantSuccess)
		}
	case *syntax.CallExpr:
		return callWait(c.Args, wantSuccess)
	}
	return wait{}, false
}

func callWait(words []*syntax.Word, wantSuccess bool) (wait, bool) {
	if len(words) == 0 {
		return wait{}, false
	}
	args := make([]string, len(words))
	literal := make([]bool, len(words))
	for i, w := range words {
		args[i], literal[i] = wordLit(w)
	}
	if !literal[0] {
		return wait{}, false
	}
	switch path.Base(args[0]) {
	case "test", "[":
		rest, lits := args[1:], literal[1:]
		if args[0] == "[" || path.Base(args[0]) == "[" {
			if len(rest) == 0 || rest[len(rest)-1] != "]" {
				return wait{}, false
			}
			rest, lits = rest[:len(rest)-1], lits[:len(lits)-1]
		}
		if len(rest) > 0 && rest[0] == "!" {
			wantSuccess = !wantSuccess
			rest, lits = rest[1:], lits[1:]
		}
		if !wantSuccess || len(rest) != 2 || !lits[1] || !fileTest[rest[0]] || !path.IsAbs(rest[1]) {
			return wait{}, false
		}
		return wait{kind: waitFile, file: path.Clean(rest[1])}, true
	case "curl", "wget":
		if !wantSuccess {
			return wait{}, false
		}
		for i, a := range args[1:] {
			if !literal[i+1] {
				continue
			}
			if w, ok := urlWait(a); ok {
				return w, true
			}
		}
	case "nc", "ncat":
		if !wantSuccess {
			return wait{}, false
		}
		var pos []string
		zero := false
		for i, a := range args[1:] {
			switch {
			case a == "-z":
				zero = true
			case strings.HasPrefix(a, "-"):
			case !literal[i+1]:
				return wait{}, false
			default:
				pos = append(pos, a)
			}
		}
		// nc [options] host port: the options' values come first.
		if n := len(pos); zero && n >= 2 && isPort(pos[n-1]) {
			return wait{kind: waitPort, host: pos[n-2], port: pos[n-1]}, true
		}
	}
	return wait{}, false
}

func isPort(s string) bool {
	n, err := strconv.Atoi(s)
	return err == nil && n > 0 && n < 65536
}

// fileTest lists the test(1) operators that are true once a file exists
// (with some property: -s non-empty, -x executable, ...).
var fileTest = map[string]bool{
	"-e": true, "-f": true, "-s": true, "-d": true, "-S": true, "-p": true,
	"-L": true, "-h": true, "-r": true, "-w": true, "-x": true, "-b": true, "-c": true,
}

// urlWait reads a URL with a host: http, https, or any scheme:// with a
// port.
func urlWait(s string) (wait, bool) {
	if !strings.Contains(s, "://") {
		return wait{}, false
	}
	u, err := url.Parse(s)
	if err != nil || u.Host == "" {
		return wait{}, false
	}
	port := u.Port()
	if port == "" {
		switch u.Scheme {
		case "http":
			port = "80"
		case "https":
			port = "443"
		default:
			return wait{}, false
		}
	}
	return wait{kind: waitURL, url: s, scheme: u.Scheme, host: u.Hostname(), port: port}, true
}

// wordLit returns a word's value when it has no expansion: literals and
// quoted literals.
func wordLit(w *syntax.Word) (string, bool) {
	var b strings.Builder
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			b.WriteString(p.Value)
		case *syntax.SglQuoted:
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				l, ok := q.(*syntax.Lit)
				if !ok {
					return "", false
				}
				b.WriteString(l.Value)
			}
		default:
			return "", false
		}
	}
	return b.String(), true
}

// commands parses a command line (an Exec*= value without its prefixes)
// and returns each simple command's literal words; a word with an
// expansion is "".
func commands(line string) [][]string {
	f, err := syntax.NewParser().Parse(strings.NewReader(line), "")
	if err != nil {
		return nil
	}
	var out [][]string
	syntax.Walk(f, func(n syntax.Node) bool {
		c, ok := n.(*syntax.CallExpr)
		if !ok {
			return true
		}
		words := make([]string, len(c.Args))
		for i, w := range c.Args {
			words[i], _ = wordLit(w)
		}
		out = append(out, words)
		return true
	})
	return out
}
