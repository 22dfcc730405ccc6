package ociprofile

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/opencontainers/go-digest"
	specs "github.com/opencontainers/image-spec/specs-go"
	ocispec "github.com/opencontainers/image-spec/specs-go/v1"
	"oras.land/oras-go/v2/errdef"
	"oras.land/oras-go/v2/registry"

	"github.com/nodegen/nodegen/profile"
)

// The media types of a profile's manifest.
const (
	ArtifactType    = "application/vnd.nodegen.profile.v1"
	ConfigMediaType = "application/vnd.nodegen.profile.manifest.v1+json"
	FileMediaType   = "application/vnd.nodegen.profile.file.v1"
)

// Repository is what publish and pull need of a registry's repository;
// *remote.Repository is one.
type Repository interface {
	registry.Repository
}

// HostProfile is one host's profile to publish: its name and the
// directory nodegen eval wrote.
type HostProfile struct {
	Host string
	Dir  string
}

// PublishOptions say how Publish signs.
type PublishOptions struct {
	// Channel is the channel whose tags are set.
	Channel string
	// Key signs each manifest.
	Key ed25519.PrivateKey
	// Serial is the serial of every manifest; 0 picks, per host, the
	// current Unix time or one more than the serial its tag has now,
	// whichever is greater.
	Serial uint64
	// Expires is when the manifests expire.
	Expires time.Time
	// Now is the clock (time.Now when nil).
	Now func() time.Time
}

// Published is what Publish did for one host.
type Published struct {
	Host   string
	Tag    string
	Serial uint64
	// Manifest is the digest of the host's OCI manifest.
	Manifest digest.Digest
}

// PublishStats counts what Publish sent.
type PublishStats struct {
	// Blobs and Bytes are the blobs (file contents and profile
	// manifests) pushed, and their bytes; Skipped and SkippedBytes those
	// the registry had already, or another host of the run pushed.
	Blobs, Skipped      int
	Bytes, SkippedBytes int64
	// Manifests counts the OCI manifests pushed, ManifestBytes their bytes.
	Manifests     int
	ManifestBytes int64
}

// Publish pushes each host's profile to repo and tags it HOST_CHANNEL:
// every distinct file content once, then the profile's manifest, then the
// host's signed OCI manifest. A serial lower than or equal to the one a
// host's tag has now is refused before that host's manifest is pushed.
func Publish(ctx context.Context, repo Repository, hosts []HostProfile, o PublishOptions) ([]Published, PublishStats, error) {
	var st PublishStats
	now := time.Now
	if o.Now != nil {
		now = o.Now
	}
	pushed := map[digest.Digest]bool{}
	push := func(desc ocispec.Descriptor, open func() ([]byte, error)) error {
		if pushed[desc.Digest] {
			st.Skipped++
			st.SkippedBytes += desc.Size
			return nil
		}
		ok, err := repo.Exists(ctx, desc)
		if err != nil {
			return err
		}
		if ok {
			st.Skipped++
			st.SkippedBytes += desc.Size
			pushed[desc.Digest] = true
			return nil
		}
		data, err := open()
		if err != nil {
			return err
		}
		if err := repo.Push(ctx, desc, bytes.NewReader(data)); err != nil && !errors.Is(err, errdef.ErrAlreadyExists) {
			return err
		}
		st.Blobs++
		st.Bytes += desc.Size
		pushed[desc.Digest] = true
		return nil
	}
	var out []Published
	for _, h := range hosts {
		tag, err := Tag(h.Host, o.Channel)
		if err != nil {
			return out, st, err
		}
		manifestJSON, err := os.ReadFile(filepath.Join(h.Dir, profile.ManifestName))
		if err != nil {
			return out, st, err
		}
		m, err := profile.ParseManifest(manifestJSON, filepath.Join(h.Dir, profile.ManifestName))
		if err != nil {
			return out, st, err
		}
		var layers []ocispec.Descriptor
		seen := map[string]bool{}
		for _, e := range m.Entries {
			if e.Type != profile.TypeFile || seen[e.SHA256] {
				continue
			}
			seen[e.SHA256] = true
			desc := ocispec.Descriptor{MediaType: FileMediaType, Digest: digest.NewDigestFromEncoded(digest.SHA256, e.SHA256), Size: *e.Size}
			p := filepath.Join(h.Dir, filepath.FromSlash(e.Path))
			if err := push(desc, func() ([]byte, error) { return readChecked(p, desc) }); err != nil {
				return out, st, fmt.Errorf("%s: pushing %s: %w", h.Host, e.Path, err)
			}
			layers = append(layers, desc)
		}
		slices.SortFunc(layers, func(a, b ocispec.Descriptor) int { return cmpString(string(a.Digest), string(b.Digest)) })
		config := ocispec.Descriptor{MediaType: ConfigMediaType, Digest: digest.FromBytes(manifestJSON), Size: int64(len(manifestJSON))}
		if err := push(config, func() ([]byte, error) { return manifestJSON, nil }); err != nil {
			return out, st, fmt.Errorf("%s: pushing its profile's manifest: %w", h.Host, err)
		}
		serial := o.Serial
		current, err := currentSerial(ctx, repo, tag)
		if err != nil {
			return out, st, fmt.Errorf("%s: reading the serial of %s: %w", h.Host, tag, err)
		}
		if serial == 0 {
			serial = max(uint64(now().Unix()), current+1)
		} else if serial <= current {
			return out, st, fmt.Errorf("%s: serial %d is not greater than %d, the one %s has now: hosts would refuse it", h.Host, serial, current, tag)
		}
		if len(layers) == 0 {
			layers = []ocispec.Descriptor{}
		}
		man := ocispec.Manifest{
			Versioned:    specs.Versioned{SchemaVersion: 2},
			MediaType:    ocispec.MediaTypeImageManifest,
			ArtifactType: ArtifactType,
			Config:       config,
			Layers:       layers,
			Annotations:  Sign(Statement{Host: h.Host, Serial: serial, Expires: o.Expires, Profile: config.Digest}, o.Key),
		}
		data, err := json.Marshal(man)
		if err != nil {
			return out, st, err
		}
		desc := ocispec.Descriptor{MediaType: ocispec.MediaTypeImageManifest, Digest: digest.FromBytes(data), Size: int64(len(data))}
		if err := repo.PushReference(ctx, desc, bytes.NewReader(data), tag); err != nil {
			return out, st, fmt.Errorf("%s: pushing its manifest as %s: %w", h.Host, tag, err)
		}
		st.Manifests++
		st.ManifestBytes += desc.Size
		out = append(out, Published{Host: h.Host, Tag: tag, Serial: serial, Manifest: desc.Digest})
	}
	return out, st, nil
}

// readChecked reads the file at p, which must have desc's content.
func readChecked(p string, desc ocispec.Descriptor) ([]byte, error) {
	data, err := os.ReadFile(p)
	if err != nil {
		return nil, err
	}
	if int64(len(data)) != desc.Size || digest.FromBytes(data) != desc.Digest {
		return nil, fmt.Errorf("%s is not the file its manifest lists (%s)", p, desc.Digest)
	}
	return data, nil
}

func cmpString(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// currentSerial returns the serial the manifest tagged tag has, 0 when
// the tag does not exist.
func currentSerial(ctx context.Context, repo Repository, tag string) (uint64, error) {
	man, _, err := FetchManifest(ctx, repo, tag)
	if errors.Is(err, errdef.ErrNotFound) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	s, err := ReadStatement(man.Annotations, man.Config.Digest)
	if err != nil {
		return 0, nil
	}
	return s.Serial, nil
}

// Promote tags the manifest that host's tag in channel from names with
// its tag in channel to, and returns it and its serial.
func Promote(ctx context.Context, repo Repository, host, from, to string) (Published, error) {
	src, err := Tag(host, from)
	if err != nil {
		return Published{}, err
	}
	dst, err := Tag(host, to)
	if err != nil {
		return Published{}, err
	}
	man, desc, err := FetchManifest(ctx, repo, src)
	if err != nil {
		return Published{}, fmt.Errorf("%s: %w", src, err)
	}
	s, err := ReadStatement(man.Annotations, man.Config.Digest)
	if err != nil {
		return Published{}, fmt.Errorf("%s: %w", src, err)
	}
	current, err := currentSerial(ctx, repo, dst)
	if err != nil {
		return Published{}, fmt.Errorf("%s: %w", dst, err)
	}
	if current > s.Serial {
		return Published{}, fmt.Errorf("%s has serial %d, greater than %d of %s: left alone (its hosts would refuse the older one)", dst, current, s.Serial, src)
	}
	if err := repo.Tag(ctx, desc, dst); err != nil {
		return Published{}, fmt.Errorf("tagging %s as %s: %w", src, dst, err)
	}
	return Published{Host: host, Tag: dst, Serial: s.Serial, Manifest: desc.Digest}, nil
}

// ChannelHosts returns the hosts that have a tag in channel, sorted.
func ChannelHosts(ctx context.Context, repo Repository, channel string) ([]string, error) {
	var hosts []string
	err := repo.Tags(ctx, "", func(tags []string) error {
		for _, t := range tags {
			if h, c, ok := SplitTag(t); ok && c == channel {
				hosts = append(hosts, h)
			}
		}
		return nil
	})
	slices.Sort(hosts)
	return hosts, err
}
