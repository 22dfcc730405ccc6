package ignition

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// encode renders a config as JSON: without the empty objects that the
// ignition types marshal for every struct they embed (an empty object means
// what an absent one means), indented by two spaces, with a trailing
// newline, and without HTML escaping. Keys keep the order of the types'
// fields.
func encode(cfg any) ([]byte, error) {
	raw, err := json.Marshal(cfg)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var compact bytes.Buffer
	if _, err := prune(dec, &compact); err != nil {
		return nil, fmt.Errorf("encoding the Ignition config: %w", err)
	}
	var out bytes.Buffer
	if err := json.Indent(&out, compact.Bytes(), "", "  "); err != nil {
		return nil, err
	}
	out.WriteByte('\n')
	return out.Bytes(), nil
}

// prune copies the next JSON value of dec to out, leaving out the object
// members whose value is an empty object or array, and reports whether the
// value itself is such an empty one.
func prune(dec *json.Decoder, out *bytes.Buffer) (empty bool, err error) {
	tok, err := dec.Token()
	if err != nil {
		return false, err
	}
	delim, ok := tok.(json.Delim)
	if !ok {
		return false, writeScalar(out, tok)
	}
	closing := byte('}')
	if delim == '[' {
		closing = ']'
	}
	out.WriteByte(byte(delim))
	n := 0
	for dec.More() {
		var member bytes.Buffer
		if n > 0 {
			member.WriteByte(',')
		}
		if delim == '{' {
			key, err := dec.Token()
			if err != nil {
				return false, err
			}
			if err := writeScalar(&member, key); err != nil {
				return false, err
			}
			member.WriteByte(':')
		}
		e, err := prune(dec, &member)
		if err != nil {
			return false, err
		}
		if e && delim == '{' {
			continue
		}
		out.Write(member.Bytes())
		n++
	}
	if _, err := dec.Token(); err != nil { // the closing delimiter
		return false, err
	}
	out.WriteByte(closing)
	return n == 0, nil
}

// writeScalar writes a string, number, boolean or null token.
func writeScalar(out *bytes.Buffer, tok json.Token) error {
	if n, ok := tok.(json.Number); ok {
		out.WriteString(n.String())
		return nil
	}
	enc := json.NewEncoder(out)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(tok); err != nil {
		return err
	}
	out.Truncate(out.Len() - 1) // Encode's newline
	return nil
}
