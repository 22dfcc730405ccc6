// Package optionsite writes the options reference as a static web site:
// one HTML page (its script and style inline, embedded in the binary), and
// the index of the options it searches, as JSON (options-index.json) and
// as a script that sets a global (options-index.js), which a page opened
// from file:// can load where fetch cannot. No file comes from elsewhere.
//
// The index holds every documented option (package docgen decides which:
// docgen.Documented, docgen.DocPath) and, for each host given, the value
// of every option and the definitions that set it, as eval.Evaluator's
// Explain gives them and `nodegen option` prints them (package
// internal/optiontext). The page searches as the user types, ranking exact
// paths first, then `enable` options, then path prefixes and words, then
// descriptions; it browses the options as a tree of namespaces, and copies
// an option as an HCL snippet (Snippet) or its path.
//
// `nodegen options --format html -o DIR [HOST.hcl...]` (cmd/nodegen) is
// the command; docs/options.html is its output for the built-in library
// (make docs).
package optionsite
