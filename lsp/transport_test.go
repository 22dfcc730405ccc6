package lsp

import (
	"bytes"
	"io"
	"strings"
	"testing"
)

func TestReader(t *testing.T) {
	tests := []struct {
		name  string
		input string
		want  []string // the bodies read
		err   string   // the error after them ("" for io.EOF)
	}{
		{"two messages", "Content-Length: 2\r\n\r\n{}Content-Length: 4\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\nnull", []string{"{}", "null"}, ""},
		{"newlines between messages", "\r\nContent-Length: 2\n\n{}\n\n", []string{"{}"}, ""},
		{"no Content-Length", "Content-Type: x\r\n\r\n{}", nil, "message header without Content-Length"},
		{"bad Content-Length", "Content-Length: two\r\n\r\n{}", nil, `bad Content-Length "two"`},
		{"negative Content-Length", "Content-Length: -1\r\n\r\n", nil, `bad Content-Length "-1"`},
		{"over the limit", "Content-Length: 99999999999\r\n\r\n", nil, "message of 99999999999 bytes is over the limit"},
		{"short body", "Content-Length: 10\r\n\r\n{}", nil, "reading a message body: unexpected EOF"},
		{"header cut", "Content-Length: 10\r\n", nil, "reading a message header"},
		{"empty", "", nil, ""},
		{"header line too long", "X-Pad: " + strings.Repeat("a", maxHeaderLine) + "\r\nContent-Length: 2\r\n\r\n{}", nil, "a header line longer than 1024 bytes"},
		{"longest header line", "X-Pad: " + strings.Repeat("a", maxHeaderLine-7) + "\r\nContent-Length: 2\r\n\r\n{}", []string{"{}"}, ""},
		{"too many fields", strings.Repeat("X-A: b\r\n", maxHeaderFields) + "Content-Length: 2\r\n\r\n{}", nil, "more than 16 fields"},
		{"malformed field", "Content-Length 2\r\n\r\n{}", nil, "malformed field"},
		{"case of the name", "content-length: 2\r\n\r\n{}", []string{"{}"}, ""},
		{"line cut", "Content-Len", nil, "unexpected EOF"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newReader(strings.NewReader(tt.input))
			var got []string
			var err error
			for {
				var b []byte
				if b, err = r.read(); err != nil {
					break
				}
				got = append(got, string(b))
			}
			if strings.Join(got, "|") != strings.Join(tt.want, "|") {
				t.Errorf("bodies %q, want %q", got, tt.want)
			}
			switch {
			case tt.err == "" && err != io.EOF:
				t.Errorf("error %v, want io.EOF", err)
			case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
				t.Errorf("error %v, want one with %q", err, tt.err)
			}
		})
	}
}

// endless is an endless header line of 'a's that counts what was read
// of it.
type endless struct{ n int64 }

func (e *endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'a'
	}
	e.n += int64(len(p))
	return len(p), nil
}

// TestReaderHeaderBounded: a header line without end (N19: a 200 MB one
// took the server to 900 MB) is refused after reading at most a buffer
// more than the longest line allowed.
func TestReaderHeaderBounded(t *testing.T) {
	src := &endless{}
	_, err := newReader(io.MultiReader(strings.NewReader("X-Pad: "), src)).read()
	if err == nil || !strings.Contains(err.Error(), "a header line longer than") {
		t.Fatalf("error %v, want one with a header line longer than", err)
	}
	if src.n > 64<<10 {
		t.Errorf("read %d bytes of an endless header line, want at most 64 KiB", src.n)
	}
}

func TestWriterFrames(t *testing.T) {
	var buf bytes.Buffer
	w := &writer{w: &buf}
	if err := w.write(map[string]string{"a": "<é>"}); err != nil {
		t.Fatal(err)
	}
	// No HTML escaping, the length in bytes.
	if got, want := buf.String(), "Content-Length: 12\r\n\r\n{\"a\":\"<é>\"}"; got != want {
		t.Errorf("frame %q, want %q", got, want)
	}
	if w.count() != 1 {
		t.Errorf("count %d, want 1", w.count())
	}
}
