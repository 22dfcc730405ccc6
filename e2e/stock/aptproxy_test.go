//go:build linux

package stock

import (
	"os"
	"testing"

	"github.com/nodegen/nodegen/internal/aptproxy"
	"github.com/nodegen/nodegen/internal/nspawntest"
)

// aptProxyAddress is where the package proxy listens in the test network:
// the gateway's port 3142 (apt-cacher-ng's), as testdata/walkthrough's
// common.hcl gives it to environment.packageProxy.
const aptProxyAddress = "10.88.0.1:3142"

// aptCacheDir is where the package proxy keeps what it fetched:
// $NODEGEN_APT_CACHE, else /var/cache/nodegen-e2e/apt, so that later runs
// download nothing they had.
func aptCacheDir() string {
	if dir := os.Getenv("NODEGEN_APT_CACHE"); dir != "" {
		return dir
	}
	return "/var/cache/nodegen-e2e/apt"
}

// serveAptProxy starts the package proxy at aptProxyAddress in the
// network, until the test ends, caching in aptCacheDir.
func serveAptProxy(t *testing.T, network *nspawntest.Network, tl *timeline) *aptproxy.Proxy {
	t.Helper()
	p, err := aptproxy.New(aptCacheDir(), tl.note)
	if err != nil {
		t.Fatal(err)
	}
	stop := p.Serve(network.Listen(aptProxyAddress))
	t.Cleanup(func() {
		stop()
		tl.note("package proxy: " + p.Summary())
	})
	return p
}
