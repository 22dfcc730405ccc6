package deploy

import (
	"context"
	"fmt"
	"math"
	"sync"
	"time"
)

// Run deploys hosts in waves (cfg.Waves), cfg.Parallel at a time within a
// wave, and at most cfg.MaxPerJump at a time through one jump host; at
// most UnavailableBudget of them are unavailable (from their beforeSwitch
// hooks until their end) at once. After each wave it counts the hosts that did not end confirmed (or
// planned); more than cfg.MaxFail of all the hosts stops the deploy, and
// the later waves' hosts are Skipped. The results are in the order of
// hosts; stopped says whether the budget stopped the deploy.
func Run(ctx context.Context, cfg Config, hosts []Host) (results []HostResult, stopped bool, err error) {
	if cfg.SSH == "" {
		cfg.SSH = "ssh"
	}
	if cfg.Parallel < 1 {
		cfg.Parallel = 1
	}
	waves, err := Waves(cfg.Waves, len(hosts))
	if err != nil {
		return nil, false, err
	}
	binHash, err := fileHash(cfg.Binary)
	if err != nil {
		return nil, false, fmt.Errorf("the nodegen binary to copy: %w", err)
	}
	var mu sync.Mutex
	began := time.Now()
	emit := func(e Event) {
		if cfg.Event == nil {
			return
		}
		e.At = math.Round(time.Since(began).Seconds()*10) / 10
		mu.Lock()
		defer mu.Unlock()
		cfg.Event(e)
	}
	jumps := &jumpLimits{max: cfg.MaxPerJump}
	var unavailable chan struct{}
	if n := UnavailableBudget(cfg.MaxUnavailable, hosts); n > 0 {
		unavailable = make(chan struct{}, n)
	}
	budget := cfg.MaxFail.Of(len(hosts))
	results = make([]HostResult, len(hosts))
	failures := 0
	for wi, w := range waves {
		if stopped {
			for i := w[0]; i < w[1]; i++ {
				results[i] = HostResult{Host: hosts[i].Name, Outcome: Skipped, Message: fmt.Sprintf("wave %d not started: the failure budget was spent", wi+1)}
				emit(Event{Host: hosts[i].Name, Step: "done", Result: &results[i]})
			}
			continue
		}
		next := make(chan int)
		var wg sync.WaitGroup
		for range min(cfg.Parallel, w[1]-w[0]) {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := range next {
					h := hosts[i]
					d := &deployer{cfg: &cfg, h: h, binHash: binHash, unavailable: unavailable, emit: func(step, msg string) {
						emit(Event{Host: h.Name, Step: step, Message: msg})
					}}
					release, err := jumps.acquire(ctx, jumpHost(ctx, cfg.SSH, h))
					if err != nil {
						results[i] = HostResult{Host: h.Name, Outcome: Unreachable, Message: err.Error()}
					} else {
						results[i] = d.run(ctx)
						release()
					}
					emit(Event{Host: h.Name, Step: "done", Result: &results[i]})
				}
			}()
		}
		for i := w[0]; i < w[1]; i++ {
			next <- i
		}
		close(next)
		wg.Wait()
		for i := w[0]; i < w[1]; i++ {
			if o := results[i].Outcome; o != Confirmed && o != Planned {
				failures++
			}
		}
		if failures > budget && wi < len(waves)-1 {
			stopped = true
		}
	}
	return results, stopped, nil
}

// UnavailableBudget is how many hosts may be unavailable at once: the
// smallest of flag (0: none) and the hosts' deployment.maxUnavailable; 0
// is no bound.
func UnavailableBudget(flag int, hosts []Host) int {
	n := flag
	for _, h := range hosts {
		if m := h.Options.MaxUnavailable; m != nil && *m > 0 && (n == 0 || *m < n) {
			n = *m
		}
	}
	return n
}
