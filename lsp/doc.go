// Package lsp is nodegen's language server (`nodegen lsp`): the Language
// Server Protocol 3.17 over a stream (stdio), for the editors of module
// authors.
//
// It evaluates modules with package eval as `nodegen eval` does, through
// the editor's unsaved buffers (overlay.go), and answers from that
// evaluation:
//
//   - diagnostics (diagnostics.go): on open and change, what loading,
//     declaring, defining and merging finds (parse errors, unknown
//     options with "did you mean", values not of their type, conflicts);
//     on save, the full evaluation of each host that reads the file
//     (assertions, warnings; the checks of the generated files, module
//     scripts, only when Options.Checks or the client enables them). A
//     diagnostic is shown
//     at its subject and at every place of an evaluated file its message
//     quotes (both definitions of a conflict), each naming the others.
//   - hover (navigate.go): `nodegen option`'s explanation of the option
//     under the cursor (package optiontext).
//   - completion (complete.go): option paths from the declarations, enum
//     and bool values, function names with their signatures.
//   - definition and references (navigate.go): the declaration, in the
//     built-in library too (its files are written read-only below a
//     cache directory, library.go); every definition of the option.
//   - formatting with package hclfmt and document symbols (format.go).
//
// locate.go tells what the cursor is on from the syntax tree of what
// parses. position.go converts between LSP positions, in the negotiated
// encoding (UTF-8 preferred, UTF-16), and HCL's byte offsets, exactly.
// transport.go is the base protocol (Content-Length framing) and
// JSON-RPC 2.0, on the standard library.
package lsp
