package main

import (
	"fmt"
	"io"

	"github.com/zclconf/go-cty/cty"

	"github.com/nodegen/nodegen/eval"
)

type ctyValue = cty.Value

// writeProfile checks the configuration and writes its system profile.
func writeProfile(ev *eval.Evaluator, dir string, stdout, stderr io.Writer) int {
	warns, diags := ev.Check()
	printWarnings(stderr, warns)
	if diags.HasErrors() {
		printDiags(stderr, ev.Files(), diags)
		return exitError
	}
	v, diags := ev.Config()
	if diags.HasErrors() {
		printDiags(stderr, ev.Files(), diags)
		return exitError
	}
	b, err := eval.JSON(v)
	if err != nil {
		fmt.Fprintf(stderr, "nodegen eval: %s\n", err)
		return exitError
	}
	stdout.Write(b)
	return exitOK
}
