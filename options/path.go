package options

import "github.com/nodegen/nodegen/internal/optionpath"

// Path is the location of an option or of a value inside one, one segment
// per attribute name: services.kubernetes.kubelet.port is
// Path{"services", "kubernetes", "kubelet", "port"}. Its syntax and
// methods are internal/optionpath's.
type Path = optionpath.Path

// ParsePath reads a dotted path as Path.String writes it. A segment is
// either written bare (any characters but '.' and '"'; it may not be
// empty) or in double quotes, where it may contain dots and the escapes
// \" \\ \n \r \t. The empty string is the empty path.
func ParsePath(s string) (Path, error) { return optionpath.Parse(s) }

// ParsePathAfter is prefix followed by the segments ParsePath reads from
// s, in a new slice: one allocation where joining prefix and ParsePath's
// path would take two. An empty s gives a copy of prefix.
func ParsePathAfter(prefix Path, s string) (Path, error) {
	return optionpath.ParseAfter(prefix, s)
}
