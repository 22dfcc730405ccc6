package pull

import (
	"context"
	"fmt"
	"io"
	"maps"
	"os/exec"
	"slices"
	"time"

	"github.com/nodegen/nodegen/deploy"
)

// RunHealthChecks runs checks (sh -c each) in the order of their names,
// each until it passes or its retries are spent, and returns the first
// that failed (nil: all passed). Their output goes to log.
func RunHealthChecks(ctx context.Context, checks map[string]deploy.HealthCheck, log io.Writer) error {
	for _, name := range slices.Sorted(maps.Keys(checks)) {
		hc := checks[name]
		if hc.Name == "" {
			hc.Name = name
		}
		timeout := time.Duration(max(hc.Timeout, 1)) * time.Second
		tries := 0
		var err error
		for {
			tries++
			cctx, cancel := context.WithTimeout(ctx, timeout)
			cmd := exec.CommandContext(cctx, "sh", "-c", hc.Command)
			cmd.Env = append(cmd.Environ(), "NODEGEN_PHASE=health")
			cmd.Stdout, cmd.Stderr = log, log
			err = cmd.Run()
			cancel()
			if err == nil || tries > hc.Retries || ctx.Err() != nil {
				break
			}
			select {
			case <-ctx.Done():
			case <-time.After(time.Duration(max(hc.Interval, 1)) * time.Second):
			}
		}
		if err != nil {
			return fmt.Errorf("health check %s failed (%d tries): %v", hc.Name, tries, err)
		}
		fmt.Fprintf(log, "health check %s: passed (%d tries)\n", hc.Name, tries)
	}
	return nil
}
