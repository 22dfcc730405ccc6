// Package runtimetune sets the Go runtime's garbage collector and heap up
// for the kind of run a nodegen command makes (Tune): one evaluation, whose
// allocations mostly live to the end, or many, one after another and side
// by side, whose allocations are garbage once each is done.
//
// What it sets is derived from the memory available to the process (the
// least of /proc/meminfo's MemAvailable, the memory cgroups' limits less
// their usage, and the address space left under ulimit -v), so that a
// small node or a tight cgroup sees a collection rather than the OOM
// killer. BENCHMARKS.md says what each setting buys. The command
// (cmd/nodegen) calls Tune once, before it runs; GOGC or GOMEMLIMIT in the
// environment take precedence.
package runtimetune
