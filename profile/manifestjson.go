package profile

import (
	"strconv"
	"unicode/utf8"
)

// encode renders the manifest as encoding/json's Encoder does with
// SetIndent("", "  ") and SetEscapeHTML(false): two-space indent, a
// trailing newline, no HTML escaping, the fields in the order and with the
// omissions of their struct tags. It writes the indented text at once,
// where the Encoder marshals by reflection and then indents a copy;
// TestManifestEncoding holds the two to the same bytes.
func (m Manifest) encode() []byte {
	w := jsonWriter{b: make([]byte, 0, 1024+460*len(m.Entries))}
	w.open('{')
	w.key("version")
	w.b = strconv.AppendInt(w.b, int64(m.Version), 10)
	w.key("entries")
	w.array(m.Entries == nil, len(m.Entries), func(i int) { w.entry(m.Entries[i]) })
	w.key("warnings")
	w.array(m.Warnings == nil, len(m.Warnings), func(i int) { w.b = appendJSONString(w.b, m.Warnings[i]) })
	if len(m.Assets) > 0 {
		w.key("assets")
		w.array(false, len(m.Assets), func(i int) { w.asset(m.Assets[i]) })
	}
	if len(m.Packages) > 0 {
		w.key("packages")
		w.array(false, len(m.Packages), func(i int) {
			w.open('{')
			w.str("name", m.Packages[i].Name)
			w.strOmitEmpty("option", m.Packages[i].Option)
			w.close('}')
		})
	}
	w.strOmitEmpty("packageProxy", m.PackageProxy)
	if len(m.ImagePrograms) > 0 {
		w.key("imagePrograms")
		w.array(false, len(m.ImagePrograms), func(i int) {
			w.open('{')
			w.str("path", m.ImagePrograms[i].Path)
			w.strOmitEmpty("option", m.ImagePrograms[i].Option)
			w.close('}')
		})
	}
	w.close('}')
	return append(w.b, '\n')
}

func (w *jsonWriter) entry(e ManifestEntry) {
	w.open('{')
	w.str("path", e.Path)
	w.str("type", e.Type)
	w.strOmitEmpty("mode", e.Mode)
	w.strOmitEmpty("user", e.User)
	w.strOmitEmpty("group", e.Group)
	w.strOmitEmpty("sha256", e.SHA256)
	if e.Size != nil {
		w.key("size")
		w.b = strconv.AppendInt(w.b, *e.Size, 10)
	}
	w.strOmitEmpty("target", e.Target)
	w.strOmitEmpty("option", e.Option)
	if len(e.Checks) > 0 {
		w.key("checks")
		w.array(false, len(e.Checks), func(i int) {
			c := e.Checks[i]
			w.open('{')
			w.key("programs")
			w.array(c.Programs == nil, len(c.Programs), func(j int) { w.b = appendJSONString(w.b, c.Programs[j]) })
			w.str("script", c.Script)
			if c.Root {
				w.key("root")
				w.b = append(w.b, "true"...)
			}
			w.close('}')
		})
	}
	w.close('}')
}

func (w *jsonWriter) asset(a Asset) {
	w.open('{')
	w.str("name", a.Name)
	w.str("url", a.URL)
	w.strOmitEmpty("mirror", a.Mirror)
	w.strOmitEmpty("sha256", a.SHA256)
	w.strOmitEmpty("sha512", a.SHA512)
	w.strOmitEmpty("archive", a.Archive)
	w.key("files")
	w.array(a.Files == nil, len(a.Files), func(i int) {
		w.open('{')
		w.str("path", a.Files[i].Path)
		w.strOmitEmpty("member", a.Files[i].Member)
		w.close('}')
	})
	w.strOmitEmpty("option", a.Option)
	w.close('}')
}

// jsonWriter appends indented JSON to b: each element of an object or
// array on a line of its own, indented two spaces a level; an empty one
// is {} or [].
type jsonWriter struct {
	b     []byte
	depth int
	first bool // no element yet in the innermost object or array
}

// open starts an object or array.
func (w *jsonWriter) open(c byte) {
	w.b = append(w.b, c)
	w.depth++
	w.first = true
}

// close ends the innermost object or array.
func (w *jsonWriter) close(c byte) {
	w.depth--
	if !w.first {
		w.newline()
	}
	w.b = append(w.b, c)
	w.first = false
}

// elem starts an element of the innermost object or array.
func (w *jsonWriter) elem() {
	if !w.first {
		w.b = append(w.b, ',')
	}
	w.first = false
	w.newline()
}

func (w *jsonWriter) newline() {
	w.b = append(w.b, '\n')
	for range w.depth {
		w.b = append(w.b, "  "...)
	}
}

// key starts the member k of the innermost object.
func (w *jsonWriter) key(k string) {
	w.elem()
	w.b = appendJSONString(w.b, k)
	w.b = append(w.b, ": "...)
}

func (w *jsonWriter) str(k, v string) {
	w.key(k)
	w.b = appendJSONString(w.b, v)
}

// strOmitEmpty is str of a field tagged omitempty.
func (w *jsonWriter) strOmitEmpty(k, v string) {
	if v != "" {
		w.str(k, v)
	}
}

// array writes a list of n elements, each by elem, or null for a nil
// slice.
func (w *jsonWriter) array(null bool, n int, elem func(i int)) {
	if null {
		w.b = append(w.b, "null"...)
		return
	}
	w.open('[')
	for i := range n {
		w.elem()
		elem(i)
	}
	w.close(']')
}

const hexDigits = "0123456789abcdef"

// appendJSONString appends s quoted as encoding/json quotes a string
// without HTML escaping: \" \\ \b \f \n \r \t, other control characters
// as \u00XX, U+2028 and U+2029 escaped (JavaScript reads them as line
// ends), each byte of invalid UTF-8 as \ufffd; the rest as it is.
func appendJSONString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c < utf8.RuneSelf {
			i++
			continue
		}
		if c < utf8.RuneSelf {
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
