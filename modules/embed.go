// Package modules holds nodegen's built-in module library: the HCL modules
// under this directory, embedded in the binary and part of every evaluation
// unless --bare is given. README.md says how the library is laid out (as
// NixOS's nixos/modules) and how to add a module.
package modules

import (
	"embed"
	"io/fs"
)

//go:embed all:*
var files embed.FS

// FS returns the library: every .hcl file below this directory, by its
// path relative to it (for example "services/cluster/kubernetes/kubelet.hcl").
// The evaluator reads only .hcl files from it.
func FS() fs.FS { return files }
