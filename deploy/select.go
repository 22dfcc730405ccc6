package deploy

import (
	"fmt"
	"math"
	"path"
	"strconv"
	"strings"
)

// Host is one host to deploy: its name (its file's name without .hcl),
// the profile evaluated for it (a directory on the deploying machine), and
// its deployment options.
type Host struct {
	Name    string
	Profile string
	Options Options
}

// Options are a host's deployment options (the deployment.* options of
// its modules).
type Options struct {
	// TargetHost is the address ssh connects to; nil: the host's name.
	TargetHost *string `json:"targetHost"`
	// TargetPort is the SSH port; nil leaves it to ssh.
	TargetPort *int `json:"targetPort"`
	// TargetUser is the user to connect as (through sudo when not root);
	// nil leaves it to ssh.
	TargetUser *string `json:"targetUser"`
	// SSHOptions are more arguments for ssh, before the host.
	SSHOptions []string `json:"sshOptions"`
	// Tags are what --on @TAG selects by.
	Tags []string `json:"tags"`
	// Keys are the secrets written on the host, by name.
	Keys map[string]Key `json:"keys"`
	// BackupConflicts has the host's switch move the files in the way of
	// its profile aside (switch --backup).
	BackupConflicts bool `json:"backupConflicts"`
	// HealthChecks must pass on the host, with its new generation active,
	// before the deploy confirms it.
	HealthChecks map[string]HealthCheck `json:"healthChecks"`
	// BeforeSwitch and AfterSwitch are the hooks run, in order, before the
	// host's switch and after it (before its health checks).
	BeforeSwitch []Hook `json:"beforeSwitch"`
	AfterSwitch  []Hook `json:"afterSwitch"`
	// MaxUnavailable bounds how many hosts are unavailable at once (nil:
	// no bound of this host's own).
	MaxUnavailable *int `json:"maxUnavailable"`
}

// backupFlag is the switch flag that moves files in the way aside, when
// the deploy or the host asks for it.
func (d *deployer) backupFlag() string {
	if d.cfg.Backup || d.h.Options.BackupConflicts {
		return " --backup"
	}
	return ""
}

// Key is one of deployment.keys: a secret written on the host as
// DestDir/Name, owned by User:Group with mode Permissions. Its content is
// Text, or that of the deploying machine's file KeyFile.
type Key struct {
	Name        string  `json:"name"`
	Text        *string `json:"text"`
	KeyFile     *string `json:"keyFile"`
	DestDir     string  `json:"destDir"`
	User        string  `json:"user"`
	Group       string  `json:"group"`
	Permissions string  `json:"permissions"`
}

// LargeSet is the number of hosts above which a deploy without a selector
// is refused: touching every host of a large set needs --on '*'.
const LargeSet = 5

// Select returns the hosts that selectors choose, in the order of hosts. A
// selector is a host name, a glob of names (path.Match: *, ?, [...]) or
// @TAG; a host is chosen when any selector matches it. With no selectors,
// every host is chosen, unless there are more than LargeSet. A selector
// that matches no host is an error, so that a typo deploys nothing.
func Select(hosts []Host, selectors []string) ([]Host, error) {
	if len(selectors) == 0 {
		if len(hosts) > LargeSet {
			return nil, fmt.Errorf("%d hosts given and no --on: touching more than %d hosts needs them selected, --on '*' for all", len(hosts), LargeSet)
		}
		return hosts, nil
	}
	chosen := make([]bool, len(hosts))
	for _, sel := range selectors {
		if sel == "" {
			return nil, fmt.Errorf("--on: an empty selector")
		}
		matched := false
		for i, h := range hosts {
			ok, err := matches(h, sel)
			if err != nil {
				return nil, fmt.Errorf("--on %q: %v", sel, err)
			}
			if ok {
				chosen[i], matched = true, true
			}
		}
		if !matched {
			return nil, fmt.Errorf("--on %q matches none of the %d hosts", sel, len(hosts))
		}
	}
	var out []Host
	for i, h := range hosts {
		if chosen[i] {
			out = append(out, h)
		}
	}
	return out, nil
}

func matches(h Host, sel string) (bool, error) {
	if tag, ok := strings.CutPrefix(sel, "@"); ok {
		for _, t := range h.Options.Tags {
			if ok, err := path.Match(tag, t); err != nil || ok {
				return ok, err
			}
		}
		return false, nil
	}
	return path.Match(sel, h.Name)
}

// Amount is a count of hosts, given as a number or a percentage of a
// total ("3", "10%").
type Amount struct {
	// N is the count; or, when IsShare, Percent is the share.
	N       int
	Percent float64
	IsShare bool
}

// ParseAmount parses "N" or "P%".
func ParseAmount(s string) (Amount, error) {
	if p, ok := strings.CutSuffix(s, "%"); ok {
		f, err := strconv.ParseFloat(p, 64)
		if err != nil || f < 0 || f > 100 || math.IsNaN(f) {
			return Amount{}, fmt.Errorf("%q: want a percentage from 0%% to 100%%", s)
		}
		return Amount{Percent: f, IsShare: true}, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		return Amount{}, fmt.Errorf("%q: want a number of hosts or a percentage (10%%)", s)
	}
	return Amount{N: n}, nil
}

// Of returns the amount of total hosts: a share rounds up, so that 10% of
// 5 hosts is 1.
func (a Amount) Of(total int) int {
	if !a.IsShare {
		return a.N
	}
	return int(math.Ceil(a.Percent * float64(total) / 100))
}

// Waves splits n hosts into waves: each entry of list ("1,10%,100%") is
// how many hosts are done once its wave is, counted from the first host;
// a last wave takes the rest when the list does not reach n. An empty
// list is one wave of all. Waves that would be empty are left out.
func Waves(list string, n int) ([][2]int, error) {
	var ends []int
	if list != "" {
		for _, part := range strings.Split(list, ",") {
			a, err := ParseAmount(strings.TrimSpace(part))
			if err != nil {
				return nil, fmt.Errorf("--waves: %v", err)
			}
			ends = append(ends, min(a.Of(n), n))
		}
	}
	ends = append(ends, n)
	var waves [][2]int
	start := 0
	for _, end := range ends {
		if end > start {
			waves = append(waves, [2]int{start, end})
			start = end
		}
	}
	return waves, nil
}
