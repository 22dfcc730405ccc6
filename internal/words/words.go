// Package words splits a line into words as systemd does in unit files
// and in sysusers.d and tmpfiles.d lines.
package words

import "errors"

import "strings"

// ErrUnterminated is Split's error for a line that ends inside quotes or
// after a lone backslash.
var ErrUnterminated = errors.New("unterminated quote or escape")

// Split splits line into words separated by spaces and tabs, which double
// or single quotes keep together (the quotes are removed) and a backslash
// escapes (the next character is taken as it is).
func Split(line string) ([]string, error) {
	var words []string
	var word strings.Builder
	inWord := false
	var quote rune
	escaped := false
	for _, c := range line {
		switch {
		case escaped:
			word.WriteRune(c)
			escaped = false
		case c == '\\':
			escaped, inWord = true, true
		case quote != 0 && c == quote:
			quote = 0
		case quote != 0:
			word.WriteRune(c)
		case c == '"' || c == '\'':
			quote, inWord = c, true
		case c == ' ' || c == '\t':
			if inWord {
				words = append(words, word.String())
				word.Reset()
				inWord = false
			}
		default:
			word.WriteRune(c)
			inWord = true
		}
	}
	if quote != 0 || escaped {
		return nil, ErrUnterminated
	}
	if inWord {
		words = append(words, word.String())
	}
	return words, nil
}
