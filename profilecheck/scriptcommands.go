package profilecheck

import (
	"strings"
)

// This file reads the commands a generated shell script runs, for the
// check of what units run (Executables): the first word of each
// simple command, as a POSIX shell reads it, conservatively. A word that
// is quoted or expanded ("$x", ${X}/bin/y, *) is not read: what it names
// is known only when the script runs. Shell builtins and keywords, the
// functions the script defines, assignments and redirections are not
// commands of the system; the bodies of here-documents are text. The
// commands of command substitutions ($(...), `...`) are read too.

// A scriptCommand is a word in command position: an absolute path, or a
// bare name looked up in PATH.
type scriptCommand struct {
	Name string
	Line int // 1-based
}

// shellBuiltins are the builtins of dash and bash that a script may run in
// command position without a program of the system.
var shellBuiltins = map[string]bool{
	".": true, ":": true, "[": true, "alias": true, "bg": true, "break": true, "builtin": true, "cd": true,
	"command": true, "continue": true, "declare": true, "echo": true, "eval": true, "exec": true,
	"exit": true, "export": true, "false": true, "fg": true, "getopts": true, "hash": true, "jobs": true,
	"kill": true, "let": true, "local": true, "printf": true, "pwd": true, "read": true, "readonly": true,
	"return": true, "set": true, "shift": true, "source": true, "test": true, "times": true, "trap": true,
	"true": true, "type": true, "typeset": true, "ulimit": true, "umask": true, "unalias": true,
	"unset": true, "wait": true, "mapfile": true, "readarray": true, "shopt": true, "pushd": true,
	"popd": true, "dirs": true, "disown": true, "enable": true, "help": true, "history": true,
	"logout": true, "suspend": true, "caller": true, "compgen": true, "complete": true, "fc": true,
}

// shellReserved are the reserved words after which the next word is in
// command position again.
var shellReserved = map[string]bool{
	"!": true, "{": true, "}": true, "if": true, "then": true, "else": true, "elif": true, "fi": true,
	"do": true, "done": true, "while": true, "until": true, "esac": true, "time": true, "[[": true,
	"function": true,
}

// prefixBuiltins run the word after them (and their own options) as the
// command: exec curl, command curl.
var prefixBuiltins = map[string]bool{"exec": true, "command": true, "builtin": true}

// scriptCommands returns the commands text runs, each time it runs one,
// in the order read: those of a command substitution before the command
// of its line. The interpreter of a #! line is not among them.
func scriptCommands(text string) []scriptCommand {
	var p scriptParser
	p.parse(text, 1)
	if len(p.functions) == 0 {
		return p.out
	}
	out := p.out[:0:0]
	for _, c := range p.out {
		if !p.functions[c.Name] {
			out = append(out, c)
		}
	}
	return out
}

// scriptParser reads one script (and, recursively, its command
// substitutions).
type scriptParser struct {
	out       []scriptCommand
	functions map[string]bool
}

// A token is a word or an operator of a line.
type token struct {
	text     string
	op       bool // an operator: ; & && || | ( ) ;; newline
	literal  bool // a word with no quote, expansion or glob
	heredoc  string
	stripTab bool // <<- here-document
}

// parse reads text, whose first line is line.
func (p *scriptParser) parse(text string, line int) {
	lines := strings.Split(text, "\n")
	st := parseState{command: true}
	for i := 0; i < len(lines); i++ {
		n := line + i
		l := lines[i]
		// A line continued with a backslash, or a quote that goes on, is
		// one line.
		for i+1 < len(lines) {
			if strings.HasSuffix(l, "\\") && !strings.HasSuffix(l, "\\\\") {
				i++
				l = l[:len(l)-1] + lines[i]
			} else if openQuote(l) {
				i++
				l += "\n" + lines[i]
			} else {
				break
			}
		}
		if i == 0 && line == 1 && strings.HasPrefix(l, "#!") {
			continue
		}
		var heredocs []token
		for _, t := range p.lex(l, n) {
			if t.heredoc != "" {
				heredocs = append(heredocs, t)
			}
			st.next(p, t, n)
		}
		st.next(p, token{text: "\n", op: true}, n)
		// The bodies of here-documents are text.
		for _, h := range heredocs {
			for i+1 < len(lines) {
				i++
				body := lines[i]
				if h.stripTab {
					body = strings.TrimLeft(body, "\t")
				}
				if body == h.heredoc {
					break
				}
			}
		}
	}
}

// parseState is where the parser is in a command.
type parseState struct {
	command  bool // the next word is in command position
	redirect bool // the next word is the target of a redirection
	forVar   bool // after for: the variable, then "in" and words
	caseWord bool // after case: the word, then "in"
	pattern  bool // in a case: the patterns, until ")"
	inCase   int  // depth of case ... esac
	skipOpts bool // after a prefix builtin: its options
	funcName bool // after function: the name of a function
	last     string
}

// next takes one token.
func (s *parseState) next(p *scriptParser, t token, line int) {
	if t.op {
		switch t.text {
		case "(":
			if s.last != "" && !s.command {
				// name() { ...: a function definition.
				if p.functions == nil {
					p.functions = map[string]bool{}
				}
				p.functions[s.last] = true
			}
			s.command = true
		case ")":
			if s.pattern {
				s.pattern = false
			}
			s.command = true
		case ";;", ";&", ";;&":
			s.pattern = true
			s.command = false
		default:
			if s.forVar && (t.text == ";" || t.text == "\n") {
				s.forVar = false
			}
			if !s.caseWord {
				s.command = true
			}
		}
		s.redirect, s.skipOpts, s.last = false, false, ""
		return
	}
	w := t.text
	switch {
	case s.redirect:
		s.redirect = false
		return
	case isRedirection(w):
		// A redirection operator alone takes the next word.
		s.redirect = isRedirectionOnly(w)
		return
	case s.caseWord:
		if w == "in" {
			s.caseWord, s.pattern, s.command = false, true, false
		}
		return
	case s.pattern:
		if w == "esac" {
			s.pattern = false
			s.inCase--
			s.command = false
		}
		return
	case s.forVar:
		if w == "do" {
			s.forVar, s.command = false, true
		}
		return
	case s.funcName:
		s.funcName = false
		if p.functions == nil {
			p.functions = map[string]bool{}
		}
		p.functions[strings.TrimSuffix(w, "()")] = true
		s.command = false
		return
	case !s.command:
		s.last = ""
		return
	}
	// In command position.
	switch {
	case w == "case" && t.literal:
		s.caseWord = true
		s.inCase++
		s.command = false
	case (w == "for" || w == "select") && t.literal:
		s.forVar = true
		s.command = false
	case w == "function" && t.literal:
		s.funcName = true
	case w == "esac" && t.literal:
		s.inCase--
		s.command = false
	case shellReserved[w] && t.literal:
	case s.skipOpts && strings.HasPrefix(w, "-"):
		if w == "-v" || w == "-V" {
			// command -v NAME looks NAME up, it does not run it.
			s.command, s.skipOpts = false, false
		}
	case isAssignment(w):
	case !t.literal:
		s.command, s.skipOpts = false, false
	case prefixBuiltins[w]:
		s.skipOpts = true
	case shellBuiltins[w]:
		s.command, s.last = false, w
	default:
		if strings.HasPrefix(w, "/") || !strings.Contains(w, "/") {
			p.out = append(p.out, scriptCommand{Name: w, Line: line})
		}
		s.command, s.skipOpts, s.last = false, false, w
	}
}

// isAssignment reports whether w is NAME=VALUE (or NAME+=VALUE).
func isAssignment(w string) bool {
	name, _, ok := strings.Cut(w, "=")
	if !ok {
		return false
	}
	name = strings.TrimSuffix(name, "+")
	if name == "" {
		return false
	}
	for i, r := range name {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// isRedirection reports whether w begins with a redirection: [N]> [N]>>
// [N]< <> >& <& &> >| (with or without its target).
func isRedirection(w string) bool {
	w = strings.TrimLeft(w, "0123456789")
	return strings.HasPrefix(w, ">") || strings.HasPrefix(w, "<") || strings.HasPrefix(w, "&>")
}

// isRedirectionOnly reports whether the redirection w lacks its target.
func isRedirectionOnly(w string) bool {
	return isRedirection(w) && strings.Trim(strings.TrimLeft(w, "0123456789"), "<>&|-") == ""
}

// lex splits one line into tokens, and reads the command substitutions it
// holds as scripts of their own.
func (p *scriptParser) lex(l string, line int) []token {
	var toks []token
	var cur strings.Builder
	literal, inWord := true, false
	flush := func() {
		if inWord {
			toks = append(toks, token{text: cur.String(), literal: literal})
		}
		cur.Reset()
		literal, inWord = true, false
	}
	for i := 0; i < len(l); i++ {
		c := l[i]
		switch {
		case c == '#' && !inWord:
			// A comment, to the end of the line.
			flush()
			return p.heredocs(toks, l)
		case c == ' ' || c == '\t' || c == '\r':
			flush()
		case c == '\\':
			inWord, literal = true, false
			if i+1 < len(l) {
				cur.WriteByte(l[i+1])
				i++
			}
		case c == '\'':
			inWord, literal = true, false
			end := strings.IndexByte(l[i+1:], '\'')
			if end < 0 {
				end = len(l) - i - 1
			}
			cur.WriteString(l[i+1 : i+1+end])
			i += end + 1
		case c == '"':
			inWord, literal = true, false
			j := i + 1
			for j < len(l) && l[j] != '"' {
				if l[j] == '\\' {
					j++
				} else if l[j] == '$' && j+1 < len(l) && l[j+1] == '(' {
					end := matchParen(l, j+1)
					p.parse(l[j+2:end], line)
					j = end
				} else if l[j] == '`' {
					end := strings.IndexByte(l[j+1:], '`')
					if end < 0 {
						end = len(l) - j - 1
					}
					p.parse(l[j+1:j+1+end], line)
					j += end + 1
				}
				j++
			}
			cur.WriteString(l[i+1 : min(j, len(l))])
			i = j
		case c == '$' && i+1 < len(l) && l[i+1] == '(':
			inWord, literal = true, false
			end := matchParen(l, i+1)
			if i+2 < len(l) && l[i+2] == '(' {
				// $(( arithmetic )): no commands.
			} else {
				p.parse(l[i+2:end], line)
			}
			cur.WriteString(l[i:min(end+1, len(l))])
			i = end
		case c == '`':
			inWord, literal = true, false
			end := strings.IndexByte(l[i+1:], '`')
			if end < 0 {
				end = len(l) - i - 1
			}
			p.parse(l[i+1:i+1+end], line)
			i += end + 1
		case c == '$' || c == '*' || c == '?' || c == '[' && inWord || c == '~' && !inWord:
			inWord, literal = true, false
			cur.WriteByte(c)
		case c == ';' || c == '&' || c == '|' || c == '(' || c == ')':
			// A redirection such as 2>&1 or &> keeps its &.
			if c == '&' && (inWord && isRedirection(cur.String()) && strings.HasSuffix(cur.String(), ">") || i+1 < len(l) && l[i+1] == '>') {
				inWord = true
				cur.WriteByte(c)
				continue
			}
			if c == '|' && inWord && strings.HasSuffix(cur.String(), ">") {
				cur.WriteByte(c)
				continue
			}
			flush()
			op := string(c)
			if i+1 < len(l) && (l[i+1] == c && c != '(' && c != ')' || c == ';' && l[i+1] == '&') {
				op += string(l[i+1])
				i++
				if op == ";;" && i+1 < len(l) && l[i+1] == '&' {
					op += "&"
					i++
				}
			}
			toks = append(toks, token{text: op, op: true})
		case c == '<' || c == '>':
			// A redirection begins a word of its own (with its fd).
			if inWord && strings.Trim(cur.String(), "0123456789") != "" && cur.String() != "&" && !isRedirection(cur.String()) {
				flush()
			}
			inWord = true
			cur.WriteByte(c)
		default:
			if inWord && isRedirectionOnly(cur.String()) && cur.Len() > 0 {
				// The target follows the operator: a word of its own.
				op := cur.String()
				cur.Reset()
				toks = append(toks, token{text: op, literal: true})
			}
			inWord = true
			cur.WriteByte(c)
		}
	}
	flush()
	return p.heredocs(toks, l)
}

// heredocs marks the here-documents of a line's tokens: the word after
// << or <<- is the delimiter (quoted or not), and the body follows the
// line.
func (p *scriptParser) heredocs(toks []token, l string) []token {
	for i := 0; i < len(toks); i++ {
		w := strings.TrimLeft(toks[i].text, "0123456789")
		if toks[i].op || !strings.HasPrefix(w, "<<") || strings.HasPrefix(w, "<<<") {
			continue
		}
		strip := strings.HasPrefix(w, "<<-")
		delim := strings.TrimPrefix(strings.TrimPrefix(w, "<<"), "-")
		if delim == "" && i+1 < len(toks) && !toks[i+1].op {
			delim = toks[i+1].text
		}
		if delim != "" {
			toks[i].heredoc, toks[i].stripTab = delim, strip
		}
	}
	return toks
}

// matchParen returns the index of the ) that closes the ( at open, or
// len(l)-1 when the line does not close it.
func matchParen(l string, open int) int {
	depth := 0
	for j := open; j < len(l); j++ {
		switch l[j] {
		case '\\':
			j++
		case '\'':
			if end := strings.IndexByte(l[j+1:], '\''); end >= 0 {
				j += end + 1
			}
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return j
			}
		}
	}
	return len(l) - 1
}

// openQuote reports whether a quote of l is not closed on it (outside a
// comment).
func openQuote(l string) bool {
	var quote byte
	inWord := false
	for i := 0; i < len(l); i++ {
		c := l[i]
		switch {
		case quote == '\'':
			if c == '\'' {
				quote = 0
			}
		case quote == '"':
			if c == '\\' {
				i++
			} else if c == '"' {
				quote = 0
			}
		case c == '\\':
			i++
			inWord = true
		case c == '\'' || c == '"':
			quote, inWord = c, true
		case c == '#' && !inWord:
			return false
		case c == ' ' || c == '\t' || c == ';' || c == '&' || c == '|' || c == '(' || c == ')':
			inWord = false
		default:
			inWord = true
		}
	}
	return quote != 0
}
