//go:build !linux

package main

import (
	"context"
	"io"

	"github.com/nodegen/nodegen/modtest"
)

// noMachines is why machine runs are skipped outside Linux.
const noMachines = "machine runs boot systemd in systemd-nspawn, which needs Linux"

// machineDriver returns no driver outside Linux, and why.
func machineDriver(context.Context, *evalFlags, machineFlags, io.Writer) (modtest.MachineDriver, string) {
	return nil, noMachines
}

// stopKeptMachines stops nothing outside Linux, where no machine is kept.
func stopKeptMachines(func(file, run string) bool) ([]string, error) {
	return nil, nil
}
