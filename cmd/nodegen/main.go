// Command nodegen evaluates NixOS-style HCL modules and writes system
// profiles. See README.md and docs/ for the language.
package main

import "os"

func main() { os.Exit(Main()) }
