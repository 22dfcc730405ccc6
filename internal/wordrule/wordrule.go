// Package wordrule holds the rules of the values that line-oriented
// formats read as one field: a user name in a sysusers.d line, a unit name
// in After=, an interface name in an nft string, a path in a tmpfiles.d
// line or in sshd_config; and the quoting of a value as one word of a
// shell script or of a unit's command line.
//
// Each rule is a function that returns "" for a value that keeps to it, or
// a sentence fragment saying what breaks it ("it holds a newline"). The
// option types of the same names (package options), the Ignition renderer,
// the profile writer and the activation's checks ask these functions, so
// that every path that writes or reads a format applies one rule. The
// package depends on the standard library alone.
package wordrule

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// A Rule is one of the rules below: its type name, what the values are
// (the type's description), the rule in words, and the check.
type Rule struct {
	Name    string
	Noun    string
	Rule    string
	Problem func(string) string
}

// Rules are the rules, by the name of the option type that applies
// each.
var Rules = []Rule{
	{"userName", "user or group name", "a letter or _, then letters, digits, _ or -, at most 31 characters (systemd-sysusers' rule)", UserNameProblem},
	{"unitName", "systemd unit name", "NAME.TYPE, a template NAME@.TYPE or an instance NAME@INSTANCE.TYPE, of letters, digits and :_.\\-, not starting with -, at most 255 characters (systemd's rule)", UnitNameProblem},
	{"interfaceName", "network interface name", "1 to 15 characters, without white space, control characters, /, :, quotes or backslashes, and not * alone (Linux's rule, and what an nft string can hold)", InterfaceNameProblem},
	{"host", "host name or IP address", "letters, digits, ., -, _ and :", HostProblem},
	{"word", "word", "one or more characters, without white space, control characters, quotes or backslashes, not starting with # (a comment)", WordProblem},
	{"fileName", "file name", "one component of a path: a word that holds no /, is not . or .., at most 255 bytes", FileNameProblem},
	{"pathWord", "one-word absolute path", "a normalized absolute path without white space, control characters, quotes, backslashes or % (which systemd-sysusers and systemd-tmpfiles expand)", PathWordProblem},
	{"gecos", "GECOS field (account description)", "valid UTF-8 without control characters (a newline among them) or : (the field separator of /etc/passwd; systemd-sysusers' rule)", GECOSProblem},
}

// describeRune names a character for a message: "a space", "a newline",
// or the character quoted.
func describeRune(r rune) string {
	switch r {
	case ' ':
		return "a space"
	case '\n':
		return "a newline"
	case '\r':
		return "a carriage return"
	case '\t':
		return "a tab"
	}
	if unicode.IsControl(r) || unicode.IsSpace(r) {
		return fmt.Sprintf("the character %U", r)
	}
	return fmt.Sprintf("%q", r)
}

// firstBad returns a problem for the first rune of s that ok refuses.
func firstBad(s string, ok func(i int, r rune) bool) string {
	if !utf8.ValidString(s) {
		return "it is not valid UTF-8"
	}
	for i, r := range s {
		if !ok(i, r) {
			return "it holds " + describeRune(r)
		}
	}
	return ""
}

func isASCIILetter(r rune) bool { return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' }
func isASCIIDigit(r rune) bool  { return r >= '0' && r <= '9' }

// UserNameProblem checks a user or group name as systemd-sysusers does
// (valid_user_group_name without the relaxed mode): a letter or _, then
// letters, digits, _ or -, at most 31 characters.
func UserNameProblem(s string) string {
	switch {
	case s == "":
		return "it is empty"
	case len(s) > 31:
		return "it is longer than 31 characters"
	}
	if r, _ := utf8.DecodeRuneInString(s); !isASCIILetter(r) && r != '_' {
		return fmt.Sprintf("it starts with %s, not a letter or _", describeRune(r))
	}
	return firstBad(s, func(_ int, r rune) bool {
		return isASCIILetter(r) || isASCIIDigit(r) || r == '_' || r == '-'
	})
}

// unitTypes are the suffixes of systemd unit names.
var unitTypes = []string{"service", "socket", "target", "device", "mount", "automount", "swap", "timer", "path", "slice", "scope"}

func unitChar(r rune) bool {
	return isASCIILetter(r) || isASCIIDigit(r) || strings.ContainsRune(":_.\\-", r)
}

// UnitNameProblem checks a unit name as systemd does (unit_name_is_valid):
// NAME.TYPE with a known TYPE, or NAME@.TYPE (a template) or
// NAME@INSTANCE.TYPE, of letters, digits and ":_.\-", at most 255
// characters. A name that starts with "-" is refused too (but for "-.mount"
// and "-.slice", the root's): systemctl reads it as an option.
func UnitNameProblem(s string) string {
	if s == "" {
		return "it is empty"
	}
	if len(s) > 255 {
		return "it is longer than 255 characters"
	}
	dot := strings.LastIndexByte(s, '.')
	if dot < 0 {
		return "it has no type suffix (.service, .target, ...)"
	}
	name, suffix := s[:dot], s[dot+1:]
	known := false
	for _, t := range unitTypes {
		known = known || t == suffix
	}
	if !known {
		return fmt.Sprintf("its type %q is none of systemd's (%s)", suffix, strings.Join(unitTypes, ", "))
	}
	if name == "" {
		return "its name before the type is empty"
	}
	if strings.HasPrefix(name, "-") && name != "-" {
		return "it starts with -, which systemctl reads as an option"
	}
	prefix, instance, templ := strings.Cut(name, "@")
	if templ && prefix == "" {
		return "its name before @ is empty"
	}
	if p := firstBad(prefix, func(_ int, r rune) bool { return unitChar(r) }); p != "" {
		return p
	}
	if templ {
		return firstBad(instance, func(_ int, r rune) bool { return unitChar(r) })
	}
	return ""
}

// InterfaceNameProblem checks a network interface name as Linux does
// (dev_valid_name: 1 to 15 bytes, not "." or "..", no "/", ":" or white
// space) and as an nft string can hold it (no quote, backslash or control
// character). "*" is allowed: nft reads "eth*" as a wildcard.
func InterfaceNameProblem(s string) string {
	switch {
	case s == "":
		return "it is empty"
	case len(s) > 15:
		return "it is longer than 15 bytes"
	case s == "." || s == "..":
		return "it is . or .."
	case s == "*":
		return "it is * alone, which nft refuses (a wildcard needs a prefix, as eth*)"
	}
	return firstBad(s, func(_ int, r rune) bool {
		return !unicode.IsSpace(r) && !unicode.IsControl(r) && !strings.ContainsRune("/:\"'\\", r)
	})
}

// HostProblem checks a host name or an IP address written as one word:
// letters, digits, ".", "-", "_" and ":" (IPv6).
func HostProblem(s string) string {
	if s == "" {
		return "it is empty"
	}
	return firstBad(s, func(_ int, r rune) bool {
		return isASCIILetter(r) || isASCIIDigit(r) || strings.ContainsRune(".-_:", r)
	})
}

// WordProblem checks one word of a line-oriented format that splits on
// white space: not empty, no white space, control character, quote or
// backslash, and not starting with #, which starts a comment where a word
// may begin in sshd_config.
func WordProblem(s string) string {
	if s == "" {
		return "it is empty"
	}
	if strings.HasPrefix(s, "#") {
		return "it starts with #, which starts a comment"
	}
	return firstBad(s, func(_ int, r rune) bool {
		return !unicode.IsSpace(r) && !unicode.IsControl(r) && !strings.ContainsRune("\"'\\", r)
	})
}

// PathWordProblem checks an absolute path written as one field: a word
// (WordProblem) that starts with "/", is normalized (no empty, "." or
// ".." component, no "/" at the end: systemd-sysusers reads "/bin/sh/" as
// "/bin/sh") and holds no "%", which systemd-sysusers and
// systemd-tmpfiles expand as a specifier.
func PathWordProblem(s string) string {
	if p := WordProblem(s); p != "" {
		return p
	}
	if !strings.HasPrefix(s, "/") {
		return "it is not an absolute path"
	}
	if strings.Contains(s, "%") {
		return "it holds %"
	}
	if s != "/" {
		for _, c := range strings.Split(s[1:], "/") {
			if c == "" || c == "." || c == ".." {
				return "it is not normalized (an empty, . or .. component, or a / at the end)"
			}
		}
	}
	return ""
}

// FileNameProblem checks the name of one file in a directory, written as
// one field: a word (WordProblem) that is one component of a path, not a
// path: no "/", not "." or "..", at most 255 bytes (Linux's NAME_MAX).
func FileNameProblem(s string) string {
	if p := WordProblem(s); p != "" {
		return p
	}
	switch {
	case strings.Contains(s, "/"):
		return "it holds /, which makes it a path"
	case s == "." || s == "..":
		return "it is " + s + ", a directory"
	case len(s) > 255:
		return "it is longer than 255 bytes"
	}
	return ""
}

// ShellQuote writes s as one word of a POSIX shell script: in single
// quotes, each single quote written '\” (NixOS's escapeShellArg). The
// shell reads it back as s, whatever s holds.
func ShellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// SystemdExecArg writes s as one argument of a command line of a unit
// (ExecStart= and the like), to be read back as s (NixOS's
// utils.escapeSystemdExecArg): % written %% (a specifier) and $ written $$
// (a variable), and in double quotes, with \ and " escaped and control
// characters as C escapes (\xNN, or \uNNNN beyond ASCII), when it is
// empty, a lone ";" (which separates commands), or holds white space, a
// quote, a backslash or a control character.
func SystemdExecArg(s string) string {
	s = strings.NewReplacer("%", "%%", "$", "$$").Replace(s)
	if s != "" && s != ";" && !strings.ContainsFunc(s, func(r rune) bool {
		return unicode.IsSpace(r) || unicode.IsControl(r) || r == '"' || r == '\'' || r == '\\'
	}) {
		return s
	}
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '\\' || r == '"':
			b.WriteString(`\` + string(r))
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case unicode.IsControl(r) && r < 0x80:
			fmt.Fprintf(&b, `\x%02x`, r)
		case unicode.IsControl(r):
			// systemd reads \xNN as one byte: a C1 control character
			// (U+0080 to U+009F) is written \uNNNN, its UTF-8.
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// GECOSProblem checks the description of an account (the GECOS field of
// /etc/passwd) as systemd-sysusers does (valid_gecos): valid UTF-8, no
// control character and no colon, the field separator. Empty is no
// description.
func GECOSProblem(s string) string {
	return firstBad(s, func(_ int, r rune) bool { return r >= 0x20 && r != 0x7f && r != ':' })
}

// The largest user or group ID, and the one that 16-bit programs read as
// -1.
const (
	maxID = 4294967294
	id16  = 65535
)

// IDProblem checks a user or group ID as systemd does (uid_is_valid): 0
// to 4294967294 (4294967295 is -1), and not 65535 (-1 to 16-bit
// programs).
func IDProblem(id int64) string {
	switch {
	case id < 0:
		return fmt.Sprintf("it is %d, negative", id)
	case id > maxID:
		return fmt.Sprintf("it is %d, larger than %d", id, maxID)
	case id == id16:
		return "it is 65535, which 16-bit programs read as -1"
	}
	return ""
}
