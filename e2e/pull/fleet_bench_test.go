//go:build linux

package pull

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
	"time"

	"oras.land/oras-go/v2/registry/remote"

	"github.com/nodegen/nodegen/fixtures"
	"github.com/nodegen/nodegen/ociprofile"
)

// fleetHosts is how many generated hosts BenchmarkPublishFleet publishes.
const fleetHosts = 1000

var publishedRE = regexp.MustCompile(`published (\d+) host\(s\) .*: \d+ blob\(s\) pushed \((\d+) bytes\), \d+ already there \(\d+ bytes\), \d+ manifest\(s\) \((\d+) bytes\)`)

// BenchmarkPublishFleet publishes 1,000 hosts of one role (fixtures'
// generated Kubernetes workers, which differ in their names, node
// addresses and a taint) to a docker-registry, and reports the bytes
// pushed (blobs and manifests) against what the same 1,000 profiles
// weigh as separate pushes (each profile's manifest and every file of
// it, as a per-host image with no shared layer, or a deploy that copies
// each host's files, would send); then the bytes a second publish pushes
// after one host changed.
//
//	go test -run '^$' -bench PublishFleet -benchtime 1x -timeout 30m ./e2e/pull/
func BenchmarkPublishFleet(b *testing.B) {
	bin, err := exec.LookPath("docker-registry")
	if err != nil {
		b.Skip("needs Debian's docker-registry")
	}
	dir := b.TempDir()
	hosts, err := fixtures.WriteFleet(filepath.Join(dir, "hosts"), fleetHosts)
	if err != nil {
		b.Fatal(err)
	}
	nodegen := buildNodegen(b)
	addr := freeAddr(b)
	os.MkdirAll(filepath.Join(dir, "registry"), 0o755)
	startRegistry(b, bin, filepath.Join(dir, "registry"), addr)
	key := newKey(b, dir, "key").priv

	publish := func(repo string) (pushed int64, took time.Duration) {
		start := time.Now()
		args := append([]string{"publish", "--registry", repo, "--plain-http", "--key", key, "--channel", "stable"}, hosts...)
		out, err := exec.Command(nodegen, args...).CombinedOutput()
		took = time.Since(start)
		if err != nil {
			b.Fatalf("nodegen publish: %v\n%s", err, out)
		}
		m := publishedRE.FindSubmatch(out)
		if m == nil || string(m[1]) != strconv.Itoa(fleetHosts) {
			b.Fatalf("nodegen publish printed no totals for %d hosts:\n%s", fleetHosts, out)
		}
		blobs, _ := strconv.ParseInt(string(m[2]), 10, 64)
		manifests, _ := strconv.ParseInt(string(m[3]), 10, 64)
		return blobs + manifests, took
	}

	for i := 0; i < b.N; i++ {
		repoName := fmt.Sprintf("%s/fleet%d", addr, i)
		pushed, took := publish(repoName)

		// What the same profiles weigh one by one.
		repo, err := remote.NewRepository(repoName)
		if err != nil {
			b.Fatal(err)
		}
		repo.PlainHTTP = true
		var separate int64
		ctx := context.Background()
		for n := 1; n <= fleetHosts; n++ {
			man, desc, err := ociprofile.FetchManifest(ctx, repo, fmt.Sprintf("worker-%04d_stable", n))
			if err != nil {
				b.Fatal(err)
			}
			separate += desc.Size + man.Config.Size
			for _, l := range man.Layers {
				separate += l.Size
			}
		}

		// One host changed: a second publish.
		changed, err := os.ReadFile(hosts[0])
		if err != nil {
			b.Fatal(err)
		}
		os.WriteFile(hosts[0], append(changed, []byte("\nconfig \"environment.etc.\\\"motd\\\"\" { text = \"changed\\n\" }\n")...), 0o644)
		again, tookAgain := publish(repoName)
		os.WriteFile(hosts[0], changed, 0o644)

		b.ReportMetric(float64(pushed), "bytes-pushed")
		b.ReportMetric(float64(separate), "bytes-separate")
		b.ReportMetric(float64(separate)/float64(pushed), "ratio")
		b.ReportMetric(float64(again), "bytes-republish-1-changed")
		b.Logf("MEASURE %d hosts of one role: nodegen publish pushed %d bytes in %.1f s; the same %d profiles as separate pushes %d bytes (%.0fx); a second publish with one host changed pushed %d bytes in %.1f s (blobs and manifests)",
			fleetHosts, pushed, took.Seconds(), fleetHosts, separate, float64(separate)/float64(pushed), again, tookAgain.Seconds())
	}
}
