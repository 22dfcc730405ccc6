//go:build linux

package stock

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nodegen/nodegen/internal/nspawntest"
	"github.com/nodegen/nodegen/internal/suitereport"
)

// TestPackagesThroughProxy deploys, onto a stock machine (the stock root
// of TestStockCluster), a host whose profile lists Debian packages the
// machine lacks, with the test network's package proxy as
// environment.packageProxy: nodegen switch (run by nodegen deploy)
// updates apt's lists and installs them through the proxy, and a second
// deploy that adds a package installs that one without another update.
// It needs no Kubernetes binaries.
func TestPackagesThroughProxy(t *testing.T) {
	requireTools(t)
	tl := newTimeline(t)
	network := nspawntest.NewNetwork(t, "10.88.0.1/24")
	proxy := serveAptProxy(t, network, tl)
	d := newDeployer(t, tl, network)
	suitereport.Ran(t, suite)
	root := stockRoot()
	nspawntest.RootOf(t, root)
	tl.mark("stock root ready")

	const address = "10.88.0.12"
	write := func(packages ...string) {
		t.Helper()
		text := fmt.Sprintf(`# A host of nothing but packages, through the network's package proxy.
config "deployment" {
  targetHost = %q
  sshOptions = ["-F", %q]
}

config "networking" {
  hostName = "pkghost"
}

config "environment" {
  packageProxy   = "http://%s"
  systemPackages = [%s]
}
`, address, d.sshCfg, aptProxyAddress, `"`+strings.Join(packages, `", "`)+`"`)
		if err := os.MkdirAll(filepath.Join(d.dir, "pkg"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(d.dir, "pkg", "pkghost.hcl"), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	first := []string{"curl", "etcd-server"}
	m := bootHost(t, tl, d, root, "pkghost", address)
	m.requireStock(append(first, "jq"), append(first, "jq"))

	write(first...)
	r := d.ng("deploy", "--json", "pkg/pkghost.hcl")
	tl.mark(fmt.Sprintf("first deploy: exit %d in %s", r.code, r.took.Round(100*time.Millisecond)))
	if r.code != 0 {
		t.Fatalf("nodegen deploy pkg/pkghost.hcl: exit %d, want 0:\n%s", r.code, hostOutputs(r.stdout))
	}
	if n := proxy.ReleaseRequests(); n == 0 {
		t.Errorf("the first deploy's switch did not update apt's lists (no InRelease through the proxy): %s", proxy.Summary())
	}
	m.requireInstalledBySwitch()
	for _, p := range first {
		if out, _, _, _ := m.Run("dpkg-query", "-W", "-f=${db:Status-Abbrev}", p); !strings.HasPrefix(out, "ii") {
			t.Errorf("package %s is not installed after the deploy (dpkg-query: %q)", p, out)
		}
	}
	if out, _, code, _ := m.Run("curl", "--version"); code != 0 || !strings.HasPrefix(out, "curl ") {
		t.Errorf("curl --version on the machine: exit %d: %s", code, out)
	}
	tl.mark("package proxy so far: " + proxy.Summary())
	releases := proxy.ReleaseRequests()

	// One more package: installed, the lists being fresh, without an
	// update.
	write(append(first, "jq")...)
	r = d.ng("deploy", "--json", "pkg/pkghost.hcl")
	tl.mark(fmt.Sprintf("deploy with jq added: exit %d in %s", r.code, r.took.Round(100*time.Millisecond)))
	if r.code != 0 {
		t.Fatalf("nodegen deploy pkg/pkghost.hcl with jq: exit %d, want 0:\n%s", r.code, hostOutputs(r.stdout))
	}
	if n := proxy.ReleaseRequests(); n != releases {
		t.Errorf("the second deploy updated apt's lists again, a minute after the first (%d InRelease requests, %d before)", n, releases)
	}
	log, _, _, _ := m.Run("cat", "/var/log/apt/history.log")
	runs := aptHistory(log)
	if len(runs) != 2 || strings.Join(runs[1].names, " ") != "jq" {
		t.Errorf("apt's history.log: nodegen's installs %+v, want two, the second of jq alone", runs)
	}
	m.requireInstalledBySwitch()
}
