package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"sync"

	"github.com/nodegen/nodegen/eval"
	"github.com/nodegen/nodegen/internal/fleetfile"
)

// fleetHelp tells of --fleet in the help of the evaluating commands.
const fleetHelp = "Fleets: with --fleet FLEET.hcl (a file hosts = [\"a.hcl\", \"b.hcl\"], paths\n" +
	"relative to it) the hosts of the fleet are evaluated together: a module reads\n" +
	"another host's options as hosts.NAME.config.PATH, NAME being the host file's\n" +
	"name without .hcl. nodegen build and deploy make a fleet of the hosts they are\n" +
	"given (and of FLEET's). See docs/fleets.md.\n"

// fleetFlag is --fleet FLEET.hcl: the fleet file, read when the flag is
// parsed; an error in it is a usage error, located in the file.
type fleetFlag struct{ f *evalFlags }

func (v fleetFlag) Set(s string) error {
	hosts, diags := fleetfile.Load(s)
	if diags.HasErrors() {
		var msgs []string
		for _, d := range diags {
			msg := d.Summary
			if d.Detail != "" {
				msg += ": " + d.Detail
			}
			if d.Subject != nil {
				msg = fmt.Sprintf("%s:%d:%d: %s", d.Subject.Filename, d.Subject.Start.Line, d.Subject.Start.Column, msg)
			}
			msgs = append(msgs, msg)
		}
		return errorString(strings.Join(msgs, "\n"))
	}
	v.f.fleetFile = s
	v.f.fleetHosts = hosts
	return nil
}

func (v fleetFlag) String() string { return v.f.fleetFile }

func (v fleetFlag) Type() string { return "FLEET.hcl" }

// errorString is an error of a fixed message.
type errorString string

func (e errorString) Error() string { return string(e) }

// fleetState is the fleet the evaluations of a command share: the
// declared trees (eval.Fleet) and the hosts that read each other.
type fleetState struct {
	once   sync.Once
	shared *eval.Fleet
	hosts  *eval.Hosts
	// extra are the hosts a command adds to the fleet file's (build's
	// and deploy's arguments), before the first evaluation.
	extra []fleetfile.Host
	// byFile names the hosts by their file's absolute path.
	byFile map[string]string
}

// addHosts adds the hosts of build or deploy to the fleet: they read each
// other, with those of --fleet.
func (f *evalFlags) addHosts(hosts []buildHost) {
	for _, h := range hosts {
		f.fleet.extra = append(f.fleet.extra, fleetfile.Host{Name: h.name, File: h.file})
	}
}

// sharedFleet returns the eval.Fleet of the command's evaluations.
func (f *evalFlags) sharedFleet() *eval.Fleet {
	f.fleetInit()
	return f.fleet.shared
}

// fleetInit makes the command's fleet once: the hosts of --fleet and
// those added, a host named twice being the first.
func (f *evalFlags) fleetInit() {
	f.fleet.once.Do(func() {
		f.fleet.shared = eval.NewFleet()
		all := append(append([]fleetfile.Host(nil), f.fleetHosts...), f.fleet.extra...)
		if len(all) == 0 {
			return
		}
		f.fleet.byFile = map[string]string{}
		var files []eval.HostFile
		seen := map[string]bool{}
		for _, h := range all {
			if seen[h.Name] {
				continue
			}
			seen[h.Name] = true
			files = append(files, eval.HostFile{Name: h.Name, Files: []string{h.File}})
			f.fleet.byFile[absPath(h.File)] = h.Name
		}
		base := f.baseConfig()
		base.Fleet = f.fleet.shared
		f.fleet.hosts = eval.NewHosts(files, base)
	})
}

// withFleet sets cfg's host and the fleet it reads: the host is the one
// of the fleet whose file is cfg's first file, else that file's name.
func (f *evalFlags) withFleet(cfg eval.Config) eval.Config {
	f.fleetInit()
	if len(cfg.Files) > 0 {
		cfg.Host = strings.TrimSuffix(filepath.Base(cfg.Files[0]), ".hcl")
	}
	if h := f.fleet.hosts; h != nil {
		cfg.Hosts = h
		cfg.Fleet = f.fleet.shared
		if len(cfg.Files) > 0 {
			if name, ok := f.fleet.byFile[absPath(cfg.Files[0])]; ok {
				cfg.Host = name
			}
		}
	}
	return cfg
}

// absPath is path made absolute, or path when it cannot be.
func absPath(path string) string {
	if a, err := filepath.Abs(path); err == nil {
		return a
	}
	return path
}
