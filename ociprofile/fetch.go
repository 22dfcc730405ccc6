package ociprofile

import (
	"context"
	"encoding/json"
	"fmt"
	"io"

	ocispec "github.com/opencontainers/image-spec/specs-go/v1"
	"oras.land/oras-go/v2/content"
)

// maxManifest bounds an OCI manifest read from a registry, and
// maxProfileManifest a profile's manifest (the config blob).
const (
	maxManifest        = 4 << 20
	maxProfileManifest = 64 << 20
)

// FetchManifest fetches and parses the OCI manifest tagged tag, which must
// be a nodegen profile's.
func FetchManifest(ctx context.Context, repo Repository, tag string) (ocispec.Manifest, ocispec.Descriptor, error) {
	var man ocispec.Manifest
	desc, rc, err := repo.FetchReference(ctx, tag)
	if err != nil {
		return man, desc, err
	}
	defer rc.Close()
	if desc.Size > maxManifest {
		return man, desc, fmt.Errorf("its manifest has %d bytes, more than %d", desc.Size, maxManifest)
	}
	data, err := content.ReadAll(io.LimitReader(rc, maxManifest), desc)
	if err != nil {
		return man, desc, err
	}
	if err := json.Unmarshal(data, &man); err != nil {
		return man, desc, fmt.Errorf("its manifest: %w", err)
	}
	if man.ArtifactType != ArtifactType || man.Config.MediaType != ConfigMediaType {
		return man, desc, fmt.Errorf("%s is not a nodegen profile (artifactType %q, config %q)", desc.Digest, man.ArtifactType, man.Config.MediaType)
	}
	return man, desc, nil
}

// FetchBlob fetches the blob desc, checked against its digest and size.
func FetchBlob(ctx context.Context, repo Repository, desc ocispec.Descriptor) (io.ReadCloser, error) {
	rc, err := repo.Blobs().Fetch(ctx, desc)
	if err != nil {
		return nil, err
	}
	return verifying{content.NewVerifyReader(rc, desc), rc}, nil
}

// FetchProfileManifest fetches the profile's manifest, the config blob of
// man, checked against its digest.
func FetchProfileManifest(ctx context.Context, repo Repository, man ocispec.Manifest) ([]byte, error) {
	if man.Config.Size > maxProfileManifest {
		return nil, fmt.Errorf("its profile's manifest has %d bytes, more than %d", man.Config.Size, maxProfileManifest)
	}
	return content.FetchAll(ctx, repo.Blobs(), man.Config)
}

// verifying reads a blob and fails at its end unless it had its digest.
type verifying struct {
	vr *content.VerifyReader
	io.Closer
}

func (v verifying) Read(p []byte) (int, error) {
	n, err := v.vr.Read(p)
	if err == io.EOF {
		if verr := v.vr.Verify(); verr != nil {
			return n, verr
		}
	}
	return n, err
}
