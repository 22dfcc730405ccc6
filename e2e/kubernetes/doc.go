// Package kubernetes tests the Kubernetes module library against the real
// Kubernetes 1.37 programs, end to end.
//
// TestSingleHost evaluates the k8s-single fixture with the test
// environment's overlay (testdata/nspawn.hcl), switches the profile with
// `nodegen switch` in a systemd-nspawn machine (internal/nspawntest), and
// waits, each step bounded, until the apiserver is ready, the node is
// Ready and a pod made from a locally imported image runs and has logs.
// TestTwoHosts does the same with a master (k8s-master) and a worker
// (k8s-worker) in two machines joined by a veth pair, and runs the pod on
// the worker.
// TestFlagsAccepted runs every Kubernetes program that a fixture's unit
// starts with the unit's command line and --version, so that the
// programs' own flag parsers check every flag the library generates.
//
// The programs are built from source once (scripts/build-k8s.sh, about 17
// minutes) and cached outside the repository; without them the tests
// skip and say why, and fail under CI (internal/suitereport), where
// .ci/run builds them. README.md says what the tests need, where the
// cache is and how to fill it (make e2e-kubernetes-build).
package kubernetes
