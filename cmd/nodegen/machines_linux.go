//go:build linux

package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/nodegen/nodegen/internal/machine"
	"github.com/nodegen/nodegen/internal/suitereport"
	"github.com/nodegen/nodegen/modtest"
	"github.com/nodegen/nodegen/modtest/machinerun"
)

// machineDriver returns the driver of nodegen test's machine runs and,
// where machines cannot boot here, why: the driver then still builds each
// run's profiles, so that a machine block's errors are reported, and
// skips the run (fails it under CI).
func machineDriver(ctx context.Context, ef *evalFlags, mf machineFlags, stderr io.Writer) (modtest.MachineDriver, string) {
	d := &machinerun.Driver{Context: ctx, Keep: mf.keep, Checks: ef.checkMode()}
	exe, err := os.Executable()
	if err == nil {
		err = machine.Available()
	}
	var skip string
	if err != nil {
		skip = err.Error()
		d.Unavailable, d.UnavailableFails = skip, suitereport.InCI()
	}
	d.Executable = exe
	if !ef.bare {
		d.Library = library()
	}
	if mf.keep {
		d.Logf = func(format string, args ...any) { fmt.Fprintf(stderr, format+"\n", args...) }
	}
	return d, skip
}

// stopKeptMachines powers off the kept machines of the runs keep accepts
// (by test file and run name) and returns a line for each run stopped.
func stopKeptMachines(keep func(file, run string) bool) ([]string, error) {
	stopped, err := machinerun.StopKept("", keep)
	var lines []string
	for _, k := range stopped {
		lines = append(lines, fmt.Sprintf("stopped %s: run %q (machines %s)", k.File, k.Run, strings.Join(k.Machines, ", ")))
	}
	return lines, err
}
