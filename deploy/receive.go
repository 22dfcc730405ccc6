package deploy

import (
	"archive/tar"
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"

	"github.com/nodegen/nodegen/internal/filekind"
	"github.com/nodegen/nodegen/profile"
)

// This file is the host's side of a profile's copy: the deployer sends
// the manifest first, the host answers with the hashes of the files it has
// no intact copy of (in the profiles it received before and in its
// generations), and the deployer sends only those (see missing.go).
// Receive then checks the manifest by the rules of every reader of a
// profile (profile.ParseManifest) before it writes anything, assembles
// the profile from what came and what the host had, checks every file's
// hash, and renames it into place. Everything is written through an
// os.Root of the directory of received profiles: no link is followed out
// of it, and the manifest's own symbolic links are only ever made, never
// walked through. A file of a profile received before is shared with it
// (a hard link) when it has the same content and mode, after its content
// is checked; a damaged copy is never used, is named, and is replaced.

// maxManifest bounds a manifest read from the deployer.
const maxManifest = 64 << 20

// ReadManifest reads a profile's manifest from r, as the deployer sends it,
// and checks it as profile.Read does.
func ReadManifest(r io.Reader) (profile.Manifest, error) {
	data, err := readManifest(r)
	if err != nil {
		return profile.Manifest{}, err
	}
	return profile.ParseManifest(data, "the manifest")
}

func readManifest(r io.Reader) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, maxManifest+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxManifest {
		return nil, fmt.Errorf("the manifest is larger than %d bytes", maxManifest)
	}
	return data, nil
}

// Copy is one of the host's copies of a content: a file of a profile.
type Copy struct {
	// Path is the file's path.
	Path string
	// Received is set for a file of a received profile (in the directory
	// that Receive writes in), which a new profile may share; a
	// generation's file is only read.
	Received bool
}

// Copies indexes the host's copies of contents by SHA-256, each with
// every file that a manifest says has it, in the order Known found them.
// A copy is a candidate: its content is checked before it counts.
type Copies map[string][]Copy

// Known indexes the files that the host has: those of every profile
// received below received (the profiles of earlier deploys) and of every
// generation below generations, as their manifests list them.
func Known(received, generations string) Copies {
	known := Copies{}
	for _, d := range []struct {
		dir      string
		received bool
	}{{received, true}, {generations, false}} {
		entries, _ := os.ReadDir(d.dir)
		for _, e := range entries {
			if !e.IsDir() || strings.HasPrefix(e.Name(), ".") {
				continue
			}
			dir := filepath.Join(d.dir, e.Name())
			m, err := profile.Read(dir)
			if err != nil {
				continue
			}
			for _, me := range m.Entries {
				if me.Type == profile.TypeFile {
					known[me.SHA256] = append(known[me.SHA256], Copy{Path: filepath.Join(dir, filepath.FromSlash(me.Path)), Received: d.received})
				}
			}
		}
	}
	return known
}

// Missing returns the SHA-256 hashes of m's files of which known has no
// intact copy, each once, in the manifest's order: the host's answer to
// the deployer, which sends one file of each. Each copy is hashed before
// it counts; damaged names the copies whose content is not their
// manifest's, which are never used.
func Missing(m profile.Manifest, known Copies) (hashes, damaged []string) {
	seen := map[string]bool{}
	for _, e := range m.Entries {
		if e.Type != profile.TypeFile || seen[e.SHA256] {
			continue
		}
		seen[e.SHA256] = true
		found := false
		for _, c := range known[e.SHA256] {
			if intact(c.Path, e) {
				found = true
				break
			}
			damaged = append(damaged, c.Path)
		}
		if !found {
			hashes = append(hashes, e.SHA256)
		}
	}
	return hashes, damaged
}

// intact reports whether the file at p (not a link) has e's content.
func intact(p string, e profile.ManifestEntry) bool {
	f, err := os.OpenFile(p, os.O_RDONLY|syscall.O_NOFOLLOW, 0)
	if err != nil {
		return false
	}
	defer f.Close()
	return checkContent(f, e) == nil
}

// tmpInfix marks the temporary directories of Receive beside the profile
// it writes: .NAME.tmp-RANDOM. Only a Receive that holds the host's lock
// writes one (see activate.LockState), so one that a command holding the lock finds
// is a leftover of a receive that was cut, and CleanReceived removes it.
const tmpInfix = ".tmp-"

// Receive writes the profile to dir (which it replaces): the manifest and
// the files the deployer sent as a tar stream on r (one of each content
// the host lacks), the other files shared with or copied from the intact
// copies of known, or from a file sent. The manifest is checked, by the
// rules of every reader of a profile, before anything is written. Every
// file is checked against the manifest's hash and size before the
// profile is renamed into place, so dir is either the old profile or the
// complete new one. It returns the copies of known it found damaged
// (their content not their manifest's), which were not used, and of
// those the ones of received profiles that it replaced with an intact
// copy.
func Receive(dir string, r io.Reader, known Copies) (damaged, replaced []string, err error) {
	// The manifest comes first, and is checked before anything is
	// written: each file sent must then be one of its files.
	tr := tar.NewReader(r)
	hdr, err := tr.Next()
	if err != nil || hdr.Name != profile.ManifestName || hdr.Typeflag != tar.TypeReg {
		return nil, nil, fmt.Errorf("the profile's stream does not begin with its %s (%v)", profile.ManifestName, err)
	}
	manifest, err := readManifest(tr)
	if err != nil {
		return nil, nil, err
	}
	m, err := profile.ParseManifest(manifest, "the manifest")
	if err != nil {
		return nil, nil, err
	}
	byPath := map[string]profile.ManifestEntry{}
	for _, e := range m.Entries {
		byPath[e.Path] = e
	}

	parent, base := filepath.Dir(dir), filepath.Base(dir)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return nil, nil, err
	}
	root, err := os.OpenRoot(parent)
	if err != nil {
		return nil, nil, err
	}
	defer root.Close()
	tmp := "." + base + tmpInfix + randomName()
	if err := root.Mkdir(tmp, 0o700); err != nil {
		return nil, nil, err
	}
	done := false
	defer func() {
		if !done {
			root.RemoveAll(tmp)
		}
	}()
	in := func(p string) string { return path.Join(tmp, p) }
	if err := create(root, in(profile.ManifestName), bytes.NewReader(manifest)); err != nil {
		return nil, nil, err
	}

	sent := map[string]bool{}
	for {
		hdr, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, nil, fmt.Errorf("reading the profile: %w", err)
		}
		e, ok := byPath[hdr.Name]
		if hdr.Typeflag != tar.TypeReg || !ok || e.Type != profile.TypeFile || sent[hdr.Name] {
			return nil, nil, fmt.Errorf("the profile's stream has %s, which is not one of its manifest's files (or is sent twice)", quoteShort(hdr.Name))
		}
		if hdr.Size != *e.Size {
			return nil, nil, fmt.Errorf("%s: the stream has %d bytes of it, the manifest says %d", e.Path, hdr.Size, *e.Size)
		}
		if err := create(root, in(e.Path), tr); err != nil {
			return nil, nil, err
		}
		if err := checkIn(root, in(e.Path), e); err != nil {
			return nil, nil, err
		}
		sent[e.Path] = true
	}

	// A file sent is a copy of the other files with its content.
	local := map[string]string{}
	for _, e := range m.Entries {
		if sent[e.Path] {
			local[e.SHA256] = e.Path
		}
	}
	for _, e := range m.Entries {
		p := in(e.Path)
		if e.Type == profile.TypeSymlink {
			if err := root.MkdirAll(path.Dir(p), 0o755); err != nil {
				return nil, nil, err
			}
			if err := root.Symlink(e.Target, p); err != nil {
				return nil, nil, err
			}
			continue
		}
		mode, err := strconv.ParseUint(e.Mode, 8, 32)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: mode %q", e.Path, e.Mode)
		}
		perm := os.FileMode(mode).Perm()
		if !sent[e.Path] {
			var cands []Copy
			if lp, ok := local[e.SHA256]; ok {
				cands = append(cands, Copy{Path: filepath.Join(dir, filepath.FromSlash(lp)), Received: true})
			}
			cands = append(cands, known[e.SHA256]...)
			found := false
			for _, c := range cands {
				rel, shared := "", false
				if lp, ok := local[e.SHA256]; ok && c.Path == filepath.Join(dir, filepath.FromSlash(lp)) {
					rel, shared = in(lp), true
				} else if c.Received {
					rel, shared = receivedPath(parent, c.Path)
				}
				if err := reuse(root, p, c.Path, rel, shared, perm); err != nil {
					continue
				}
				if checkIn(root, p, e) == nil {
					found = true
					break
				}
				root.Remove(p)
				if !slices.Contains(damaged, c.Path) {
					damaged = append(damaged, c.Path)
				}
			}
			if !found {
				return damaged, nil, fmt.Errorf("%s was neither sent nor found intact on this host", e.Path)
			}
			local[e.SHA256] = e.Path
		}
		if err := root.Chmod(p, perm); err != nil {
			return damaged, nil, err
		}
	}
	if err := root.Chmod(in(profile.ManifestName), m.DescriptionMode()); err != nil {
		return damaged, nil, err
	}
	if err := root.Chmod(tmp, 0o755); err != nil {
		return damaged, nil, err
	}
	if err := syncTree(root, tmp); err != nil {
		return damaged, nil, err
	}
	// The old profile, if any, goes aside under a temporary name first,
	// so that a crash leaves it to be cleaned, never half removed at dir.
	old := "." + base + tmpInfix + "old-" + randomName()
	hadOld := root.Rename(base, old) == nil
	if err := root.Rename(tmp, base); err != nil {
		if hadOld {
			root.Rename(old, base)
		}
		return damaged, nil, err
	}
	done = true
	if hadOld {
		root.RemoveAll(old)
	}
	// The received profiles' other copies of the contents this one has
	// are checked too, and a damaged one is replaced by this one's.
	checked := map[string]bool{}
	for _, e := range m.Entries {
		if e.Type != profile.TypeFile || checked[e.SHA256] {
			continue
		}
		checked[e.SHA256] = true
		for _, c := range known[e.SHA256] {
			if !c.Received || strings.HasPrefix(c.Path, dir+string(filepath.Separator)) || intact(c.Path, e) {
				continue
			}
			if !slices.Contains(damaged, c.Path) {
				damaged = append(damaged, c.Path)
			}
			if replaceDamaged(root, parent, c.Path, path.Join(base, e.Path), e) {
				replaced = append(replaced, c.Path)
			}
		}
	}
	return damaged, replaced, nil
}

// receivedPath returns p relative to parent, slash-separated, when it is
// below it.
func receivedPath(parent, p string) (string, bool) {
	rel, err := filepath.Rel(parent, p)
	if err != nil || rel == "." || strings.HasPrefix(rel, "..") || filepath.IsAbs(rel) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

// reuse makes the file dst of root from the host's copy at src: a hard
// link to it when it is a file of root (rel) with mode perm, else a copy
// of its content. It never follows a link: src must be a regular file.
func reuse(root *os.Root, dst, src, rel string, shared bool, perm os.FileMode) error {
	if err := root.MkdirAll(path.Dir(dst), 0o755); err != nil {
		return err
	}
	var f *os.File
	var err error
	if shared {
		f, err = root.OpenFile(rel, os.O_RDONLY|syscall.O_NOFOLLOW, 0)
	} else {
		f, err = os.OpenFile(src, os.O_RDONLY|syscall.O_NOFOLLOW, 0)
	}
	if err != nil {
		return err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("%s is a %s", src, filekind.Of(fi.Mode()))
	}
	if shared {
		// An os.Root follows a relative link that stays inside it: rel
		// itself must be the file opened, never a link to one.
		if lfi, err := root.Lstat(rel); err != nil || !os.SameFile(lfi, fi) {
			return fmt.Errorf("%s is not a file", src)
		}
		if fi.Mode().Perm() == perm && root.Link(rel, dst) == nil {
			return nil
		}
	}
	return create(root, dst, f)
}

// replaceDamaged replaces p, a damaged copy of e's content in a received
// profile below parent, with the intact copy good (relative to parent):
// shared with it when p has its mode, else copied, then renamed over p.
// It reports whether it did.
func replaceDamaged(root *os.Root, parent, p, good string, e profile.ManifestEntry) bool {
	rel, ok := receivedPath(parent, p)
	if !ok {
		return false
	}
	fi, err := root.Lstat(rel)
	if err != nil || !fi.Mode().IsRegular() {
		return false
	}
	tmp := rel + tmpInfix + "repair"
	root.Remove(tmp)
	if err := reuse(root, tmp, filepath.Join(parent, filepath.FromSlash(good)), good, true, fi.Mode().Perm()); err != nil {
		return false
	}
	if root.Chmod(tmp, fi.Mode().Perm()) != nil || checkIn(root, tmp, e) != nil || root.Rename(tmp, rel) != nil {
		root.Remove(tmp)
		return false
	}
	return true
}

// create creates the file p of root (and its directories), which must not
// exist, with what r holds, synced, mode 0600 until the end.
func create(root *os.Root, p string, r io.Reader) error {
	if err := root.MkdirAll(path.Dir(p), 0o755); err != nil {
		return err
	}
	f, err := root.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL|syscall.O_NOFOLLOW, 0o600)
	if err != nil {
		return err
	}
	if _, err := io.Copy(f, r); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// checkIn checks that the file p of root (not a link) has e's size and
// hash.
func checkIn(root *os.Root, p string, e profile.ManifestEntry) error {
	f, err := root.OpenFile(p, os.O_RDONLY|syscall.O_NOFOLLOW, 0)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := checkContent(f, e); err != nil {
		return fmt.Errorf("%s: %w", e.Path, err)
	}
	// An os.Root follows a relative link that stays inside it: p must
	// be the file that was hashed, not a link to it.
	if lfi, err := root.Lstat(p); err != nil {
		return err
	} else if fi, err := f.Stat(); err != nil || !os.SameFile(lfi, fi) {
		return fmt.Errorf("%s: a %s, not a file", e.Path, filekind.Of(lfi.Mode()))
	}
	return nil
}

// checkContent checks that f is a regular file with e's size and hash.
func checkContent(f *os.File, e profile.ManifestEntry) error {
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("a %s, not a file", filekind.Of(fi.Mode()))
	}
	h := sha256.New()
	n, err := io.Copy(h, f)
	if err != nil {
		return err
	}
	if got := hex.EncodeToString(h.Sum(nil)); got != e.SHA256 || e.Size == nil || n != *e.Size {
		return fmt.Errorf("the content is not the manifest's (sha256 %s, %d bytes)", got, n)
	}
	return nil
}

// syncTree syncs the directories of the tree dir of root, so that the
// renamed profile is whole after a crash.
func syncTree(root *os.Root, dir string) error {
	return fs.WalkDir(root.FS(), dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		f, err := root.Open(p)
		if err != nil {
			return err
		}
		defer f.Close()
		return f.Sync()
	})
}

// randomName returns 16 random hex digits.
func randomName() string {
	var b [8]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
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
