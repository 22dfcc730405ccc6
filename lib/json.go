package lib

import (
	"bytes"
	"encoding/json"
	"sort"
	"strconv"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/function/stdlib"

	"github.com/nodegen/nodegen/internal/ctyelems"
)

// JSONEncodeFunc is jsonencode(value), go-cty's (and Terraform's), with a
// faster encoder for the values modules encode: go-cty's goes through
// encoding/json for every string and makes a key value for every object
// attribute, which made jsonencode a tenth of evaluating a Kubernetes
// host. The output is byte for byte go-cty's (TestJSONEncode compares the
// two); values the fast encoder does not handle (unknown, capsules,
// infinities) go to go-cty's.
var JSONEncodeFunc = native(&function.Spec{
	Description:  stdlib.JSONEncodeFunc.Description(),
	Params:       stdlib.JSONEncodeFunc.Params(),
	Type:         function.StaticReturnType(cty.String),
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		v := args[0]
		if v.IsKnown() && v.IsNull() {
			return cty.StringVal("null"), nil
		}
		var b bytes.Buffer
		// encodeJSON gives up on an unknown value inside, as on anything
		// else it leaves to go-cty's.
		if encodeJSON(&b, v) {
			return cty.StringVal(b.String()), nil
		}
		return stdlib.JSONEncodeFunc.Call(args)
	},
})

// encodeJSON writes v as go-cty's json.Marshal does; false if v holds
// something it leaves to go-cty.
func encodeJSON(b *bytes.Buffer, v cty.Value) bool {
	if v.IsMarked() || !v.IsKnown() {
		return false
	}
	if v.IsNull() {
		b.WriteString("null")
		return true
	}
	ty := v.Type()
	switch {
	case ty == cty.String:
		encodeJSONString(b, v.AsString())
	case ty == cty.Number:
		if v.RawEquals(cty.PositiveInfinity) || v.RawEquals(cty.NegativeInfinity) {
			return false
		}
		f := v.AsBigFloat()
		if i, acc := f.Int64(); f.IsInt() && acc == 0 {
			b.WriteString(strconv.FormatInt(i, 10))
		} else {
			b.WriteString(f.Text('f', -1))
		}
	case ty == cty.Bool:
		if v.True() {
			b.WriteString("true")
		} else {
			b.WriteString("false")
		}
	case ty.IsObjectType():
		atys := ty.AttributeTypes()
		names := make([]string, 0, len(atys))
		for k := range atys {
			names = append(names, k)
		}
		sort.Strings(names)
		b.WriteByte('{')
		for i, k := range names {
			if i > 0 {
				b.WriteByte(',')
			}
			encodeJSONString(b, k)
			b.WriteByte(':')
			if !encodeJSON(b, v.GetAttr(k)) {
				return false
			}
		}
		b.WriteByte('}')
	case ty.IsMapType():
		b.WriteByte('{')
		first := true
		for it := v.ElementIterator(); it.Next(); {
			k, e := it.Element()
			if !first {
				b.WriteByte(',')
			}
			first = false
			encodeJSONString(b, k.AsString())
			b.WriteByte(':')
			if !encodeJSON(b, e) {
				return false
			}
		}
		b.WriteByte('}')
	case ty.IsTupleType() || ty.IsListType() || ty.IsSetType():
		b.WriteByte('[')
		for i, e := range ctyelems.Elems(v) {
			if i > 0 {
				b.WriteByte(',')
			}
			if !encodeJSON(b, e) {
				return false
			}
		}
		b.WriteByte(']')
	default:
		return false
	}
	return true
}

// encodeJSONString writes s as encoding/json does (HTML-safe escaping
// included): printable ASCII that needs no escape is written as it is, and
// anything else goes through encoding/json.
func encodeJSONString(b *bytes.Buffer, s string) {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			out, _ := json.Marshal(s)
			b.Write(out)
			return
		}
	}
	b.WriteByte('"')
	b.WriteString(s)
	b.WriteByte('"')
}
