package main

import (
	"fmt"
	"io"
	"runtime"
	"time"

	"github.com/nodegen/nodegen/eval"
)

// runStats times the phases of one evaluating command for --stats: loading
// (reading and parsing the modules, declaring the options and splitting
// the definitions), evaluating, and writing the output.
type runStats struct {
	on     bool
	start  time.Time
	last   time.Time
	phases []phase
	mem0   runtime.MemStats // at the start, so that startup (see runtimetune.Tune) is not counted
}

type phase struct {
	name string
	took time.Duration
}

func newRunStats(on bool) *runStats {
	s := &runStats{on: on}
	if on {
		runtime.ReadMemStats(&s.mem0)
	}
	s.start = time.Now()
	s.last = s.start
	return s
}

// mark ends the phase called name.
func (s *runStats) mark(name string) {
	if !s.on {
		return
	}
	now := time.Now()
	s.phases = append(s.phases, phase{name, now.Sub(s.last)})
	s.last = now
}

// print writes the phases, the evaluation's counters and the memory
// allocated to w.
func (s *runStats) print(w io.Writer, ev *eval.Evaluator) {
	if !s.on {
		return
	}
	fmt.Fprint(w, "stats:")
	for _, p := range s.phases {
		fmt.Fprintf(w, " %s %s,", p.name, ms(p.took))
	}
	fmt.Fprintf(w, " total %s\n", ms(time.Since(s.start)))
	if ev != nil {
		st := ev.Stats()
		fmt.Fprintf(w, "stats: %d files, %d options evaluated, %d thunks forced, %d function calls, %d submodule instances, %.1f MB of values (limit allocation)\n",
			len(ev.Files()), st.Options, st.Thunks, st.Calls, st.Instances, float64(st.Allocated)/1e6)
		if n, undecoded := ev.LeftOut(); n > 0 {
			fmt.Fprintf(w, "stats: %d library modules left out (nothing reads them), %d of them not decoded\n", n, undecoded)
		}
		c := parseCache()
		cs := c.Stats()
		if c.Off() {
			fmt.Fprintf(w, "stats: parse cache: off; %d library modules built in\n", cs.Bundled)
		} else {
			fmt.Fprintf(w, "stats: parse cache: %d files decoded, %d written; %d library modules built in\n", cs.Hits, cs.Written, cs.Bundled)
		}
	}
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	fmt.Fprintf(w, "stats: %.1f MB allocated in %d objects, %d collections",
		float64(m.TotalAlloc-s.mem0.TotalAlloc)/1e6, m.Mallocs-s.mem0.Mallocs, m.NumGC-s.mem0.NumGC)
	if faults, rss, ok := processMemory(); ok {
		fmt.Fprintf(w, "; %d page faults, max RSS %.1f MiB", faults, float64(rss)/(1<<20))
	}
	fmt.Fprintln(w)
}

func ms(d time.Duration) string {
	return fmt.Sprintf("%.1f ms", float64(d.Microseconds())/1000)
}
