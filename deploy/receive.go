package deploy

import (
	"archive/tar"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/nodegen/nodegen/profile"
)

// This file is the host's side of a profile's copy: the deployer sends
// the manifest first, the host answers with the hashes of the files it has
// no copy of (in the profiles it received before and in its generations),
// and the deployer sends only those (see missing.go). Receive then
// assembles the profile from what came and what the host had, checks
// every file's hash, and renames it into place.

// maxManifest bounds a manifest read from the deployer.
const maxManifest = 64 << 20

// ReadManifest reads a profile's manifest from r, as the deployer sends it,
// and checks it as profile.Read does.
func ReadManifest(r io.Reader) (profile.Manifest, error) {
	data, err := io.ReadAll(io.LimitReader(r, maxManifest+1))
	if err != nil {
		return profile.Manifest{}, err
	}
	if len(data) > maxManifest {
		return profile.Manifest{}, fmt.Errorf("the manifest is larger than %d bytes", maxManifest)
	}
	return profile.ParseManifest(data, "the manifest")
}

// Known indexes the files that the host has, by SHA-256: those of every
// profile directory below each of dirs (the profiles of earlier deploys,
// the generations), as their manifests list them.
func Known(dirs ...string) map[string]string {
	known := map[string]string{}
	for _, d := range dirs {
		entries, _ := os.ReadDir(d)
		for _, e := range entries {
			if !e.IsDir() || strings.HasPrefix(e.Name(), ".") || strings.Contains(e.Name(), ".tmp") {
				continue
			}
			dir := filepath.Join(d, e.Name())
			m, err := profile.Read(dir)
			if err != nil {
				continue
			}
			for _, me := range m.Entries {
				if me.Type == profile.TypeFile {
					if _, ok := known[me.SHA256]; !ok {
						known[me.SHA256] = filepath.Join(dir, filepath.FromSlash(me.Path))
					}
				}
			}
		}
	}
	return known
}

// Missing returns the SHA-256 hashes of m's files whose content known
// lacks, each once, in the manifest's order: the host's answer to the
// deployer, which sends one file of each.
func Missing(m profile.Manifest, known map[string]string) []string {
	var hashes []string
	seen := map[string]bool{}
	for _, e := range m.Entries {
		if e.Type == profile.TypeFile && !seen[e.SHA256] {
			seen[e.SHA256] = true
			if _, ok := known[e.SHA256]; !ok {
				hashes = append(hashes, e.SHA256)
			}
		}
	}
	return hashes
}

// Receive writes the profile to dir (which it replaces): the manifest and
// the files the deployer sent as a tar stream on r (one of each content
// the host lacks), the other files copied from known or from a file sent. Every file is checked against the manifest's hash and size
// before the profile is renamed into place, so dir is either the old
// profile or the complete new one.
func Receive(dir string, r io.Reader, known map[string]string) error {
	parent := filepath.Dir(dir)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(parent, "."+filepath.Base(dir)+".tmp-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	// The manifest comes first, and is checked before any of its paths
	// is used: each file sent must be one of its files.
	tr := tar.NewReader(r)
	hdr, err := tr.Next()
	if err != nil || hdr.Name != profile.ManifestName || hdr.Typeflag != tar.TypeReg {
		return fmt.Errorf("the profile's stream does not begin with its %s (%v)", profile.ManifestName, err)
	}
	manifestPath := filepath.Join(tmp, profile.ManifestName)
	if err := writeFrom(manifestPath, io.LimitReader(tr, maxManifest), 0o600); err != nil {
		return err
	}
	m, err := profile.Read(tmp)
	if err != nil {
		return err
	}
	files := map[string]bool{}
	for _, e := range m.Entries {
		if e.Type == profile.TypeFile {
			files[e.Path] = true
		}
	}
	sent := map[string]bool{}
	for {
		hdr, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return fmt.Errorf("reading the profile: %w", err)
		}
		if hdr.Typeflag != tar.TypeReg || !files[hdr.Name] || sent[hdr.Name] {
			return fmt.Errorf("the profile's stream has %q, which is not one of its manifest's files (or is sent twice)", hdr.Name)
		}
		if err := writeFrom(filepath.Join(tmp, filepath.FromSlash(hdr.Name)), tr, 0o600); err != nil {
			return err
		}
		sent[hdr.Name] = true
	}
	// A file sent is the copy of the other files with its content; it is
	// checked below, before any of them is used.
	have := maps.Clone(known)
	for _, e := range m.Entries {
		if sent[e.Path] {
			have[e.SHA256] = filepath.Join(tmp, filepath.FromSlash(e.Path))
		}
	}
	for _, e := range m.Entries {
		p := filepath.Join(tmp, filepath.FromSlash(e.Path))
		switch e.Type {
		case profile.TypeSymlink:
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				return err
			}
			if err := os.Symlink(e.Target, p); err != nil {
				return err
			}
			continue
		case profile.TypeFile:
		default:
			return fmt.Errorf("%s: unknown type %q", e.Path, e.Type)
		}
		if !sent[e.Path] {
			src, ok := have[e.SHA256]
			if !ok {
				return fmt.Errorf("%s was neither sent nor found on this host", e.Path)
			}
			f, err := os.Open(src)
			if err != nil {
				return err
			}
			err = writeFrom(p, f, 0o600)
			f.Close()
			if err != nil {
				return err
			}
		}
		if err := checkFile(p, e); err != nil {
			return err
		}
		mode, err := strconv.ParseUint(e.Mode, 8, 32)
		if err != nil {
			return fmt.Errorf("%s: mode %q", e.Path, e.Mode)
		}
		if err := os.Chmod(p, os.FileMode(mode).Perm()); err != nil {
			return err
		}
	}
	if err := os.Chmod(manifestPath, m.DescriptionMode()); err != nil {
		return err
	}
	if err := os.Chmod(tmp, 0o755); err != nil {
		return err
	}
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	return os.Rename(tmp, dir)
}

// writeFrom creates p (and its directories) with what r holds, synced.
func writeFrom(p string, r io.Reader, mode os.FileMode) error {
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, mode)
	if err != nil {
		return err
	}
	if _, err := io.Copy(f, r); err != nil {
		f.Close()
		return err
	}
	if err := f.Chmod(mode); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// checkFile checks that the file at p has e's size and hash.
func checkFile(p string, e profile.ManifestEntry) error {
	f, err := os.Open(p)
	if err != nil {
		return err
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, f)
	if err != nil {
		return err
	}
	if got := hex.EncodeToString(h.Sum(nil)); got != e.SHA256 || e.Size == nil || n != *e.Size {
		return fmt.Errorf("%s: the content is not the manifest's (sha256 %s, %d bytes)", e.Path, got, n)
	}
	return nil
}

// tarFiles writes a tar stream of the profile in dir: its manifest (the
// bytes of manifest) and the files of entries, each of exactly the size its
// entry says.
func tarFiles(w io.Writer, dir string, manifest []byte, entries []profile.ManifestEntry) error {
	tw := tar.NewWriter(w)
	hdr := &tar.Header{Name: profile.ManifestName, Typeflag: tar.TypeReg, Mode: 0o600, Size: int64(len(manifest))}
	if err := tw.WriteHeader(hdr); err != nil {
		return err
	}
	if _, err := tw.Write(manifest); err != nil {
		return err
	}
	for _, e := range entries {
		if e.Type != profile.TypeFile || e.Size == nil {
			return fmt.Errorf("%s is not a file of the manifest", e.Path)
		}
		if err := tarFile(tw, filepath.Join(dir, filepath.FromSlash(e.Path)), e.Path, *e.Size); err != nil {
			return err
		}
	}
	return tw.Close()
}

// tarFile writes the file at p to tw as name, which must be a regular file
// of size bytes.
func tarFile(tw *tar.Writer, p, name string, size int64) error {
	f, err := os.Open(p)
	if err != nil {
		return err
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil {
		return err
	} else if !fi.Mode().IsRegular() || fi.Size() != size {
		return fmt.Errorf("%s is not the manifest's file (a regular file of %d bytes)", p, size)
	}
	if err := tw.WriteHeader(&tar.Header{Name: name, Typeflag: tar.TypeReg, Mode: 0o600, Size: size}); err != nil {
		return err
	}
	_, err = io.CopyN(tw, f, size)
	return err
}
