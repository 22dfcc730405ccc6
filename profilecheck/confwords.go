package profilecheck

// ConfWords splits a line of a sysusers.d or tmpfiles.d file into its
// fields as systemd's extract_many_words with EXTRACT_UNQUOTE does: at
// spaces and tabs; single or double quotes keep a field together, and a
// backslash takes the next character as it is. ok is false when a quote
// or an escape is not closed.
func ConfWords(line string) (words []string, ok bool) {
	var word []rune
	inWord, escaped := false, false
	var quote rune
	for _, c := range line {
		switch {
		case escaped:
			word = append(word, c)
			escaped = false
		case c == '\\':
			escaped, inWord = true, true
		case quote != 0 && c == quote:
			quote = 0
		case quote != 0:
			word = append(word, c)
		case c == '"' || c == '\'':
			quote, inWord = c, true
		case c == ' ' || c == '\t':
			if inWord {
				words = append(words, string(word))
				word = word[:0]
				inWord = false
			}
		default:
			word = append(word, c)
			inWord = true
		}
	}
	if quote != 0 || escaped {
		return nil, false
	}
	if inWord {
		words = append(words, string(word))
	}
	return words, true
}
