// Package pull tests nodegen publish, promote and pull end to end against
// a real OCI registry: the CNCF distribution registry (Debian's
// docker-registry), started by the test on a free loopback port, and
// hosts that pull into switch roots (nodegen pull --root), where the
// activation is planned and its files placed but no unit is acted on.
// Sibling of e2e/deploy, which pushes over SSH.
package pull
