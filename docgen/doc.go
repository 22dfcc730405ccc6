// Package docgen writes the reference documentation of options: every
// option in scope with its type, default, example, description and where
// it is declared, as Markdown (grouped by the first segment of the path,
// with NixOS's <name> placeholders for the attributes of an attrsOf) or as
// JSON.
//
// The declarations come from package eval (sibling package,
// eval.Evaluator.Declarations); `nodegen options` (cmd/nodegen) is the
// command, and docs/options.md in the repository is its output for the
// built-in library, kept current by a test in this package.
package docgen
