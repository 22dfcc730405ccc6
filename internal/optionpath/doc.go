// Package optionpath is the syntax of option paths, services.kubelet.port
// or environment.etc."a/b.json".text: their Go form, how they are written
// and read back. It imports nothing of nodegen, so that readers of module
// files that need no options (internal/hcldiag, and through it hclfmt)
// share the one rule with package options, whose Path is this package's.
package optionpath
