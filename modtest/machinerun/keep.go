//go:build linux

package machinerun

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/nodegen/nodegen/internal/atomicfile"
	"github.com/nodegen/nodegen/internal/flock"
	"github.com/nodegen/nodegen/internal/machine"
)

// Kept machines (Driver.Keep). A run with Keep leaves its machines, their
// disks and their network running and records them in
// StateDir/kept/KEY.json, KEY naming the test file and the run; the run
// holds KEY.lock (flock) from looking for a record until it has written
// or removed it, so two runs of one test never drive the same machines.
// The next run of the same test with Keep adopts them (machine.Adopt) and
// switches each to its freshly built profile instead of booting. A record
// whose machines are gone (stopped, their lifetime over, the host
// rebooted), or whose root lacks a package the profiles now list, is
// cleaned up and new machines boot. StopKept powers kept machines off.

// keptRun is the record of a run's machines left running.
type keptRun struct {
	File string `json:"file"`
	Run  string `json:"run"`
	// ID is the run's id, in its machines' names.
	ID string `json:"id"`
	// Packages are the root's, which every profile's packages must be
	// among for the machines to be adopted.
	Packages []string `json:"packages"`
	// Binary is the nodegen copied into the machines (path, size and
	// modification time): a new one is copied in before the switch.
	Binary   string                `json:"binary"`
	Network  machine.NetworkHandle `json:"network"`
	Machines []keptMachine         `json:"machines"`
	Kept     time.Time             `json:"kept"`

	path string   // of the record
	lock *os.File // KEY.lock, held
}

// keptMachine is a machine of a kept run.
type keptMachine struct {
	Name    string         `json:"name"`
	Address string         `json:"address"`
	Disk    string         `json:"disk"`
	Machine machine.Handle `json:"machine"`
}

// keptDir is where the records are.
func keptDir(stateDir string) string { return filepath.Join(stateDir, "kept") }

// keptKey names a test file's run's record.
func keptKey(file, run string) string {
	abs, err := filepath.Abs(file)
	if err != nil {
		abs = file
	}
	sum := sha256.Sum256([]byte(abs + "\x00" + run))
	return hex.EncodeToString(sum[:8])
}

// openKept locks the record at path (KEY.json, locking KEY.lock) and
// reads it; a record that does not exist is an empty keptRun (ID "").
func openKept(path string) (*keptRun, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, err
	}
	lock, err := os.OpenFile(strings.TrimSuffix(path, ".json")+".lock", os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, err
	}
	if err := flock.Lock(lock); err != nil {
		lock.Close()
		return nil, fmt.Errorf("locking %s: %v", lock.Name(), err)
	}
	k := &keptRun{}
	data, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		lock.Close()
		return nil, err
	default:
		if err := json.Unmarshal(data, k); err != nil {
			// A record that does not parse names nothing to stop.
			*k = keptRun{}
		}
	}
	k.path, k.lock = path, lock
	return k, nil
}

// unlock releases the record's lock.
func (k *keptRun) unlock() {
	if k.lock != nil {
		k.lock.Close()
		k.lock = nil
	}
}

// forget removes the record and releases its lock.
func (k *keptRun) forget() {
	os.Remove(k.path)
	k.unlock()
}

// stop powers the record's machines off, removes their disks, ends their
// network and removes the record; what is already gone is skipped.
func (k *keptRun) stop() error {
	var errs []error
	for _, km := range k.Machines {
		if err := machine.Stop(km.Machine); err != nil {
			errs = append(errs, err)
		}
		if km.Disk != "" {
			if err := (&disk{Base: km.Disk}).remove(); err != nil {
				errs = append(errs, err)
			}
		}
	}
	if net, err := machine.AdoptNetwork(k.Network); err == nil {
		net.Close()
	}
	k.Machines = nil
	if err := os.Remove(k.path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// adoptKept takes the kept machines of an earlier run of this test (with
// Keep only): true when every machine of the run is adopted, with the
// network. A record that cannot be used is stopped, with a note why.
func (rn *run) adoptKept() bool {
	if !rn.d.Keep {
		return false
	}
	k, err := openKept(filepath.Join(keptDir(rn.d.stateDir()), keptKey(rn.f.Path, rn.r.Name)+".json"))
	if err != nil {
		rn.note("cannot keep the machines: %v", err)
		return false
	}
	rn.kept = k
	if k.ID == "" {
		return false
	}
	if why := rn.adopt(k); why != "" {
		for _, n := range rn.nodes {
			n.m, n.disk, n.kept = nil, nil, false
		}
		rn.net = nil
		if err := k.stop(); err != nil {
			rn.note("stopping the kept machines: %v", err)
		}
		rn.note("the machines kept by an earlier run cannot be used (%s); booting new ones", why)
		return false
	}
	rn.id = k.ID
	return true
}

// adopt takes k's machines and network for rn's nodes, or says why not.
func (rn *run) adopt(k *keptRun) string {
	if len(k.Machines) != len(rn.nodes) {
		return "the run's machines changed"
	}
	for _, p := range rn.root.Packages {
		if !slices.Contains(k.Packages, p) {
			return fmt.Sprintf("their root lacks the package %s", p)
		}
	}
	for i, n := range rn.nodes {
		if km := k.Machines[i]; km.Name != n.name || km.Address != n.addr {
			return "the run's machines changed"
		}
	}
	var err error
	if rn.net, err = machine.AdoptNetwork(k.Network); err != nil {
		return err.Error()
	}
	for i, n := range rn.nodes {
		km := k.Machines[i]
		if n.m, err = machine.Adopt(km.Machine, rn.d.Logf); err != nil {
			return err.Error()
		}
		n.disk, n.kept = &disk{Base: km.Disk}, true
	}
	return ""
}

// switchAll switches every adopted machine to its profile, copying a
// newer nodegen in first.
func (rn *run) switchAll() bool {
	newBinary := binaryID(rn.d.Binary) != rn.kept.Binary
	errs := make([]error, len(rn.nodes))
	done := make(chan struct{})
	for i, n := range rn.nodes {
		go func() {
			defer func() { done <- struct{}{} }()
			t0 := time.Now()
			if newBinary {
				if errs[i] = n.m.WriteFile("/usr/local/bin/nodegen", mustRead(rn.d.Binary), 0o755); errs[i] != nil {
					return
				}
			}
			if out, err := rn.switchTo(n, n.base, "base"); err != nil {
				errs[i] = fmt.Errorf("%v\n%s\n%s", err, out, rn.journal(n))
				return
			}
			n.active = time.Since(t0)
		}()
	}
	for range rn.nodes {
		<-done
	}
	for i, n := range rn.nodes {
		if errs[i] != nil {
			rn.fail(n.block.Block.DefRange(), "Kept machine did not switch", fmt.Sprintf("The kept machine %q: %v", n.name, errs[i]))
			continue
		}
		rn.note("%s: kept machine switched in %s (no boot)", n.name, round(n.active))
	}
	return !rn.res.Diags.HasErrors()
}

// keep records the run's machines and leaves them running, noting how to
// enter them; false (nothing recorded) unless every machine is up.
func (rn *run) keep() bool {
	k := rn.kept
	if k == nil || rn.net == nil {
		return false
	}
	for _, n := range rn.nodes {
		if n.m == nil || n.disk == nil {
			return false
		}
		select {
		case <-n.m.Exited():
			return false
		default:
		}
	}
	k.File, k.Run, k.ID = rn.f.Path, rn.r.Name, rn.id
	if abs, err := filepath.Abs(rn.f.Path); err == nil {
		k.File = abs
	}
	k.Packages, k.Binary, k.Network, k.Kept = rn.root.Packages, binaryID(rn.d.Binary), rn.net.Handle(), time.Now().UTC()
	k.Machines = nil
	for _, n := range rn.nodes {
		k.Machines = append(k.Machines, keptMachine{Name: n.name, Address: n.addr, Disk: n.disk.Base, Machine: n.m.Handle()})
	}
	data, err := json.MarshalIndent(k, "", "  ")
	if err == nil {
		err = atomicfile.WriteFile(k.path, append(data, '\n'), 0o600)
	}
	if err != nil {
		rn.note("cannot keep the machines: %v", err)
		return false
	}
	rn.note("kept the machines (nodegen test --keep again switches them; nodegen test --stop-kept %s powers them off):", k.File)
	for _, km := range k.Machines {
		rn.note("  %s (%s): nsenter -t %d -a --root --wd -- bash -l", km.Name, km.Address, km.Machine.PID)
	}
	rn.note("  the network (a host shell in it, where %s answers): nsenter --net=%s -- bash", k.Machines[0].Address, rn.net.NSPath())
	k.unlock()
	if rn.tmp != "" {
		os.RemoveAll(rn.tmp)
	}
	return true
}

// binaryID identifies the nodegen executable at path by path, size and
// modification time.
func binaryID(path string) string {
	info, err := os.Stat(path)
	if err != nil {
		return ""
	}
	return fmt.Sprintf("%s %d %d", path, info.Size(), info.ModTime().UnixNano())
}

// KeptRun is a run whose machines are kept (Driver.Keep).
type KeptRun struct {
	// File and Run name the test file (absolute) and the run.
	File, Run string
	// Machines are the names of its machines.
	Machines []string
}

// StopKept powers off the kept machines of the runs under stateDir ("":
// the default) that match says to (nil: all of them), removes their disks,
// networks and records, and returns the runs stopped, sorted by file and
// run. Records whose machines are gone are removed whether they match or
// not.
func StopKept(stateDir string, match func(file, run string) bool) ([]KeptRun, error) {
	if stateDir == "" {
		stateDir = (&Driver{}).stateDir()
	}
	paths, err := filepath.Glob(filepath.Join(keptDir(stateDir), "*.json"))
	if err != nil {
		return nil, err
	}
	var stopped []KeptRun
	var errs []error
	for _, path := range paths {
		k, err := openKept(path)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if k.ID == "" || (match != nil && !match(k.File, k.Run) && k.alive()) {
			if k.ID == "" {
				os.Remove(path)
			}
			k.unlock()
			continue
		}
		kr := KeptRun{File: k.File, Run: k.Run}
		for _, km := range k.Machines {
			kr.Machines = append(kr.Machines, km.Name)
		}
		if err := k.stop(); err != nil {
			errs = append(errs, fmt.Errorf("%s, run %q: %v", k.File, k.Run, err))
		}
		k.unlock()
		if match == nil || match(kr.File, kr.Run) {
			stopped = append(stopped, kr)
		}
	}
	sort.Slice(stopped, func(i, j int) bool {
		if stopped[i].File != stopped[j].File {
			return stopped[i].File < stopped[j].File
		}
		return stopped[i].Run < stopped[j].Run
	})
	return stopped, errors.Join(errs...)
}

// alive reports whether every machine of the record still runs.
func (k *keptRun) alive() bool {
	for _, km := range k.Machines {
		if !machine.Running(km.Machine) {
			return false
		}
	}
	return true
}
