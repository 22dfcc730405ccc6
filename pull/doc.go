// Package pull is the host's side of nodegen pull: it reads the pull
// configuration of the running generation (Config, written by the
// library's services.nodegen.pull), fetches the host's manifest for its
// channel from the registry (package ociprofile), verifies it against the
// keys that generation trusts, refuses a serial not greater than the
// highest one the host applied and an expired manifest, fetches the file
// contents the host lacks and assembles the profile (deploy.Receive). The
// switch itself, with its confirmation timer, is cmd/nodegen's, as for
// nodegen switch; the health checks that confirm it run here
// (RunHealthChecks). What happened is kept in State, which nodegen status
// shows.
package pull
