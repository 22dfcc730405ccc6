package machinerun

// keptRun is the record of a run's machines left running (Driver.Keep).
type keptRun struct{}

// adoptKept takes the kept machines of an earlier run of this test.
func (rn *run) adoptKept() bool { return false }

// switchAll switches every adopted machine to its profile.
func (rn *run) switchAll() bool { return false }

// keep records the run's machines and leaves them running.
func (rn *run) keep() bool { return false }

// forget removes the record.
func (k *keptRun) forget() {}
