// Package deploy installs evaluated profiles on many hosts over SSH, as
// nodegen deploy does: per host, one master connection with the system's
// OpenSSH client (so ~/.ssh/config, the agent, ProxyJump and security keys
// work), the nodegen binary and the profile copied when the host lacks
// them (by hash), the deployment keys written to their directory (nodegen
// receive --key there: PutKey, which never writes through a link), and
// `nodegen switch` with a per-attempt confirmation token. The switch arms
// a rollback timer on the host; the deployer confirms over a new
// connection and reads the active generation back. Nothing is kept on the
// deploying machine between runs: a rerun finds the host's state there.
//
// A host is not trusted: it names what it lacks only by hashes of the
// manifest the deployer evaluated (parseMissing), and what it prints is
// bounded and escaped before it reaches a terminal (untrusted.go).
//
// Hosts are chosen by Select, grouped in waves by Waves, and run by Run,
// which stops after a wave when the failures exceed the budget.
package deploy
