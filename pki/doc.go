// Package pki keeps a host's certificates issued by a cfssl CA: the job
// that certmgr did for NixOS's easyCerts, done by nodegen itself
// ("nodegen pki fetch", run by the kube-certs.service unit that
// modules/services/cluster/kubernetes/pki.hcl writes).
//
// Each certificate is described by a Spec, a JSON file the module library
// writes to /etc (one per certificate). Fetcher.Run reads the files a spec
// names and decides, for each, whether its certificate is still good: it
// parses, matches its private key, chains to the CA, has the subject and
// names the spec asks for, and is not in the last third of its validity.
// Otherwise it makes a new private key and a certificate signing request,
// has the CA sign it through cfssl's authenticated signing endpoint
// (/api/v1/cfssl/authsign, with the HMAC-SHA256 token of cfssl's "standard"
// auth provider), checks what comes back and writes key and certificate
// atomically, with their owner and mode. The certificate file holds the
// certificate that was checked, in canonical PEM, and nothing else the
// CA sent; a redirect is followed only to the CA's own scheme, host and
// port, so the token never goes elsewhere. A spec's action (a shell command,
// such as restarting the service that reads the files) runs once files
// changed.
//
// The CA certificate is read from the spec's CA file; when that file is
// missing and the spec trusts on bootstrap, it is fetched from cfssl's
// /api/v1/cfssl/info endpoint (the one request made without verifying the
// server, as NixOS's pkiTrustOnBootstrap), and kept only if it signed the
// server's own TLS certificate.
//
// The sibling packages are activate (which installs the profile whose
// units run this) and the command line in cmd/nodegen.
package pki
