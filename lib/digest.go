package lib

import (
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"hash"
	"net/url"
	"unicode/utf8"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
)

// Base64EncodeFunc is base64encode(str): the standard Base64 encoding (RFC
// 4648, with padding) of the UTF-8 bytes of str.
var Base64EncodeFunc = native(&function.Spec{
	Description: "Encodes the UTF-8 bytes of the given string in standard Base64.",
	Params: []function.Parameter{
		{Name: "str", Type: cty.String},
	},
	Type:         function.StaticReturnType(cty.String),
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		return cty.StringVal(base64.StdEncoding.EncodeToString([]byte(args[0].AsString()))), nil
	},
})

// Base64DecodeFunc is base64decode(str): the string whose UTF-8 bytes are
// the standard Base64 str. It is an error if str is not Base64 or the bytes
// are not UTF-8.
var Base64DecodeFunc = native(&function.Spec{
	Description: "Decodes a string in standard Base64 whose bytes are UTF-8.",
	Params: []function.Parameter{
		{Name: "str", Type: cty.String},
	},
	Type:         function.StaticReturnType(cty.String),
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		b, err := base64.StdEncoding.DecodeString(args[0].AsString())
		if err != nil {
			return cty.NilVal, function.NewArgErrorf(0, "invalid Base64: %s", err)
		}
		if !utf8.Valid(b) {
			return cty.NilVal, function.NewArgErrorf(0, "the decoded bytes are not valid UTF-8")
		}
		return cty.StringVal(string(b)), nil
	},
})

// URLEncodeFunc is urlencode(str), as in Terraform: str escaped for a URL
// query (url.QueryEscape), so that a space becomes "+" and "!" "%21".
var URLEncodeFunc = native(&function.Spec{
	Description: "Escapes the given string for use in a URL query.",
	Params: []function.Parameter{
		{Name: "str", Type: cty.String},
	},
	Type:         function.StaticReturnType(cty.String),
	RefineResult: refineNotNull,
	Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
		return cty.StringVal(url.QueryEscape(args[0].AsString())), nil
	},
})

// MD5Func is md5(str): the MD5 digest of the UTF-8 bytes of str, in
// lower-case hexadecimal.
var MD5Func = digestFunc("MD5", md5.New)

// SHA1Func is sha1(str): the SHA-1 digest of the UTF-8 bytes of str, in
// lower-case hexadecimal.
var SHA1Func = digestFunc("SHA-1", sha1.New)

// SHA256Func is sha256(str): the SHA-256 digest of the UTF-8 bytes of str,
// in lower-case hexadecimal.
var SHA256Func = digestFunc("SHA-256", sha256.New)

// digestFunc makes a function that hashes a string with h.
func digestFunc(name string, h func() hash.Hash) function.Function {
	return native(&function.Spec{
		Description: "Returns the " + name + " digest of the UTF-8 bytes of the given string, in lower-case hexadecimal.",
		Params: []function.Parameter{
			{Name: "str", Type: cty.String},
		},
		Type:         function.StaticReturnType(cty.String),
		RefineResult: refineNotNull,
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			d := h()
			d.Write([]byte(args[0].AsString()))
			return cty.StringVal(hex.EncodeToString(d.Sum(nil))), nil
		},
	})
}
