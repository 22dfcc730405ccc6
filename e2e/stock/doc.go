// Package stock is the operator's end-to-end test of nodegen: a
// Kubernetes control-plane host and a worker brought up from stock Debian
// machines by nodegen deploy alone, from the host files that
// docs/kubernetes.md's walk-through "A cluster on stock machines" shows
// (testdata/walkthrough; TestWalkthroughFiles checks that the document
// shows them as they are).
//
// TestStockCluster boots two machines in systemd-nspawn
// (internal/nspawntest) from a Debian root as debootstrap installs it,
// with OpenSSH's server and Debian's containerd package, as a provider's
// image, and changes nothing in them: it only does what a cloud provider
// does, a network of the test's own (nspawntest.Network) with a package
// proxy, and an SSH key for root. On that network, a Go HTTP server is the
// mirror of dl.k8s.io the hosts download the Kubernetes release from
// (tarballs the test makes from the binaries built from source, laid out
// as the release's), another is a caching forward proxy to Debian's
// archive (internal/aptproxy), through which nodegen switch installs the packages
// the profiles list (environment.packageProxy), and the deployer runs
// nodegen lock, nodegen deploy and ssh there, as the walk-through says.
// It checks that both nodes become Ready and a pod runs on the worker,
// that a change of the kubelet's settings restarts the kubelet and
// nothing else, that an unchanged fleet's deploy is a no-op, and that a
// setting the kubelet refuses rolls the worker back by itself; it logs a
// timeline of its steps.
//
// README.md says what the test needs; without the Kubernetes binaries or
// nspawn it skips, and fails where CI is set.
package stock
