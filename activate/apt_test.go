package activate

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestInstallPackages checks the apt-get runs of installPackages: the
// proxy's options, the environment, an update when the lists are missing
// or stale, and one retry after an update when the install fails for want
// of a package or an archive.
func TestInstallPackages(t *testing.T) {
	const (
		opts  = "-o DPkg::Lock::Timeout=300 -o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold"
		proxy = "-o Acquire::http::Proxy=http://10.88.0.1:3142 -o Acquire::https::Proxy=http://10.88.0.1:3142 " + opts
	)
	type run struct {
		out    string
		failed bool
	}
	for _, tc := range []struct {
		name    string
		proxy   string
		lists   bool          // whether the lists dir has a Packages file
		stamp   time.Duration // age of nodegen's update stamp; 0: none
		results []run         // what each apt-get run answers, in turn
		want    []string      // the apt-get command lines
		wantErr string
	}{{
		name: "fresh lists: install only", lists: true, stamp: time.Hour,
		results: []run{{}},
		want:    []string{opts + " install -y --no-install-recommends -- curl etcd-server"},
	}, {
		name: "through the proxy", proxy: "http://10.88.0.1:3142", lists: true, stamp: time.Hour,
		results: []run{{}},
		want:    []string{proxy + " install -y --no-install-recommends -- curl etcd-server"},
	}, {
		name: "no lists: update first", proxy: "http://10.88.0.1:3142", stamp: time.Hour,
		results: []run{{}, {}},
		want:    []string{proxy + " update", proxy + " install -y --no-install-recommends -- curl etcd-server"},
	}, {
		name: "never updated: update first", lists: true,
		results: []run{{}, {}},
		want:    []string{opts + " update", opts + " install -y --no-install-recommends -- curl etcd-server"},
	}, {
		name: "stale lists: update first", lists: true, stamp: 48 * time.Hour,
		results: []run{{}, {}},
		want:    []string{opts + " update", opts + " install -y --no-install-recommends -- curl etcd-server"},
	}, {
		name: "unknown package: update and retry once", lists: true, stamp: time.Hour,
		results: []run{{"E: Unable to locate package etcd-server", true}, {}, {}},
		want: []string{opts + " install -y --no-install-recommends -- curl etcd-server", opts + " update",
			opts + " install -y --no-install-recommends -- curl etcd-server"},
	}, {
		name: "archive gone from the mirror: update and retry once", lists: true, stamp: time.Hour,
		results: []run{{"Err:1 http://deb.debian.org/debian bookworm/main amd64 curl amd64 7.88.1-10\n  404  Not Found [IP: 10.88.0.1 3142]\nE: Unable to fetch some archives", true}, {}, {}},
		want: []string{opts + " install -y --no-install-recommends -- curl etcd-server", opts + " update",
			opts + " install -y --no-install-recommends -- curl etcd-server"},
	}, {
		name: "still unknown after the update: the error", lists: true, stamp: time.Hour,
		results: []run{{"E: Unable to locate package etcd-server", true}, {}, {"E: Unable to locate package etcd-server", true}},
		want: []string{opts + " install -y --no-install-recommends -- curl etcd-server", opts + " update",
			opts + " install -y --no-install-recommends -- curl etcd-server"},
		wantErr: "apt-get failed: exit status 100: E: Unable to locate package etcd-server",
	}, {
		name: "updated already: no second update", stamp: time.Hour,
		results: []run{{}, {"E: Unable to locate package etcd-server", true}},
		want:    []string{opts + " update", opts + " install -y --no-install-recommends -- curl etcd-server"},
		wantErr: "apt-get failed: exit status 100: E: Unable to locate package etcd-server",
	}, {
		name: "another failure: no retry", lists: true, stamp: time.Hour,
		results: []run{{"E: Could not get lock /var/lib/dpkg/lock-frontend", true}},
		want:    []string{opts + " install -y --no-install-recommends -- curl etcd-server"},
		wantErr: "apt-get failed: exit status 100: E: Could not get lock /var/lib/dpkg/lock-frontend",
	}, {
		name: "update fails: the error", proxy: "http://10.88.0.1:3142",
		results: []run{{"W: Failed to fetch http://deb.debian.org/debian/dists/bookworm/InRelease  Could not connect to 10.88.0.1:3142", true}},
		want:    []string{proxy + " update"},
		wantErr: "apt-get update failed: exit status 100: W: Failed to fetch http://deb.debian.org/debian/dists/bookworm/InRelease  Could not connect to 10.88.0.1:3142",
	}} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			lists := filepath.Join(dir, "lists")
			if err := os.MkdirAll(lists, 0o755); err != nil {
				t.Fatal(err)
			}
			if tc.lists {
				if err := os.WriteFile(filepath.Join(lists, "deb.debian.org_debian_dists_bookworm_main_binary-amd64_Packages"), nil, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			stamp := filepath.Join(dir, "nodegen", "apt-update-stamp")
			if tc.stamp != 0 {
				if err := os.MkdirAll(filepath.Dir(stamp), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(stamp, nil, 0o644); err != nil {
					t.Fatal(err)
				}
				at := time.Now().Add(-tc.stamp)
				if err := os.Chtimes(stamp, at, at); err != nil {
					t.Fatal(err)
				}
			}
			var got []string
			defer swap(&aptListsDir, lists)()
			defer swap(&aptUpdateStamps, []string{filepath.Join(dir, "periodic", "update-success-stamp"), stamp})()
			defer swap(&runAptGet, func(env []string, args ...string) (string, error) {
				if diff := cmp.Diff([]string{"LC_ALL=C", "DEBIAN_FRONTEND=noninteractive"}, env); diff != "" {
					t.Errorf("apt-get's environment (-want +got):\n%s", diff)
				}
				got = append(got, strings.Join(args, " "))
				if len(got) > len(tc.results) {
					t.Fatalf("apt-get run %d: %v, more than the %d expected", len(got), args, len(tc.results))
				}
				r := tc.results[len(got)-1]
				if r.failed {
					return r.out, &exitError{}
				}
				return r.out, nil
			})()
			err := installPackages([]string{"curl", "etcd-server"}, tc.proxy, func(string, ...any) {})
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("apt-get runs (-want +got):\n%s", diff)
			}
			switch {
			case tc.wantErr == "" && err != nil:
				t.Errorf("installPackages: %v, want no error", err)
			case tc.wantErr != "" && (err == nil || err.Error() != tc.wantErr):
				t.Errorf("installPackages: %v, want %q", err, tc.wantErr)
			}
			if err == nil && hasRun(got, "update") {
				if fi, serr := os.Stat(stamp); serr != nil || time.Since(fi.ModTime()) > time.Minute {
					t.Errorf("the update stamp is not fresh after a successful update: %v", serr)
				}
			}
		})
	}
}

// exitError is the error of an apt-get run that failed.
type exitError struct{}

func (*exitError) Error() string { return "exit status 100" }

// swap sets *p to v and returns what puts the old value back.
func swap[T any](p *T, v T) func() {
	old := *p
	*p = v
	return func() { *p = old }
}

// hasRun reports whether a command line of runs ends with word.
func hasRun(runs []string, word string) bool {
	for _, r := range runs {
		if strings.HasSuffix(r, " "+word) {
			return true
		}
	}
	return false
}
