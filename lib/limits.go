package lib

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
	"github.com/zclconf/go-cty/cty/function/stdlib"

	"github.com/nodegen/nodegen/internal/ctyelems"
)

// Limits bound the values that a function call may make: the evaluator's
// limits on one collection and one string.
type Limits struct {
	// Elements is how many elements one collection may have.
	Elements int
	// StringBytes is how many bytes one string may have.
	StringBytes int
}

// TooLargeError says that a call would make a value over Limits; Limit
// names the limit ("elements" or "string").
type TooLargeError struct {
	Msg   string
	Limit string
}

// Error returns the message.
func (e *TooLargeError) Error() string { return e.Msg }

// BoundError says that an argument passes a bound of a function that no
// limit raises: format's widths and precisions (maxFormatWidth). It is
// the function.ArgError of that argument too, for errors.As.
type BoundError struct {
	// Arg is the error as an argument's: its index and message.
	Arg function.ArgError
}

// Error returns the message.
func (e *BoundError) Error() string { return e.Arg.Error() }

// As makes errors.As find the function.ArgError of e.
func (e *BoundError) As(target any) bool {
	if t, ok := target.(*function.ArgError); ok {
		*t = e.Arg
		return true
	}
	return false
}

// maxFormatWidth bounds the widths and precisions of format's verbs. Go's
// fmt gives up past a million and prints "%!(NOVERB)" instead; no
// configuration needs a field this wide.
const maxFormatWidth = 10000

// CheckCall reports, before f is called with args, whether the call would
// make a value over the limits. It looks at the functions whose result can
// be much larger than their arguments (setproduct, join, format, replace,
// the encoders and others): a check after the call would come after the
// memory is spent. The results of the other functions are no larger than
// their arguments, which were checked when they were made. A call that is
// not over the limits is nil, and so is one that the function itself will
// refuse (a wrong number of arguments, a wrong type, a null). The checks
// see the arguments converted to the types of the parameters, as the
// function does, and CheckCall returns them for the call (Call then has
// nothing left to convert); where it converted nothing, or the conversion
// failed, it returns args. Unknown values inside the arguments count as
// small.
func CheckCall(f function.Function, args []cty.Value, l Limits) ([]cty.Value, error) {
	check, ok := callChecks[f]
	if !ok {
		return args, nil
	}
	params, vp := ParamsAndVarParam(f)
	if !arityOK(params, vp, len(args)) {
		return args, nil
	}
	conv, err := convertArgs(params, vp, args)
	if err != nil {
		return args, nil
	}
	for _, a := range conv {
		if !a.IsKnown() || a.IsNull() {
			return conv, nil
		}
	}
	return conv, check(conv, l)
}

type callCheck func(args []cty.Value, l Limits) error

var callChecks map[function.Function]callCheck

func init() {
	callChecks = map[function.Function]callCheck{
		stdlib.SetProductFunc: checkProduct,
		stdlib.JoinFunc:       checkJoin,
		stdlib.ConcatFunc:     checkSum("concat"),
		stdlib.MergeFunc:      checkSum("merge"),
		stdlib.SetUnionFunc:   checkSum("setunion"),
		stdlib.FlattenFunc:    checkFlatten,
		stdlib.FormatFunc:     checkFormat,
		stdlib.FormatListFunc: checkFormat,
		stdlib.IndentFunc:     checkIndent,
		stdlib.SplitFunc:      checkSplit,
		stdlib.RegexAllFunc:   checkRegexAll,
		stdlib.CSVDecodeFunc:  checkCSV,
		stdlib.JSONDecodeFunc: checkJSONDecode,
		ReplaceFunc:           checkReplace,
		JSONEncodeFunc:        checkEncode("jsonencode"),
		YAMLEncodeFunc:        checkEncode("yamlencode"),
		TOMLEncodeFunc:        checkEncode("tomlencode"),
		INIEncodeFunc:         checkEncode("iniencode"),
		KeyValueEncodeFunc:    checkEncode("keyvalueencode"),
		FormatEncodeFunc:      checkEncode("formatencode"),
		SystemdUnitFunc:       checkEncode("systemdunit"),
		Base64EncodeFunc:      checkEncode("base64encode"),
		URLEncodeFunc:         checkEncode("urlencode"),
	}
}

// tooManyElements and tooManyBytes say that a result would pass a limit.
func tooManyElements(what string, l Limits) error {
	return &TooLargeError{Limit: "elements", Msg: fmt.Sprintf("%s would have more than %d elements (limit elements)", what, l.Elements)}
}

func tooManyBytes(what string, l Limits) error {
	return &TooLargeError{Limit: "string", Msg: fmt.Sprintf("%s would have more than %d bytes (limit string)", what, l.StringBytes)}
}

// length is the number of elements of a collection, 0 for anything else.
func length(v cty.Value) int64 {
	if v.CanIterateElements() {
		return int64(v.LengthInt())
	}
	return 0
}

func checkProduct(args []cty.Value, l Limits) error {
	n := int64(1)
	for _, a := range args {
		n *= length(a)
		if n > int64(l.Elements) {
			return tooManyElements("the product", l)
		}
		if n == 0 {
			return nil
		}
	}
	return nil
}

func checkSum(name string) callCheck {
	return func(args []cty.Value, l Limits) error {
		var n int64
		for _, a := range args {
			n += length(a)
		}
		if n > int64(l.Elements) {
			return tooManyElements("the result of "+name, l)
		}
		return nil
	}
}

func checkJoin(args []cty.Value, l Limits) error {
	sep := int64(stringLen(args[0]))
	var n int64
	for _, list := range args[1:] {
		if !list.CanIterateElements() {
			return nil
		}
		for _, v := range ctyelems.Elems(list) {
			n += int64(stringLen(v)) + sep
			if n > int64(l.StringBytes) {
				return tooManyBytes("the joined string", l)
			}
		}
	}
	return nil
}

// stringLen is the length of a string value, 0 for anything else.
func stringLen(v cty.Value) int {
	if v.Type() == cty.String && v.IsKnown() && !v.IsNull() {
		return len(v.AsString())
	}
	return 0
}

// deepSize is about how many bytes a value takes written out: the bytes of
// its strings and a few for every other value, counted until it passes
// max. A value holding the same large value many times counts it each
// time, as writing it out does.
func deepSize(v cty.Value, max int64) int64 {
	var n int64
	var walk func(v cty.Value)
	walk = func(v cty.Value) {
		if n > max {
			return
		}
		ty := v.Type()
		switch {
		case !v.IsKnown() || v.IsNull():
			n += 4
		case ty == cty.String:
			n += int64(len(v.AsString())) + 2
		case ty.IsObjectType():
			// Not ElementIterator, which sorts the names, nor for lists
			// below, which makes a number for every index: this walk
			// runs before every encoding of a whole configuration.
			n += 2
			for k := range ty.AttributeTypes() {
				if n > max {
					break
				}
				n += int64(len(k)) + 2
				walk(v.GetAttr(k))
			}
		case ty.IsMapType():
			n += 2
			for k, e := range v.AsValueMap() {
				if n > max {
					break
				}
				n += int64(len(k)) + 2
				walk(e)
			}
		case ty.IsListType() || ty.IsTupleType() || ty.IsSetType():
			n += 2
			for _, e := range ctyelems.Elems(v) {
				if n > max {
					break
				}
				walk(e)
			}
		default:
			n += 8
		}
	}
	walk(v)
	return n
}

func checkEncode(name string) callCheck {
	return func(args []cty.Value, l Limits) error {
		var n int64
		for _, a := range args {
			n += deepSize(a, int64(l.StringBytes))
		}
		if name == "base64encode" || name == "urlencode" {
			// Their results are up to 4/3 and 3 times as long.
			n = n * 4 / 3
		}
		if n > int64(l.StringBytes) {
			return tooManyBytes("the result of "+name, l)
		}
		return nil
	}
}

func checkFlatten(args []cty.Value, l Limits) error {
	var n int64
	var walk func(v cty.Value)
	walk = func(v cty.Value) {
		for _, e := range ctyelems.Elems(v) {
			if n > int64(l.Elements) {
				return
			}
			if e.IsKnown() && !e.IsNull() && (e.Type().IsListType() || e.Type().IsTupleType() || e.Type().IsSetType()) {
				walk(e)
				continue
			}
			n++
		}
	}
	if args[0].CanIterateElements() {
		walk(args[0])
	}
	if n > int64(l.Elements) {
		return tooManyElements("the flattened list", l)
	}
	return nil
}

// checkFormat bounds format and formatlist: no verb may be wider or more
// precise than maxFormatWidth, and the result, each verb counted as wide
// as its widest argument, must fit the string limit.
func checkFormat(args []cty.Value, l Limits) error {
	if args[0].Type() != cty.String {
		return nil
	}
	spec := args[0].AsString()
	var widest int64
	for _, a := range args[1:] {
		if s := deepSize(a, int64(l.StringBytes)); s > widest {
			widest = s
		}
	}
	n := int64(len(spec))
	for i := 0; i < len(spec); i++ {
		if spec[i] != '%' {
			continue
		}
		i++
		if i < len(spec) && spec[i] == '%' {
			continue
		}
		var nums []int64
		cur := int64(-1)
		for ; i < len(spec); i++ {
			c := spec[i]
			if c >= '0' && c <= '9' {
				if cur < 0 {
					cur = 0
				}
				if cur <= 1<<40 {
					cur = cur*10 + int64(c-'0')
				}
				continue
			}
			if cur >= 0 {
				nums = append(nums, cur)
				cur = -1
			}
			if !strings.ContainsRune(" +-#0.[]", rune(c)) {
				break
			}
		}
		for _, w := range nums {
			if w > maxFormatWidth {
				return &BoundError{Arg: function.NewArgErrorf(0, "a width or precision of %d is more than format allows, %d", w, maxFormatWidth).(function.ArgError)}
			}
			n += w
		}
		n += widest
		if n > int64(l.StringBytes) {
			return tooManyBytes("the formatted string", l)
		}
	}
	return nil
}

func checkIndent(args []cty.Value, l Limits) error {
	if args[1].Type() != cty.String {
		return nil
	}
	spaces, _ := args[0].AsBigFloat().Int64()
	s := args[1].AsString()
	n := int64(len(s)) + spaces*int64(strings.Count(s, "\n"))
	if spaces > int64(l.StringBytes) || n > int64(l.StringBytes) {
		return tooManyBytes("the indented string", l)
	}
	return nil
}

func checkSplit(args []cty.Value, l Limits) error {
	if args[0].Type() != cty.String || args[1].Type() != cty.String {
		return nil
	}
	sep, s := args[0].AsString(), args[1].AsString()
	var n int64
	if sep == "" {
		n = int64(utf8.RuneCountInString(s))
	} else {
		n = int64(strings.Count(s, sep)) + 1
	}
	if n > int64(l.Elements) {
		return tooManyElements("the split string", l)
	}
	return nil
}

func checkRegexAll(args []cty.Value, l Limits) error {
	if args[0].Type() != cty.String || args[1].Type() != cty.String {
		return nil
	}
	re, err := compilePattern(args[0].AsString())
	if err != nil {
		return nil // regexall says what is wrong
	}
	if m := re.FindAllStringIndex(args[1].AsString(), l.Elements+1); len(m) > l.Elements {
		return tooManyElements("the list of matches", l)
	}
	return nil
}

func checkCSV(args []cty.Value, l Limits) error {
	if args[0].Type() != cty.String {
		return nil
	}
	if n := int64(strings.Count(args[0].AsString(), "\n")); n > int64(l.Elements) {
		return tooManyElements("the decoded CSV", l)
	}
	return nil
}

// checkJSONDecode counts the values of the document, each of which would
// be a value in memory, against the elements limit: one decoded list or
// object is no larger than the whole document.
func checkJSONDecode(args []cty.Value, l Limits) error {
	if args[0].Type() != cty.String {
		return nil
	}
	dec := json.NewDecoder(strings.NewReader(args[0].AsString()))
	var n int64
	for n <= int64(l.Elements) {
		_, err := dec.Token()
		if errors.Is(err, io.EOF) || err != nil {
			return nil // jsondecode says what is wrong
		}
		n++
	}
	return tooManyElements("the decoded JSON", l)
}

// checkReplace bounds the result of replace: the string, plus the
// replacement for every match, plus for a regular expression whose
// replacement refers to groups ($1) the string again for every reference.
func checkReplace(args []cty.Value, l Limits) error {
	str, substr, repl := args[0].AsString(), args[1].AsString(), args[2].AsString()
	max := int64(l.StringBytes)
	if int64(len(str))+int64(len(str)+1)*int64(len(repl)) <= max {
		return nil // even a match at every byte fits
	}
	var count int64
	if len(substr) > 1 && substr[0] == '/' && substr[len(substr)-1] == '/' {
		re, err := compilePattern(substr[1 : len(substr)-1])
		if err != nil {
			return nil // replace says what is wrong
		}
		re.ReplaceAllStringFunc(str, func(string) string { count++; return "" })
		count += int64(strings.Count(repl, "$")) * int64(len(str)) / int64(max1(len(repl)))
	} else {
		count = int64(strings.Count(str, substr))
	}
	if n := int64(len(str)) + count*int64(len(repl)); n > max {
		return tooManyBytes("the replaced string", l)
	}
	return nil
}

func max1(n int) int {
	if n < 1 {
		return 1
	}
	return n
}
