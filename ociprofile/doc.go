// Package ociprofile ships nodegen profiles through an OCI registry, for
// hosts that pull (nodegen publish, promote and pull).
//
// A host's profile is one OCI image manifest (artifactType
// ArtifactType) in the fleet's repository:
//
//	config   the profile's nodegen-profile.json (ConfigMediaType)
//	layers   one blob per distinct file content (FileMediaType), its
//	         digest the sha256 the profile's manifest lists, so a file
//	         that many hosts share is one blob, pushed once
//	annotations
//	         org.nodegen.host, .serial, .expires, .signature.key,
//	         .signature: a signed Statement (see sign.go)
//
// A channel is a tag per host, HOST_CHANNEL (see Tag): promoting a host
// from one channel to the next is tagging the manifest its first tag
// names with the second, the signature unchanged.
//
// The signature covers the host's name, the serial, the expiry and the
// digest of the config blob, which lists every file's sha256: a host
// verifies it with a public key alone (Verify), and then each blob it
// fetches against the profile's manifest (deploy.Receive does). Nothing
// the registry says is trusted before that.
//
// Siblings: package profile reads and checks the profile manifests,
// package deploy assembles a profile from the contents a host lacks
// (Missing, Receive), package activate switches to it.
package ociprofile
