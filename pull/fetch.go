package pull

import (
	"archive/tar"
	"context"
	"crypto/ed25519"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"time"

	"github.com/opencontainers/go-digest"
	ocispec "github.com/opencontainers/image-spec/specs-go/v1"
	"oras.land/oras-go/v2/content"
	"oras.land/oras-go/v2/errdef"

	"github.com/nodegen/nodegen/activate"
	"github.com/nodegen/nodegen/deploy"
	"github.com/nodegen/nodegen/ociprofile"
	"github.com/nodegen/nodegen/profile"
)

// Code says why a pull stopped; cmd/nodegen maps each to an exit code.
type Code int

// The codes of a pull's errors.
const (
	// Unreachable: the registry did not answer, or has no such tag; the
	// host keeps what it runs.
	Unreachable Code = iota + 1
	// Untrusted: the manifest's signature is missing, by an unknown key or
	// wrong; it names another host; or a blob is not what the signed
	// profile lists.
	Untrusted
	// Replayed: the serial is not greater than the one the host applied.
	Replayed
	// Expired: the manifest's expiry is past.
	Expired
	// Invalid: the profile's manifest is not a valid one, or the host
	// could not write it (its lock held, a full disk).
	Invalid
)

// Error is a pull that stopped before the switch: Ref names the manifest
// (REGISTRY:TAG, and its digest when known).
type Error struct {
	Code Code
	Ref  string
	Err  error
}

func (e *Error) Error() string { return e.Ref + ": " + e.Err.Error() }

func (e *Error) Unwrap() error { return e.Err }

// Request is one pull.
type Request struct {
	// Root is the host's root ("/").
	Root string
	// Repo is the fleet's repository, Registry its name for messages.
	Repo     ociprofile.Repository
	Registry string
	Host     string
	Channel  string
	// Keys are the keys the running generation trusts.
	Keys []ed25519.PublicKey
	// State is the host's pull state before this pull.
	State State
	// Now is the time the expiry is compared with.
	Now time.Time
}

// Fetched is a profile a pull fetched and verified.
type Fetched struct {
	Tag       string
	Manifest  digest.Digest
	Statement ociprofile.Statement
	// UpToDate is set when the manifest is the one the host applied last:
	// nothing was fetched, Dir is "".
	UpToDate bool
	// Dir is the profile, assembled below deploy.ReceivedDir.
	Dir string
	// Blobs and Bytes count the file contents fetched (those the host
	// lacked).
	Blobs int
	Bytes int64
}

// Fetch fetches the host's manifest for its channel, verifies it and,
// unless the host applied it already, fetches the contents the host lacks
// and assembles the profile. Its errors are *Error.
func Fetch(ctx context.Context, r Request) (*Fetched, error) {
	tag, err := ociprofile.Tag(r.Host, r.Channel)
	if err != nil {
		return nil, &Error{Code: Invalid, Ref: r.Registry, Err: err}
	}
	ref := r.Registry + ":" + tag
	fail := func(code Code, err error) (*Fetched, error) { return nil, &Error{Code: code, Ref: ref, Err: err} }
	man, desc, err := ociprofile.FetchManifest(ctx, r.Repo, tag)
	if errors.Is(err, errdef.ErrNotFound) {
		return fail(Unreachable, fmt.Errorf("the registry has no manifest tagged %s (not published for this host and channel, or not promoted yet)", tag))
	}
	if err != nil {
		return fail(Unreachable, err)
	}
	ref += "@" + string(desc.Digest)
	if len(r.Keys) == 0 {
		return fail(Untrusted, errors.New("no key is trusted here: the running generation sets no services.nodegen.pull.trustedKeys, and none was given with --trusted-key"))
	}
	st, err := ociprofile.Verify(man.Annotations, man.Config.Digest, r.Keys)
	if err != nil {
		return fail(Untrusted, err)
	}
	if st.Host != r.Host {
		return fail(Untrusted, fmt.Errorf("the manifest is signed for host %q, not this host (%q)", st.Host, r.Host))
	}
	f := &Fetched{Tag: tag, Manifest: desc.Digest, Statement: st}
	if !r.Now.Before(st.Expires) {
		return fail(Expired, fmt.Errorf("the manifest (serial %d) expired at %s: refused; publish it again", st.Serial, st.Expires.UTC().Format(time.RFC3339)))
	}
	if st.Serial == r.State.Serial && string(desc.Digest) == r.State.Manifest {
		f.UpToDate = true
		return f, nil
	}
	if st.Serial <= r.State.Serial {
		return fail(Replayed, fmt.Errorf("serial %d is not greater than %d, the highest this host applied (%s): refused (an older or replayed manifest)", st.Serial, r.State.Serial, r.State.Outcome))
	}
	data, err := ociprofile.FetchProfileManifest(ctx, r.Repo, man)
	if err != nil {
		code := Unreachable
		if errors.Is(err, content.ErrMismatchedDigest) || errors.Is(err, content.ErrTrailingData) {
			code = Untrusted
		}
		return fail(code, fmt.Errorf("the profile's manifest %s: %w", man.Config.Digest, err))
	}
	m, err := profile.ParseManifest(data, "the profile's manifest "+string(man.Config.Digest))
	if err != nil {
		return fail(Invalid, err)
	}

	stateDir := filepath.Join(r.Root, "var/lib/nodegen")
	release, err := activate.LockState(stateDir)
	if err != nil {
		return fail(Invalid, err)
	}
	defer release()
	received := deploy.ReceivedDir(r.Root)
	if _, err := deploy.CleanReceived(received); err != nil {
		return fail(Invalid, err)
	}
	known := deploy.Known(received, filepath.Join(stateDir, "generations"))
	missing, _ := deploy.Missing(m, known)
	byHash := map[string]profile.ManifestEntry{}
	for _, e := range m.Entries {
		if e.Type == profile.TypeFile {
			if _, ok := byHash[e.SHA256]; !ok {
				byHash[e.SHA256] = e
			}
		}
	}
	f.Dir = filepath.Join(received, deploy.ReceivedName(man.Config.Digest.Encoded()))
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() {
		var blobErr error
		tw := tar.NewWriter(pw)
		err := func() error {
			if err := tw.WriteHeader(&tar.Header{Name: profile.ManifestName, Typeflag: tar.TypeReg, Mode: 0o600, Size: int64(len(data))}); err != nil {
				return err
			}
			if _, err := tw.Write(data); err != nil {
				return err
			}
			for _, h := range missing {
				e := byHash[h]
				d := ocispec.Descriptor{MediaType: ociprofile.FileMediaType, Digest: digest.NewDigestFromEncoded(digest.SHA256, h), Size: *e.Size}
				rc, err := ociprofile.FetchBlob(ctx, r.Repo, d)
				if err != nil {
					blobErr = fmt.Errorf("the blob of %s (%s): %w", e.Path, d.Digest, err)
					return blobErr
				}
				err = tw.WriteHeader(&tar.Header{Name: e.Path, Typeflag: tar.TypeReg, Mode: 0o600, Size: *e.Size})
				if err == nil {
					_, err = io.CopyN(tw, rc, *e.Size)
					if err == nil {
						// The end of the blob checks its digest.
						_, err = io.Copy(io.Discard, rc)
					}
				}
				rc.Close()
				if err != nil {
					blobErr = fmt.Errorf("the blob of %s (%s): %w", e.Path, d.Digest, err)
					return blobErr
				}
				f.Blobs++
				f.Bytes += *e.Size
			}
			return tw.Close()
		}()
		pw.CloseWithError(err)
		done <- blobErr
	}()
	_, _, err = deploy.Receive(f.Dir, pr, known)
	pr.CloseWithError(errors.New("the receive ended"))
	blobErr := <-done
	switch {
	case blobErr != nil && (errors.Is(blobErr, content.ErrMismatchedDigest) || errors.Is(blobErr, content.ErrTrailingData)):
		return fail(Untrusted, blobErr)
	case blobErr != nil:
		return fail(Unreachable, blobErr)
	case err != nil:
		return fail(Untrusted, err)
	}
	return f, nil
}
