// Package hclfmt formats module and test files canonically: hclwrite's
// formatting (indentation by nesting, spacing around operators, aligned
// `=` of neighbouring attributes and aligned trailing comments), plus what
// it leaves alone: trailing white space, runs of blank lines, blank lines
// at the start and end of the file, CRLF line endings. Heredoc bodies are
// kept byte for byte.
//
// `nodegen fmt` (cmd/nodegen) is the command; the syntax is hclsyntax's
// and the formatter hclwrite's, both from hashicorp/hcl.
package hclfmt
