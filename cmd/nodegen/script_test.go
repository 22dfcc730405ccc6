package main

import (
	"os"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"nodegen": func() { os.Exit(Main()) },
	})
}

// TestScripts runs the command-line tests in testdata/script.
// NODEGEN_UPDATE=1 rewrites their golden files.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		RequireExplicitExec: true,
		RequireUniqueNames:  true,
		UpdateScripts:       os.Getenv("NODEGEN_UPDATE") != "",
	})
}
