package lsp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
)

// maxMessage bounds one message's body: a document larger than this is
// refused rather than read into memory. maxHeaderLine and maxHeaderFields
// bound its header (the protocol has two fields, Content-Length and
// Content-Type, each a short line).
const (
	maxMessage      = 64 << 20
	maxHeaderLine   = 1024
	maxHeaderFields = 16
)

// message is one JSON-RPC 2.0 message: a request (ID and Method), a
// notification (Method only) or a response (ID, and Result or Error).
type message struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *responseError  `json:"error,omitempty"`
}

// responseError is a JSON-RPC error object.
type responseError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

// JSON-RPC and LSP error codes.
const (
	codeParseError           = -32700
	codeInvalidRequest       = -32600
	codeMethodNotFound       = -32601
	codeInvalidParams        = -32602
	codeInternalError        = -32603
	codeServerNotInitialized = -32002
	codeRequestFailed        = -32803
)

// reader reads the base protocol: header fields, an empty line, then
// Content-Length bytes of JSON.
type reader struct{ r *bufio.Reader }

func newReader(r io.Reader) *reader { return &reader{bufio.NewReader(r)} }

// read returns the next message's body. A malformed header is an error the
// stream cannot recover from; io.EOF ends the stream.
func (r *reader) read() ([]byte, error) {
	// Line ends between messages (a client's stray newline, the end of a
	// file of messages) are passed over.
	for {
		b, err := r.r.Peek(1)
		if err != nil {
			return nil, err
		}
		if b[0] != '\r' && b[0] != '\n' {
			break
		}
		r.r.Discard(1)
	}
	n, err := r.header()
	if err != nil {
		return nil, err
	}
	if n > maxMessage {
		return nil, fmt.Errorf("message of %d bytes is over the limit of %d", n, maxMessage)
	}
	body := make([]byte, n)
	if _, err := io.ReadFull(r.r, body); err != nil {
		return nil, fmt.Errorf("reading a message body: %w", err)
	}
	return body, nil
}

// header reads a message's header up to its empty line and returns its
// Content-Length. A line longer than maxHeaderLine, more than
// maxHeaderFields fields, or a Content-Length that is not a number of at
// most maxMessage is an error, found before more than maxHeaderLine bytes
// of any one line are held.
func (r *reader) header() (int, error) {
	n := -1
	for fields := 0; ; fields++ {
		line, err := r.line()
		if err != nil {
			if err == io.EOF && fields == 0 {
				return 0, io.EOF
			}
			if err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			return 0, fmt.Errorf("reading a message header: %w", err)
		}
		if line == "" {
			break
		}
		if fields == maxHeaderFields {
			return 0, fmt.Errorf("reading a message header: more than %d fields", maxHeaderFields)
		}
		name, value, ok := strings.Cut(line, ":")
		if !ok {
			return 0, fmt.Errorf("reading a message header: malformed field %q", line)
		}
		if !strings.EqualFold(strings.TrimSpace(name), "Content-Length") {
			continue
		}
		v := strings.TrimSpace(value)
		m, err := strconv.Atoi(v)
		if err != nil || m < 0 {
			return 0, fmt.Errorf("bad Content-Length %q", v)
		}
		n = m
	}
	if n < 0 {
		return 0, fmt.Errorf("message header without Content-Length")
	}
	return n, nil
}

// line reads one header line without its line end (CRLF, or LF alone),
// of at most maxHeaderLine bytes.
func (r *reader) line() (string, error) {
	var b []byte
	for {
		chunk, err := r.r.ReadSlice('\n')
		if len(b)+len(chunk) > maxHeaderLine+2 {
			return "", fmt.Errorf("a header line longer than %d bytes", maxHeaderLine)
		}
		b = append(b, chunk...)
		switch err {
		case nil:
			b = b[:len(b)-1]
			if len(b) > 0 && b[len(b)-1] == '\r' {
				b = b[:len(b)-1]
			}
			return string(b), nil
		case bufio.ErrBufferFull:
			continue
		case io.EOF:
			if len(b) > 0 {
				return "", io.ErrUnexpectedEOF
			}
			return "", io.EOF
		default:
			return "", err
		}
	}
}

// writer writes messages, each whole in one Write, and counts them.
type writer struct {
	mu sync.Mutex
	w  io.Writer
	n  int
}

// write encodes v and writes it with its header.
func (w *writer) write(v any) error {
	var body bytes.Buffer
	enc := json.NewEncoder(&body)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	b := bytes.TrimSuffix(body.Bytes(), []byte("\n"))
	frame := fmt.Appendf(nil, "Content-Length: %d\r\n\r\n", len(b))
	frame = append(frame, b...)
	w.mu.Lock()
	defer w.mu.Unlock()
	w.n++
	_, err := w.w.Write(frame)
	return err
}

// count is the number of messages written so far.
func (w *writer) count() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.n
}
