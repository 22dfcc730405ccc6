package activate

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// Where apt keeps what tells whether its package lists are fresh; variables
// for tests. Packages are installed only on the running system, so these
// are absolute.
var (
	// aptListsDir holds the package lists apt-get update downloaded.
	aptListsDir = "/var/lib/apt/lists"
	// aptUpdateStamps are touched by a successful apt-get update: apt's
	// own (APT::Periodic's daily update), and nodegen's, which
	// installPackages touches after its update.
	aptUpdateStamps = []string{"/var/lib/apt/periodic/update-success-stamp", "/" + stateDir + "/apt-update-stamp"}
	// aptListsMaxAge is how old the last update may be before an install
	// updates the lists first: the packages of older lists may be gone
	// from the mirror (a point release replaces them).
	aptListsMaxAge = 24 * time.Hour
	// aptTimeout bounds one apt-get run, downloads included.
	aptTimeout = 30 * time.Minute
)

// runAptGet runs apt-get with args and the environment env added to
// nodegen's, and returns its combined output; a variable for tests.
var runAptGet = func(env []string, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), aptTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "apt-get", args...)
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// aptGet returns the path of apt-get, or "" when the system has none.
func aptGet() string {
	p, err := exec.LookPath("apt-get")
	if err != nil {
		return ""
	}
	return p
}

// aptEnv is the environment every apt-get run gets: messages in English
// (installPackages reads them), and no question asked.
var aptEnv = []string{"LC_ALL=C", "DEBIAN_FRONTEND=noninteractive"}

// aptOptions are the options every apt-get run gets: the proxy, when the
// profile names one (environment.packageProxy), for http and https; a wait
// for dpkg's lock (a fresh cloud machine's unattended-upgrades may hold
// it); and dpkg keeping a configuration file an admin changed.
func aptOptions(proxy string) []string {
	var opts []string
	if proxy != "" {
		opts = append(opts, "-o", "Acquire::http::Proxy="+proxy, "-o", "Acquire::https::Proxy="+proxy)
	}
	return append(opts, "-o", "DPkg::Lock::Timeout=300",
		"-o", "Dpkg::Options::=--force-confdef", "-o", "Dpkg::Options::=--force-confold")
}

// aptRetryable are what apt-get says when its lists are missing or stale:
// an install that failed so is tried again after apt-get update.
var aptRetryable = []string{
	"Unable to locate package",
	"has no installation candidate",
	"Unable to fetch some archives",
	"404  Not Found",
}

// installPackages installs the packages names with apt-get, through proxy
// when it is not "": apt-get update first when the package lists are
// missing or stale (listsStale), and once more, with the install tried
// again, when the install fails for want of a package or an archive.
// logf tells what it does.
func installPackages(names []string, proxy string, logf func(string, ...any)) error {
	opts := aptOptions(proxy)
	updated := false
	update := func(why string) error {
		logf("apt-get update: %s", why)
		out, err := runAptGet(aptEnv, append(append([]string(nil), opts...), "update")...)
		if err != nil {
			return fmt.Errorf("apt-get update failed: %v: %s", err, lastLines(out, 3))
		}
		updated = true
		touchStamp(aptUpdateStamps[len(aptUpdateStamps)-1])
		return nil
	}
	if why := listsStale(time.Now()); why != "" {
		if err := update(why); err != nil {
			return err
		}
	}
	install := append(append([]string(nil), opts...), append([]string{"install", "-y", "--no-install-recommends", "--"}, names...)...)
	out, err := runAptGet(aptEnv, install...)
	if err != nil && !updated && retryable(out) {
		if uerr := update("the install failed: " + lastLines(out, 1)); uerr != nil {
			return uerr
		}
		out, err = runAptGet(aptEnv, install...)
	}
	if err != nil {
		return fmt.Errorf("apt-get failed: %v: %s", err, lastLines(out, 3))
	}
	return nil
}

// retryable reports whether apt-get's output says what an update of its
// lists may cure.
func retryable(out string) bool {
	for _, s := range aptRetryable {
		if strings.Contains(out, s) {
			return true
		}
	}
	return false
}

// listsStale says why apt's package lists want an update before an
// install, or "" when they are fresh: there are none (a cloud image's
// apt-get clean), or no update stamp is younger than aptListsMaxAge.
func listsStale(now time.Time) string {
	lists, _ := filepath.Glob(filepath.Join(aptListsDir, "*_Packages*"))
	if len(lists) == 0 {
		return "no package lists in " + aptListsDir
	}
	var newest time.Time
	for _, stamp := range aptUpdateStamps {
		if fi, err := os.Stat(stamp); err == nil && fi.ModTime().After(newest) {
			newest = fi.ModTime()
		}
	}
	switch {
	case newest.IsZero():
		return "the package lists were never updated on this system"
	case now.Sub(newest) > aptListsMaxAge:
		return fmt.Sprintf("the package lists are from %s, older than %s", newest.UTC().Format(time.RFC3339), aptListsMaxAge)
	}
	return ""
}

// touchStamp records a successful update at path (best effort: a stamp
// that cannot be written only makes the next install update again).
func touchStamp(path string) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return
	}
	now := time.Now()
	if err := os.Chtimes(path, now, now); err == nil {
		return
	}
	if f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE, 0o644); err == nil {
		f.Close()
	}
}
