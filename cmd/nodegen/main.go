// Command nodegen evaluates NixOS-style HCL modules and writes system
// profiles. See README.md and docs/ for the language.
package main

import (
	"os"

	"github.com/nodegen/nodegen/internal/runtimetune"
)

func main() {
	if len(os.Args) > 1 {
		if c := findCommand(os.Args[1]); c != nil {
			runtimetune.Tune(c.gc)
		}
	}
	os.Exit(Main())
}
