// Package pull tests nodegen publish, promote and pull end to end against
// a real OCI registry: the CNCF distribution registry (Debian's
// docker-registry). TestPublishPull starts it on a free loopback port,
// with hosts that pull into switch roots (nodegen pull --root), where the
// activation is planned and its files placed but no unit is acted on.
// TestPullMachines starts it at the gateway of a network of the test's
// own (internal/nspawntest), with three booted stock Debian machines on
// it that pull on their nodegen-pull.timer (services.nodegen.pull, a
// 4 s interval): a publish, a wave by promotion, the refusals (replay,
// unknown key, expiry, tampered blob), the registry stopped and back, and
// a health check that fails on one host, which goes back through the live
// rollback timer. Sibling of e2e/deploy, which pushes over SSH.
package pull
