// Package syntaxcodec is a compact binary encoding of the syntax tree of
// a file that hcl's parser (github.com/hashicorp/hcl/v2/hclsyntax) parsed,
// made of hclsyntax's own types. nodegen keeps such trees in its parse
// cache (internal/parsecache) and in the library bundle
// (internal/librarytrees), because decoding one is several times cheaper
// than parsing the source again and allocates only the tree.
//
// DecodeFile makes the very tree that hclsyntax.ParseConfig made, and an
// hcl.File whose Nav answers what upstream's does (the context of a
// diagnostic: `in config "x"`).
package syntaxcodec

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"strings"
	"sync"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// codecVersion starts every encoding; DecodeFile refuses another. 6 is
// the first of upstream's hclsyntax, whose attributes have EqualsRange.
const codecVersion = 6

// AppendFile appends the encoding of the syntax tree of file, which
// hclsyntax.ParseConfig returned for a source named filename, to dst
// (before anything read its body: PartialContent's hidden attributes and
// blocks, unexported, are not encoded). It fails, and the file is to be
// parsed every time, for what the encoding does not carry: a tree with a
// node the parser makes only along with an error
// (ExprSyntaxError, unknown values), a range in another file, a value
// other than null, a bool, a number or a string.
func AppendFile(dst []byte, file *hcl.File, filename string) ([]byte, error) {
	body, ok := file.Body.(*hclsyntax.Body)
	if !ok {
		return dst, errors.New("the file's body is not hclsyntax's")
	}
	e := encoders.Get().(*encoder)
	defer e.release()
	e.filename = filename
	e.body(body)
	if e.err != nil {
		return dst, e.err
	}
	size := 0
	for _, s := range e.strList {
		size += len(s)
	}
	out := slices.Grow(dst, binary.MaxVarintLen64*(len(e.strList)+numCounts+2)+size+len(e.buf))
	out = binary.AppendUvarint(out, codecVersion)
	out = binary.AppendUvarint(out, uint64(len(e.strList)))
	for _, s := range e.strList {
		out = binary.AppendUvarint(out, uint64(len(s)))
	}
	for _, s := range e.strList {
		out = append(out, s...)
	}
	for _, c := range e.counts {
		out = binary.AppendUvarint(out, uint64(c))
	}
	return append(out, e.buf...), nil
}

// encoders keep the scratch space of encoders for reuse: a parse cache
// encodes every file of a run.
var encoders = sync.Pool{New: func() any { return &encoder{strs: map[string]int{}} }}

func (e *encoder) release() {
	clear(e.strs)
	clear(e.strList)
	*e = encoder{buf: e.buf[:0], strs: e.strs, strList: e.strList[:0], items: e.items[:0]}
	encoders.Put(e)
}

// DecodeFile decodes what AppendFile encoded into the file
// hclsyntax.ParseConfig returns for src named filename, with a Navigation
// as its Nav. It fails on data that AppendFile did not write, never
// panics.
func DecodeFile(data, src []byte, filename string) (*hcl.File, error) {
	d := &decoder{data: data, filename: filename}
	if v := d.uint(); v != codecVersion {
		return nil, fmt.Errorf("encoding version %d, want %d", v, codecVersion)
	}
	// One string holds every name and text of the tree; each is a slice
	// of it, from where the one before ends to its own end (ends).
	n := d.count(1)
	d.ends = make([]int, n)
	total := 0
	for i := range d.ends {
		total += d.count(1)
		d.ends[i] = total
	}
	if d.err == nil && total > len(d.data)-d.pos {
		d.fail()
	}
	if d.err != nil {
		return nil, d.err
	}
	d.strs = string(d.data[d.pos : d.pos+total])
	d.pos += total
	d.makeSlabs()
	body := d.body()
	if d.err == nil && d.pos != len(d.data) {
		d.fail()
	}
	if d.err != nil {
		return nil, d.err
	}
	return &hcl.File{Body: body, Bytes: src, Nav: Navigation{Root: body}}, nil
}

// Node tags of the encoding.
const (
	tagNil byte = iota
	tagLiteral
	tagScopeTraversal
	tagRelativeTraversal
	tagFunctionCall
	tagConditional
	tagBinaryOp
	tagUnaryOp
	tagTemplate
	tagTemplateJoin
	tagTemplateWrap
	tagTupleCons
	tagObjectCons
	tagObjectConsKey
	tagFor
	tagIndex
	tagSplat
	tagAnonSymbol
	tagParentheses
)

// The counts of an encoding, after its names: how many nodes of each tag
// (indexed by the tag) and how many of each of the following, so that the
// decoder allocates each kind at once (one slab, see decoder.makeSlabs)
// rather than node by node.
const (
	countBody = iota + int(tagParentheses) + 1
	countAttribute
	countBlock
	countExprListElem // elements of []Expression
	countItem         // elements of []ObjectConsItem
	countLabel        // elements of Block.Labels
	countLabelRange   // elements of Block.LabelRanges
	countStep         // elements of hcl.Traversal
	numCounts
)

// Value tags.
const (
	valNull byte = iota
	valTrue
	valFalse
	valString
	valNumber
)

// Traversal step tags.
const (
	stepRoot byte = iota
	stepAttr
	stepIndex
	stepSplat
)

// Range tags: the zero range, a range in the file, a range with no file
// name.
const (
	rangeZero byte = iota
	rangeInFile
	rangeNoName
)

// operations are the operations a BinaryOpExpr or UnaryOpExpr points to,
// by their number in the encoding.
var operations = []*hclsyntax.Operation{
	hclsyntax.OpLogicalOr, hclsyntax.OpLogicalAnd, hclsyntax.OpLogicalNot, hclsyntax.OpEqual, hclsyntax.OpNotEqual,
	hclsyntax.OpGreaterThan, hclsyntax.OpGreaterThanOrEqual, hclsyntax.OpLessThan, hclsyntax.OpLessThanOrEqual,
	hclsyntax.OpAdd, hclsyntax.OpSubtract, hclsyntax.OpMultiply, hclsyntax.OpDivide, hclsyntax.OpModulo, hclsyntax.OpNegate,
}

type encoder struct {
	filename string
	buf      []byte
	strs     map[string]int
	strList  []string
	// items are the anonymous symbols of the splat expressions being
	// encoded, innermost last.
	items []*hclsyntax.AnonSymbolExpr
	// last is the start of the range written last.
	last   hcl.Pos
	counts [numCounts]int
	err    error
}

func (e *encoder) failf(format string, args ...any) {
	if e.err == nil {
		e.err = fmt.Errorf(format, args...)
	}
}

func (e *encoder) byte(b byte) { e.buf = append(e.buf, b) }

// tag writes a node's tag and counts the node.
func (e *encoder) tag(t byte) {
	e.buf = append(e.buf, t)
	e.counts[t]++
}

func (e *encoder) uint(v int) {
	if v < 0 {
		e.failf("negative count %d", v)
	}
	e.buf = binary.AppendUvarint(e.buf, uint64(v))
}

func (e *encoder) int(v int) { e.buf = binary.AppendVarint(e.buf, int64(v)) }

func (e *encoder) bool(b bool) {
	if b {
		e.byte(1)
	} else {
		e.byte(0)
	}
}

// len writes the length of a slice or map, 0 for nil and n+1 for n
// elements, so that a nil slice and an empty one decode as they were.
func (e *encoder) len(n int, isNil bool) {
	if isNil {
		e.uint(0)
		return
	}
	e.uint(n + 1)
}

func (e *encoder) str(s string) {
	i, ok := e.strs[s]
	if !ok {
		i = len(e.strList)
		e.strs[s] = i
		e.strList = append(e.strList, s)
	}
	e.uint(i)
}

// rng writes a range as its tag and six numbers, most of them small: the
// start's line and byte as differences from the start of the range
// written before, its column, and the end's line, column and byte, the
// line and byte as differences from the start.
func (e *encoder) rng(r hcl.Range) {
	switch r.Filename {
	case e.filename:
		e.byte(rangeInFile)
	case "":
		if r == (hcl.Range{}) {
			e.byte(rangeZero)
			return
		}
		e.byte(rangeNoName)
	default:
		e.failf("a range in another file, %q", r.Filename)
		return
	}
	e.int(r.Start.Line - e.last.Line)
	e.int(r.Start.Column)
	e.int(r.Start.Byte - e.last.Byte)
	e.int(r.End.Line - r.Start.Line)
	e.int(r.End.Column)
	e.int(r.End.Byte - r.Start.Byte)
	e.last = r.Start
}

func (e *encoder) value(v cty.Value) {
	switch {
	case v.IsMarked() || !v.IsKnown():
		e.failf("an unknown or marked value")
	case v.IsNull():
		if v.Type() != cty.DynamicPseudoType {
			e.failf("a null of type %s", v.Type().FriendlyName())
		}
		e.byte(valNull)
	case v.Type() == cty.Bool:
		if v.True() {
			e.byte(valTrue)
		} else {
			e.byte(valFalse)
		}
	case v.Type() == cty.String:
		e.byte(valString)
		e.str(v.AsString())
	case v.Type() == cty.Number:
		f := v.AsBigFloat()
		text := f.Text('g', -1)
		// The number must come back as it is: as ParseConfig makes it.
		back, err := cty.ParseNumberVal(text)
		if err != nil || !back.RawEquals(v) || back.AsBigFloat().Prec() != f.Prec() || back.AsBigFloat().Mode() != f.Mode() {
			e.failf("a number that does not come back from its text %q", text)
			return
		}
		e.byte(valNumber)
		e.str(text)
	default:
		e.failf("a value of type %s", v.Type().FriendlyName())
	}
}

func (e *encoder) traversal(t hcl.Traversal) {
	e.len(len(t), t == nil)
	e.counts[countStep] += len(t)
	for _, step := range t {
		switch s := step.(type) {
		case hcl.TraverseRoot:
			e.byte(stepRoot)
			e.str(s.Name)
			e.rng(s.SrcRange)
		case hcl.TraverseAttr:
			e.byte(stepAttr)
			e.str(s.Name)
			e.rng(s.SrcRange)
		case hcl.TraverseIndex:
			e.byte(stepIndex)
			e.value(s.Key)
			e.rng(s.SrcRange)
		case hcl.TraverseSplat:
			e.byte(stepSplat)
			e.traversal(s.Each)
			e.rng(s.SrcRange)
		default:
			e.failf("a traversal step of type %T", step)
		}
	}
}

func (e *encoder) exprs(list []hclsyntax.Expression) {
	e.len(len(list), list == nil)
	e.counts[countExprListElem] += len(list)
	for _, x := range list {
		e.expr(x)
	}
}

// expr writes an expression: its tag, then its fields, the ranges where
// they start in the source (a node's own range before its children, a
// closing bracket's after them), so that most ranges differ little from
// the one before (see rng).
func (e *encoder) expr(x hclsyntax.Expression) {
	if e.err != nil {
		return
	}
	switch x := x.(type) {
	case nil:
		e.byte(tagNil)
	case *hclsyntax.LiteralValueExpr:
		e.tag(tagLiteral)
		e.rng(x.SrcRange)
		e.value(x.Val)
	case *hclsyntax.ScopeTraversalExpr:
		e.tag(tagScopeTraversal)
		e.rng(x.SrcRange)
		e.traversal(x.Traversal)
	case *hclsyntax.RelativeTraversalExpr:
		e.tag(tagRelativeTraversal)
		e.rng(x.SrcRange)
		e.expr(x.Source)
		e.traversal(x.Traversal)
	case *hclsyntax.FunctionCallExpr:
		e.tag(tagFunctionCall)
		e.rng(x.NameRange)
		e.rng(x.OpenParenRange)
		e.str(x.Name)
		e.exprs(x.Args)
		e.bool(x.ExpandFinal)
		e.rng(x.CloseParenRange)
	case *hclsyntax.ConditionalExpr:
		e.tag(tagConditional)
		e.rng(x.SrcRange)
		e.expr(x.Condition)
		e.expr(x.TrueResult)
		e.expr(x.FalseResult)
	case *hclsyntax.BinaryOpExpr:
		e.tag(tagBinaryOp)
		e.rng(x.SrcRange)
		e.expr(x.LHS)
		e.op(x.Op)
		e.expr(x.RHS)
	case *hclsyntax.UnaryOpExpr:
		e.tag(tagUnaryOp)
		e.rng(x.SrcRange)
		e.rng(x.SymbolRange)
		e.op(x.Op)
		e.expr(x.Val)
	case *hclsyntax.TemplateExpr:
		e.tag(tagTemplate)
		e.rng(x.SrcRange)
		e.exprs(x.Parts)
	case *hclsyntax.TemplateJoinExpr:
		e.tag(tagTemplateJoin)
		e.expr(x.Tuple)
	case *hclsyntax.TemplateWrapExpr:
		e.tag(tagTemplateWrap)
		e.rng(x.SrcRange)
		e.expr(x.Wrapped)
	case *hclsyntax.TupleConsExpr:
		e.tag(tagTupleCons)
		e.rng(x.SrcRange)
		e.rng(x.OpenRange)
		e.exprs(x.Exprs)
	case *hclsyntax.ObjectConsExpr:
		e.tag(tagObjectCons)
		e.rng(x.SrcRange)
		e.rng(x.OpenRange)
		e.len(len(x.Items), x.Items == nil)
		e.counts[countItem] += len(x.Items)
		for _, it := range x.Items {
			e.expr(it.KeyExpr)
			e.expr(it.ValueExpr)
		}
	case *hclsyntax.ObjectConsKeyExpr:
		e.tag(tagObjectConsKey)
		e.expr(x.Wrapped)
		e.bool(x.ForceNonLiteral)
	case *hclsyntax.ForExpr:
		e.tag(tagFor)
		e.rng(x.SrcRange)
		e.rng(x.OpenRange)
		e.str(x.KeyVar)
		e.str(x.ValVar)
		e.expr(x.CollExpr)
		e.expr(x.KeyExpr)
		e.expr(x.ValExpr)
		e.expr(x.CondExpr)
		e.bool(x.Group)
		e.rng(x.CloseRange)
	case *hclsyntax.IndexExpr:
		e.tag(tagIndex)
		e.rng(x.SrcRange)
		e.expr(x.Collection)
		e.rng(x.OpenRange)
		e.expr(x.Key)
		e.rng(x.BracketRange)
	case *hclsyntax.SplatExpr:
		if x.Item == nil {
			e.failf("a splat expression without its symbol")
			return
		}
		e.tag(tagSplat)
		e.rng(x.SrcRange)
		e.expr(x.Source)
		e.rng(x.MarkerRange)
		e.rng(x.Item.SrcRange)
		e.items = append(e.items, x.Item)
		e.expr(x.Each)
		e.items = e.items[:len(e.items)-1]
	case *hclsyntax.AnonSymbolExpr:
		// It stands for the elements of the innermost splat expression,
		// whose Item it is.
		if len(e.items) == 0 || e.items[len(e.items)-1] != x {
			e.failf("a symbol outside its splat expression")
			return
		}
		e.tag(tagAnonSymbol)
	case *hclsyntax.ParenthesesExpr:
		e.tag(tagParentheses)
		e.rng(x.SrcRange)
		e.expr(x.Expression)
	default:
		e.failf("an expression of type %T", x)
	}
}

func (e *encoder) op(op *hclsyntax.Operation) {
	i := slices.Index(operations, op)
	if i < 0 {
		e.failf("an unknown operation")
	}
	e.uint(i)
}

func (e *encoder) body(b *hclsyntax.Body) {
	if b == nil {
		e.failf("a nil body")
		return
	}
	e.counts[countBody]++
	e.counts[countAttribute] += len(b.Attributes)
	e.counts[countBlock] += len(b.Blocks)
	e.rng(b.SrcRange)
	e.len(len(b.Attributes), b.Attributes == nil)
	// In source order, which is deterministic too (two attributes cannot
	// start at one place) and keeps the ranges' differences small.
	attrs := make([]*hclsyntax.Attribute, 0, len(b.Attributes))
	for name, a := range b.Attributes {
		if a == nil || a.Name != name {
			e.failf("attribute %q is not under its name", name)
			return
		}
		attrs = append(attrs, a)
	}
	slices.SortFunc(attrs, func(a, b *hclsyntax.Attribute) int {
		if c := a.SrcRange.Start.Byte - b.SrcRange.Start.Byte; c != 0 {
			return c
		}
		return strings.Compare(a.Name, b.Name)
	})
	for _, a := range attrs {
		e.rng(a.SrcRange)
		e.rng(a.NameRange)
		e.rng(a.EqualsRange)
		e.str(a.Name)
		e.expr(a.Expr)
	}
	e.len(len(b.Blocks), b.Blocks == nil)
	for _, blk := range b.Blocks {
		if blk == nil {
			e.failf("a nil block")
			return
		}
		e.rng(blk.TypeRange)
		e.str(blk.Type)
		e.len(len(blk.Labels), blk.Labels == nil)
		e.counts[countLabel] += len(blk.Labels)
		for _, l := range blk.Labels {
			e.str(l)
		}
		e.len(len(blk.LabelRanges), blk.LabelRanges == nil)
		e.counts[countLabelRange] += len(blk.LabelRanges)
		for _, r := range blk.LabelRanges {
			e.rng(r)
		}
		e.rng(blk.OpenBraceRange)
		e.body(blk.Body)
		e.rng(blk.CloseBraceRange)
	}
	e.rng(b.EndRange)
}

// errCorrupt is the error of data that AppendFile did not write.
var errCorrupt = errors.New("corrupt encoding")

type decoder struct {
	data     []byte
	pos      int
	filename string
	strs     string // the encoding's strings, one after the other
	ends     []int  // where each string ends in strs
	items    []*hclsyntax.AnonSymbolExpr
	// lastLine and lastByte are the start of the range read last.
	lastLine, lastByte int
	err                error
	slabs
}

// slabs hold the nodes and list elements a decoder hands out, each kind
// allocated at once, as many as the encoding counts.
type slabs struct {
	lits       []hclsyntax.LiteralValueExpr
	scopeTravs []hclsyntax.ScopeTraversalExpr
	relTravs   []hclsyntax.RelativeTraversalExpr
	calls      []hclsyntax.FunctionCallExpr
	conds      []hclsyntax.ConditionalExpr
	binOps     []hclsyntax.BinaryOpExpr
	unOps      []hclsyntax.UnaryOpExpr
	templates  []hclsyntax.TemplateExpr
	joins      []hclsyntax.TemplateJoinExpr
	wraps      []hclsyntax.TemplateWrapExpr
	tuples     []hclsyntax.TupleConsExpr
	objects    []hclsyntax.ObjectConsExpr
	objKeys    []hclsyntax.ObjectConsKeyExpr
	fors       []hclsyntax.ForExpr
	indexes    []hclsyntax.IndexExpr
	splats     []hclsyntax.SplatExpr
	anons      []hclsyntax.AnonSymbolExpr
	parens     []hclsyntax.ParenthesesExpr
	bodies     []hclsyntax.Body
	attrs      []hclsyntax.Attribute
	blocks     []hclsyntax.Block
	blockPtrs  []*hclsyntax.Block
	exprList   []hclsyntax.Expression
	itemList   []hclsyntax.ObjectConsItem
	labels     []string
	labelRngs  []hcl.Range
	steps      []hcl.Traverser
}

// makeSlabs reads the counts of the encoding and allocates the slabs.
// A count cannot be more than the bytes left, as each thing counted takes
// at least one.
func (d *decoder) makeSlabs() {
	var c [numCounts]int
	for i := range c {
		c[i] = d.count(1)
	}
	if d.err != nil {
		return
	}
	d.slabs = slabs{
		lits:       make([]hclsyntax.LiteralValueExpr, c[tagLiteral]),
		scopeTravs: make([]hclsyntax.ScopeTraversalExpr, c[tagScopeTraversal]),
		relTravs:   make([]hclsyntax.RelativeTraversalExpr, c[tagRelativeTraversal]),
		calls:      make([]hclsyntax.FunctionCallExpr, c[tagFunctionCall]),
		conds:      make([]hclsyntax.ConditionalExpr, c[tagConditional]),
		binOps:     make([]hclsyntax.BinaryOpExpr, c[tagBinaryOp]),
		unOps:      make([]hclsyntax.UnaryOpExpr, c[tagUnaryOp]),
		templates:  make([]hclsyntax.TemplateExpr, c[tagTemplate]),
		joins:      make([]hclsyntax.TemplateJoinExpr, c[tagTemplateJoin]),
		wraps:      make([]hclsyntax.TemplateWrapExpr, c[tagTemplateWrap]),
		tuples:     make([]hclsyntax.TupleConsExpr, c[tagTupleCons]),
		objects:    make([]hclsyntax.ObjectConsExpr, c[tagObjectCons]),
		objKeys:    make([]hclsyntax.ObjectConsKeyExpr, c[tagObjectConsKey]),
		fors:       make([]hclsyntax.ForExpr, c[tagFor]),
		indexes:    make([]hclsyntax.IndexExpr, c[tagIndex]),
		splats:     make([]hclsyntax.SplatExpr, c[tagSplat]),
		anons:      make([]hclsyntax.AnonSymbolExpr, c[tagSplat]),
		parens:     make([]hclsyntax.ParenthesesExpr, c[tagParentheses]),
		bodies:     make([]hclsyntax.Body, c[countBody]),
		attrs:      make([]hclsyntax.Attribute, c[countAttribute]),
		blocks:     make([]hclsyntax.Block, c[countBlock]),
		blockPtrs:  make([]*hclsyntax.Block, c[countBlock]),
		exprList:   make([]hclsyntax.Expression, c[countExprListElem]),
		itemList:   make([]hclsyntax.ObjectConsItem, c[countItem]),
		labels:     make([]string, c[countLabel]),
		labelRngs:  make([]hcl.Range, c[countLabelRange]),
		steps:      make([]hcl.Traverser, c[countStep]),
	}
}

// take hands out the next node of a slab; past its end (an encoding
// that counts wrong) it fails and returns a node of its own.
func take[T any](d *decoder, slab *[]T) *T {
	if len(*slab) == 0 {
		d.fail()
		return new(T)
	}
	p := &(*slab)[0]
	*slab = (*slab)[1:]
	return p
}

// takeList hands out the next n elements of a slab as a slice of its own
// capacity (-1: nil), or fails.
func takeList[T any](d *decoder, slab *[]T, n int) []T {
	if n < 0 {
		return nil
	}
	if n > len(*slab) {
		d.fail()
		return nil
	}
	list := (*slab)[:n:n]
	*slab = (*slab)[n:]
	return list
}

func (d *decoder) fail() {
	if d.err == nil {
		d.err = errCorrupt
	}
	d.pos = len(d.data)
}

func (d *decoder) byte() byte {
	if d.pos >= len(d.data) {
		d.fail()
		return 0
	}
	b := d.data[d.pos]
	d.pos++
	return b
}

func (d *decoder) uint() uint64 {
	if d.pos < len(d.data) && d.data[d.pos] < 0x80 {
		d.pos++
		return uint64(d.data[d.pos-1])
	}
	v, n := binary.Uvarint(d.data[d.pos:])
	if n <= 0 {
		d.fail()
		return 0
	}
	d.pos += n
	return v
}

func (d *decoder) int() int {
	if d.pos < len(d.data) && d.data[d.pos] < 0x80 {
		d.pos++
		return zigzag(uint64(d.data[d.pos-1]))
	}
	// Two bytes (under 8192 either way: most of the rest) without the
	// general loop.
	if p := d.pos; p+1 < len(d.data) && d.data[p+1] < 0x80 {
		u := uint64(d.data[p]&0x7f) | uint64(d.data[p+1])<<7
		d.pos = p + 2
		return int(u>>1) ^ -int(u&1)
	}
	v, n := binary.Varint(d.data[d.pos:])
	if n <= 0 || int64(int(v)) != v {
		d.fail()
		return 0
	}
	d.pos += n
	return int(v)
}

// count reads a number of things that take at least min bytes each, so
// that a corrupt count cannot make the decoder allocate more than the
// data could hold.
func (d *decoder) count(min int) int {
	v := d.uint()
	if v > uint64(len(d.data)-d.pos)/uint64(min) {
		d.fail()
		return 0
	}
	return int(v)
}

// len reads what encoder.len wrote: -1 for nil.
func (d *decoder) len() int {
	v := d.uint()
	if v == 0 {
		return -1
	}
	if v-1 > uint64(len(d.data)-d.pos) {
		d.fail()
		return -1
	}
	return int(v - 1)
}

func (d *decoder) bool() bool {
	switch d.byte() {
	case 0:
		return false
	case 1:
		return true
	}
	d.fail()
	return false
}

func (d *decoder) str() string {
	i := d.uint()
	if i >= uint64(len(d.ends)) {
		d.fail()
		return ""
	}
	start := 0
	if i > 0 {
		start = d.ends[i-1]
	}
	return d.strs[start:d.ends[i]]
}

// rng reads what encoder.rng wrote into *r, in place: a range is 64
// bytes, and most of them are fields of the nodes in the slabs.
func (d *decoder) rng(r *hcl.Range) {
	// Most ranges are seven bytes, the tag and six numbers under 64: read
	// them at once.
	if p := d.pos; p+8 <= len(d.data) {
		w := binary.LittleEndian.Uint64(d.data[p : p+8])
		if w&0x0080808080808080 == 0 && byte(w) == rangeInFile {
			line := d.lastLine + zigzag(w>>8)
			byt := d.lastByte + zigzag(w>>24)
			r.Filename = d.filename
			r.Start.Line = line
			r.Start.Column = zigzag(w >> 16)
			r.Start.Byte = byt
			r.End.Line = line + zigzag(w>>32)
			r.End.Column = zigzag(w >> 40)
			r.End.Byte = byt + zigzag(w>>48)
			d.pos = p + 7
			d.lastLine, d.lastByte = line, byt
			return
		}
	}
	switch d.byte() {
	case rangeZero:
		*r = hcl.Range{}
		return
	case rangeInFile:
		r.Filename = d.filename
	case rangeNoName:
		r.Filename = ""
	default:
		d.fail()
		*r = hcl.Range{}
		return
	}
	// The numbers of one byte are read here, the others by int.
	var v [6]int
	for i := range v {
		if p := d.pos; p < len(d.data) && d.data[p] < 0x80 {
			d.pos = p + 1
			v[i] = zigzag(uint64(d.data[p]))
		} else {
			v[i] = d.int()
		}
	}
	r.Start.Line = d.lastLine + v[0]
	r.Start.Column = v[1]
	r.Start.Byte = d.lastByte + v[2]
	r.End.Line = r.Start.Line + v[3]
	r.End.Column = v[4]
	r.End.Byte = r.Start.Byte + v[5]
	d.lastLine, d.lastByte = r.Start.Line, r.Start.Byte
}

// zigzag decodes a varint of one byte, the low byte of w.
func zigzag(w uint64) int {
	b := int(w & 0x7f)
	return b>>1 ^ -(b & 1)
}

func (d *decoder) value() cty.Value {
	switch d.byte() {
	case valNull:
		return cty.NullVal(cty.DynamicPseudoType)
	case valTrue:
		return cty.True
	case valFalse:
		return cty.False
	case valString:
		return cty.StringVal(d.str())
	case valNumber:
		f, ok := parseNumber(d.str())
		if !ok {
			d.fail()
			return cty.NilVal
		}
		return cty.NumberVal(f)
	}
	d.fail()
	return cty.NilVal
}

// parseNumber reads a number's text as ParseConfig made its value:
// big.ParseFloat at 512 bits, rounding to nearest even. A text of up to 18
// digits (most numbers in modules: ports, counts, sizes) is an integer
// set as one, without the decimal parsing's four allocations.
func parseNumber(text string) (*big.Float, bool) {
	if len(text) > 0 && len(text) <= 18 {
		n := int64(0)
		for i := 0; i < len(text); i++ {
			c := text[i]
			if c < '0' || c > '9' {
				n = -1
				break
			}
			n = n*10 + int64(c-'0')
		}
		if n >= 0 {
			return new(big.Float).SetPrec(512).SetMode(big.ToNearestEven).SetInt64(n), true
		}
	}
	f, _, err := big.ParseFloat(text, 10, 512, big.ToNearestEven)
	return f, err == nil
}

func (d *decoder) traversal() hcl.Traversal {
	n := d.len()
	if n < 0 {
		return nil
	}
	t := hcl.Traversal(takeList(d, &d.steps, n))
	for i := range t {
		switch d.byte() {
		case stepRoot:
			s := hcl.TraverseRoot{Name: d.str()}
			d.rng(&s.SrcRange)
			t[i] = s
		case stepAttr:
			s := hcl.TraverseAttr{Name: d.str()}
			d.rng(&s.SrcRange)
			t[i] = s
		case stepIndex:
			s := hcl.TraverseIndex{Key: d.value()}
			d.rng(&s.SrcRange)
			t[i] = s
		case stepSplat:
			s := hcl.TraverseSplat{Each: d.traversal()}
			d.rng(&s.SrcRange)
			t[i] = s
		default:
			d.fail()
		}
		if d.err != nil {
			return nil
		}
	}
	return t
}

func (d *decoder) exprs() []hclsyntax.Expression {
	list := takeList(d, &d.exprList, d.len())
	for i := range list {
		list[i] = d.expr()
	}
	return list
}

func (d *decoder) op() *hclsyntax.Operation {
	i := d.uint()
	if i >= uint64(len(operations)) {
		d.fail()
		return nil
	}
	return operations[i]
}

func (d *decoder) expr() hclsyntax.Expression {
	if d.err != nil {
		return nil
	}
	switch d.byte() {
	case tagNil:
		return nil
	case tagLiteral:
		x := take(d, &d.lits)
		d.rng(&x.SrcRange)
		x.Val = d.value()
		return x
	case tagScopeTraversal:
		x := take(d, &d.scopeTravs)
		d.rng(&x.SrcRange)
		x.Traversal = d.traversal()
		return x
	case tagRelativeTraversal:
		x := take(d, &d.relTravs)
		d.rng(&x.SrcRange)
		x.Source, x.Traversal = d.expr(), d.traversal()
		return x
	case tagFunctionCall:
		x := take(d, &d.calls)
		d.rng(&x.NameRange)
		d.rng(&x.OpenParenRange)
		x.Name, x.Args, x.ExpandFinal = d.str(), d.exprs(), d.bool()
		d.rng(&x.CloseParenRange)
		return x
	case tagConditional:
		x := take(d, &d.conds)
		d.rng(&x.SrcRange)
		x.Condition, x.TrueResult, x.FalseResult = d.expr(), d.expr(), d.expr()
		return x
	case tagBinaryOp:
		x := take(d, &d.binOps)
		d.rng(&x.SrcRange)
		x.LHS, x.Op, x.RHS = d.expr(), d.op(), d.expr()
		return x
	case tagUnaryOp:
		x := take(d, &d.unOps)
		d.rng(&x.SrcRange)
		d.rng(&x.SymbolRange)
		x.Op, x.Val = d.op(), d.expr()
		return x
	case tagTemplate:
		x := take(d, &d.templates)
		d.rng(&x.SrcRange)
		x.Parts = d.exprs()
		return x
	case tagTemplateJoin:
		x := take(d, &d.joins)
		x.Tuple = d.expr()
		return x
	case tagTemplateWrap:
		x := take(d, &d.wraps)
		d.rng(&x.SrcRange)
		x.Wrapped = d.expr()
		return x
	case tagTupleCons:
		x := take(d, &d.tuples)
		d.rng(&x.SrcRange)
		d.rng(&x.OpenRange)
		x.Exprs = d.exprs()
		return x
	case tagObjectCons:
		x := take(d, &d.objects)
		d.rng(&x.SrcRange)
		d.rng(&x.OpenRange)
		x.Items = takeList(d, &d.itemList, d.len())
		for i := range x.Items {
			x.Items[i] = hclsyntax.ObjectConsItem{KeyExpr: d.expr(), ValueExpr: d.expr()}
		}
		return x
	case tagObjectConsKey:
		x := take(d, &d.objKeys)
		x.Wrapped, x.ForceNonLiteral = d.expr(), d.bool()
		return x
	case tagFor:
		x := take(d, &d.fors)
		d.rng(&x.SrcRange)
		d.rng(&x.OpenRange)
		x.KeyVar, x.ValVar = d.str(), d.str()
		x.CollExpr, x.KeyExpr, x.ValExpr, x.CondExpr = d.expr(), d.expr(), d.expr(), d.expr()
		x.Group = d.bool()
		d.rng(&x.CloseRange)
		return x
	case tagIndex:
		x := take(d, &d.indexes)
		d.rng(&x.SrcRange)
		x.Collection = d.expr()
		d.rng(&x.OpenRange)
		x.Key = d.expr()
		d.rng(&x.BracketRange)
		return x
	case tagSplat:
		x := take(d, &d.splats)
		d.rng(&x.SrcRange)
		x.Source = d.expr()
		d.rng(&x.MarkerRange)
		x.Item = take(d, &d.anons)
		d.rng(&x.Item.SrcRange)
		d.items = append(d.items, x.Item)
		x.Each = d.expr()
		d.items = d.items[:len(d.items)-1]
		return x
	case tagAnonSymbol:
		if len(d.items) == 0 {
			d.fail()
			return nil
		}
		return d.items[len(d.items)-1]
	case tagParentheses:
		x := take(d, &d.parens)
		d.rng(&x.SrcRange)
		x.Expression = d.expr()
		return x
	}
	d.fail()
	return nil
}

func (d *decoder) body() *hclsyntax.Body {
	b := take(d, &d.bodies)
	d.rng(&b.SrcRange)
	if n := d.len(); n >= 0 {
		b.Attributes = make(hclsyntax.Attributes, n)
		for range n {
			a := take(d, &d.attrs)
			d.rng(&a.SrcRange)
			d.rng(&a.NameRange)
			d.rng(&a.EqualsRange)
			a.Name = d.str()
			a.Expr = d.expr()
			if d.err != nil {
				return nil
			}
			b.Attributes[a.Name] = a
		}
	}
	b.Blocks = takeList(d, &d.blockPtrs, d.len())
	for i := range b.Blocks {
		blk := take(d, &d.blocks)
		d.rng(&blk.TypeRange)
		blk.Type = d.str()
		blk.Labels = takeList(d, &d.labels, d.len())
		for j := range blk.Labels {
			blk.Labels[j] = d.str()
		}
		blk.LabelRanges = takeList(d, &d.labelRngs, d.len())
		for j := range blk.LabelRanges {
			d.rng(&blk.LabelRanges[j])
		}
		d.rng(&blk.OpenBraceRange)
		blk.Body = d.body()
		d.rng(&blk.CloseBraceRange)
		if d.err != nil {
			return nil
		}
		b.Blocks[i] = blk
	}
	d.rng(&b.EndRange)
	return b
}
