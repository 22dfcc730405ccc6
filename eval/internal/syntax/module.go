// Package syntax is the parsed form of nodegen modules: what loading makes
// of a module file (eval's load.go decodes the blocks into these values)
// and what both the later phases read, declaring (sibling package declare)
// and evaluating (eval). It holds the module and its blocks, the modules
// an evaluation collected with their registries (Modules), the variables
// bound around expressions (Binding), and the small read helpers over hcl
// expressions that loading and declaring share (read.go).
//
// Nothing here evaluates: it depends on neither eval nor declare, and its
// values, once loading made them, are only read (a library module's, by
// every evaluation of the process).
package syntax

import (
	"path"
	"sync/atomic"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"

	"github.com/nodegen/nodegen/lib"
)

// Module is one parsed module file.
type Module struct {
	Src  Source
	File *hcl.File
	Body *hclsyntax.Body

	Imports  []Source
	Disabled []string // module keys
	// Shared is set on a library module parsed once for the process (see
	// eval's parsedLibrary): what is read off its syntax alone may be kept
	// for the process too (see declare's keptOption).
	Shared bool
	// Fleet is set on a host module an eval.Fleet keeps for its
	// evaluations.
	Fleet bool
	// ID numbers the modules the process parsed, from 1: a Fleet names
	// the modules of a declared tree by it.
	ID uint64
	// Use is what eval read off the module's syntax alone of what it
	// declares, reads and defines (eval's unused.go), kept once made for
	// a Shared module as Decoded is for its options.
	Use atomic.Value
	// Lazy is set on a library module not decoded: Use, read from the
	// parse cache's facts, stands for it until the evaluation keeps it
	// (eval's unusedfacts.go); it has nothing else but Src and ID.
	Lazy bool
	// Computed holds the imports and disabled_modules that are no
	// constant list: expressions over the module's locals, evaluated when
	// the modules are collected.
	Computed []*hclsyntax.Attribute

	Locals     []*hclsyntax.Attribute
	Options    []*OptionDecl
	Submodules []*Submodule
	Formats    []*Format
	Functions  []*Function
	Types      []*NamedType
	Configs    []*Config
	Asserts    []*Check
	Warnings   []*Check
	Renamed    []*Rename
	Removed    []*Remove
}

// Dir is the module's directory inside its file system.
func (m *Module) Dir() string { return path.Dir(m.Src.Path) }

// Declares reports whether the module declares anything: options,
// submodule types, formats, renamed or removed options. The declared tree
// of an evaluation depends on these modules alone.
func (m *Module) Declares() bool {
	return len(m.Options) > 0 || len(m.Submodules) > 0 || len(m.Formats) > 0 || len(m.Renamed) > 0 || len(m.Removed) > 0
}

// Modules are the modules an evaluation collected, in module order, with
// the registries of submodule types, formats and named types, which are
// global to an evaluation: what declaring reads of the loaded value.
type Modules struct {
	Mods       []*Module
	Submodules map[string]*Submodule
	Formats    map[string]*Format
	NamedTypes map[string]*NamedType
}

// OptionDecl is one option block, or a dynamic block that makes option
// blocks when the options are declared (see Dynamic).
type OptionDecl struct {
	Path  []string
	Block *hclsyntax.Block
	Attrs hclsyntax.Attributes
	// Dyn, when set, is the dynamic block this entry stands for; Path is
	// then the path of the options block around it.
	Dyn *Dynamic
	// Vars binds the iterators of the dynamic blocks that made this
	// declaration, for every expression in it.
	Vars *Binding
	// InFile is set on a declaration read from its module's file, which
	// is the same in every evaluation of the module (see declare's
	// keptOption), and not on one an evaluation makes (one a dynamic
	// block makes).
	InFile bool
	// Decoded is what declare kept of this declaration once it decoded
	// it (a *declare.Option, see declare's keptOption): stored once,
	// read by every evaluation of a shared module.
	Decoded atomic.Value
}

// Dynamic is a dynamic block making option or options blocks (see
// declare's dynamic.go).
type Dynamic struct {
	// Kind is the type of the blocks made: option or options.
	Kind     string
	ForEach  *hclsyntax.Attribute
	Iterator string
	Labels   *hclsyntax.Attribute
	Content  *hclsyntax.Block
	// Made is the block each declaration of a dynamic "option" is
	// declared by, for messages and documentation: the dynamic block's
	// header.
	Made *hclsyntax.Block
	// Inner are the declarations of the content of a dynamic "options",
	// with paths below the label.
	Inner []*OptionDecl
	// ReadsConfig is set when for_each or labels reads the configuration
	// (checked when the module is loaded): the block declares nothing.
	ReadsConfig bool
}

// Submodule is a submodule block: a submodule type, named by its label.
type Submodule struct {
	Name  string
	Block *hclsyntax.Block
	Mod   *Module
	// The body of a submodule holds what a module holds, but imports.
	Options  []*OptionDecl
	Configs  []*Config
	Locals   []*hclsyntax.Attribute
	Asserts  []*Check
	Warnings []*Check
	// Freeform is the type of the names no option declares, as NixOS's
	// freeformType: `freeform = attrsOf(T)`.
	Freeform *hclsyntax.Attribute
}

// DeclBlock is the block that declares the submodule type.
func (s *Submodule) DeclBlock() *hclsyntax.Block { return s.Block }

// Config is a config block: definitions below Prefix, when When holds.
type Config struct {
	Prefix []string
	Block  *hclsyntax.Block
	When   *hclsyntax.Attribute
	Attrs  []*hclsyntax.Attribute // in source order
}

// Check is an assert or a warning block.
type Check struct {
	Block     *hclsyntax.Block
	Condition hclsyntax.Expression
	Message   hclsyntax.Expression
}

// Rename is a renamed_option block: the option path From is now To.
type Rename struct {
	From, To []string
	Block    *hclsyntax.Block
	ToRange  hcl.Range
}

// Remove is a removed_option block: the option at Path is gone, and
// defining it is an error that says Message.
type Remove struct {
	Path    []string
	Block   *hclsyntax.Block
	Message hclsyntax.Expression
}

// Format is a `format "NAME" "KIND" { PARAMETERS }` block: a file
// format with its parameters, NixOS's `pkgs.formats.KIND { ... }`. Formats
// are global to an evaluation, as submodules are. format.NAME is the
// format's type in a type expression, and the format itself (the value
// formatencode takes) in an expression, so that an option's type and the
// file written from its value share the parameters.
type Format struct {
	Name   string
	Block  *hclsyntax.Block
	Format lib.Format
}

// DeclBlock is the block that declares the format.
func (f *Format) DeclBlock() *hclsyntax.Block { return f.Block }

// LookupFormat finds the format declared as name, referred to at rng.
func LookupFormat(formats map[string]*Format, name string, rng hcl.Range) (*Format, hcl.Diagnostics) {
	if f, ok := formats[name]; ok {
		return f, nil
	}
	return nil, UnknownName(formats, "format", name, `: a format "NAME" "KIND" block declares one`, rng)
}

// Function is a function block, spelt as hcl's ext/userfunc spells it:
//
//	function "name" {
//	  params         = [a, b]
//	  variadic_param = rest
//	  result         = EXPR
//	}
//
// Unlike userfunc's functions, which are go-cty functions and so take
// their arguments evaluated, a call binds each parameter to a thunk of
// its argument (see eval's callUser): an argument the result does not
// use is never evaluated.
type Function struct {
	Name     string
	Block    *hclsyntax.Block
	Mod      *Module
	Params   []string
	Variadic string // "" when the function takes a fixed number of arguments
	Result   hclsyntax.Expression
	// FrameName is how evaluation chains name a call: "function
	// NAME(PARAMS)", made once.
	FrameName string
}

// DeclBlock is the block that declares the function.
func (f *Function) DeclBlock() *hclsyntax.Block { return f.Block }

// Signature is how messages and listings show the function: name(a, b,
// rest...).
func (f *Function) Signature() string {
	s := f.Name + "("
	for i, p := range f.Params {
		if i > 0 {
			s += ", "
		}
		s += p
	}
	if f.Variadic != "" {
		if len(f.Params) > 0 {
			s += ", "
		}
		s += f.Variadic + "..."
	}
	return s + ")"
}

// NamedType is a type block, which binds a type to a name once, as a
// NixOS module's `let t = types.either ...; in` does:
//
//	type "listen" { type = either(str, listOf(str)) }
//
// Any type expression then reads it as types.listen: in type =, in
// freeform =, inside listOf(...) and the other type functions. Type names
// are global to an evaluation, as submodule and format names are.
type NamedType struct {
	Name  string
	Block *hclsyntax.Block
	Mod   *Module
	Expr  hclsyntax.Expression
}

// DeclBlock is the block that declares the named type.
func (t *NamedType) DeclBlock() *hclsyntax.Block { return t.Block }
