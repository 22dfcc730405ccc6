package syntaxcodec

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// Navigation is the Nav of a decoded file. It answers what the Nav of the
// file hclsyntax.ParseConfig returns answers (an unexported type of
// hclsyntax): the header and the definition range of the top-level block
// at an offset, which hcl.NewDiagnosticTextWriter prints as a
// diagnostic's context (`in config "networking"`) and an editor shows.
// The other questions about places in a file (hcl.File's BlocksAtPos,
// OutermostBlockAtPos, AttributeAtPos and the like) are the Body's, and a
// decoded file answers them as a parsed one does.
type Navigation struct {
	// Root is the file's body.
	Root *hclsyntax.Body
}

// blockAt returns the top-level block that contains offset, nil if none.
func (n Navigation) blockAt(offset int) *hclsyntax.Block {
	for _, b := range n.Root.Blocks {
		if b.Range().ContainsOffset(offset) {
			return b
		}
	}
	return nil
}

// ContextString returns the header of the top-level block that contains
// offset, its type and its quoted labels, "" outside every block.
func (n Navigation) ContextString(offset int) string {
	b := n.blockAt(offset)
	if b == nil {
		return ""
	}
	var s strings.Builder
	s.WriteString(b.Type)
	for _, l := range b.Labels {
		fmt.Fprintf(&s, " %q", l)
	}
	return s.String()
}

// ContextDefRange returns the definition range of the top-level block
// that contains offset, the zero range outside every block.
func (n Navigation) ContextDefRange(offset int) hcl.Range {
	b := n.blockAt(offset)
	if b == nil {
		return hcl.Range{}
	}
	return b.DefRange()
}

// Equal reports whether two files are the same as far as anything reads
// them: the same bytes, deeply equal syntax trees, and Navs that give the
// same context for each of their top-level blocks, whether a Nav is
// hclsyntax's (a parsed file's) or a Navigation (a decoded file's).
func Equal(a, b *hcl.File) bool {
	if a == nil || b == nil {
		return a == b
	}
	if !reflect.DeepEqual(a.Bytes, b.Bytes) || !reflect.DeepEqual(a.Body, b.Body) {
		return false
	}
	na, aok := a.Nav.(contextNav)
	nb, bok := b.Nav.(contextNav)
	if aok != bok {
		return false
	}
	body, ok := a.Body.(*hclsyntax.Body)
	if !aok || !ok {
		return reflect.DeepEqual(a.Nav, b.Nav)
	}
	offsets := []int{-1, len(a.Bytes)}
	for _, blk := range body.Blocks {
		r := blk.Range()
		offsets = append(offsets, r.Start.Byte, r.End.Byte-1, r.End.Byte)
	}
	for _, off := range offsets {
		if na.ContextString(off) != nb.ContextString(off) || na.ContextDefRange(off) != nb.ContextDefRange(off) {
			return false
		}
	}
	return true
}

// contextNav is what a Nav answers, as hcl.NewDiagnosticTextWriter asks.
type contextNav interface {
	ContextString(offset int) string
	ContextDefRange(offset int) hcl.Range
}
