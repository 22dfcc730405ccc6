package deploy

import (
	"bufio"
	"context"
	"os/exec"
	"strings"
	"sync"
	"time"
)

// jumpHost returns the first jump host that ssh would go through to reach
// h (its ProxyJump, from the host's sshOptions or ~/.ssh/config, as
// `ssh -G` resolves it), or "" when it connects directly or ssh cannot
// say.
func jumpHost(ctx context.Context, sshProg string, h Host) string {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, sshProg, append([]string{"-G"}, destination(h.Name, h.Options)...)...).Output()
	if err != nil {
		return ""
	}
	return parseJump(string(out))
}

// parseJump reads the first jump host of ssh -G's output.
func parseJump(out string) string {
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		key, value, ok := strings.Cut(sc.Text(), " ")
		if ok && strings.EqualFold(key, "proxyjump") && value != "none" {
			first, _, _ := strings.Cut(value, ",")
			return first
		}
	}
	return ""
}

// jumpLimits bounds the hosts deployed at once through each jump host,
// so that a bastion's sshd does not see more connections than its
// MaxStartups lets through.
type jumpLimits struct {
	max   int
	mu    sync.Mutex
	slots map[string]chan struct{}
}

// acquire waits for a slot of jump ("" has no bound) and returns the
// function that frees it.
func (l *jumpLimits) acquire(ctx context.Context, jump string) (release func(), err error) {
	if jump == "" || l.max <= 0 {
		return func() {}, nil
	}
	l.mu.Lock()
	if l.slots == nil {
		l.slots = map[string]chan struct{}{}
	}
	ch, ok := l.slots[jump]
	if !ok {
		ch = make(chan struct{}, l.max)
		l.slots[jump] = ch
	}
	l.mu.Unlock()
	select {
	case ch <- struct{}{}:
		return func() { <-ch }, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}
