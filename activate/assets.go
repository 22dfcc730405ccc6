package activate

import (
	"archive/tar"
	"archive/zip"
	"compress/gzip"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"sort"
	"strings"

	"github.com/nodegen/nodegen/internal/assetfetch"
	"github.com/nodegen/nodegen/profile"
)

// assetsDir is the cache of assets, one directory per content hash:
// KEY/download is the file as downloaded and checked, KEY/files/MEMBER a
// member of an archive.
const assetsDir = stateDir + "/assets"

// maxAssetSize bounds a download (a file:// one too).
var maxAssetSize int64 = 4 << 30

// maxMemberSize bounds a member unpacked from an archive; a variable for
// tests.
var maxMemberSize int64 = 8 << 30

// verifiedFile, in an asset's cache directory, records the sha256 of each
// member unpacked from the verified download; it is written after them.
const verifiedFile = "verified.json"

// verified is the content of verifiedFile.
type verified struct {
	Members map[string]string `json:"members"`
}

// assetFile is where file f of asset a lives in the cache, relative to the
// root.
func assetFile(a profile.Asset, f profile.AssetFile) string {
	if f.Member == "" {
		return path.Join(assetsDir, a.Key(), "download")
	}
	return path.Join(assetsDir, a.Key(), "files", path.Clean(f.Member))
}

// assetPlacements are the symlinks that install a manifest's assets.
func assetPlacements(m profile.Manifest) []Placement {
	var out []Placement
	for _, a := range m.Assets {
		for _, f := range a.Files {
			out = append(out, Placement{Path: strings.TrimPrefix(f.Path, "/"), Kind: KindSymlink, Target: "/" + assetFile(a, f), Option: a.Option})
		}
	}
	return out
}

// BinaryProblem is an asset or package a switch cannot provide.
type BinaryProblem struct {
	// What names it: "asset kubelet", "package curl".
	What string `json:"what"`
	// Option declares it.
	Option string `json:"option"`
	// Reason says what is wrong.
	Reason string `json:"reason"`
}

// BinariesError lists every asset and package that cannot be provided; a
// switch that meets it changed nothing in /etc.
type BinariesError struct {
	Problems []BinaryProblem
}

func (e *BinariesError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d binary(ies) of the profile cannot be provided; nothing was changed:", len(e.Problems))
	for _, p := range e.Problems {
		fmt.Fprintf(&b, "\n  %s (from %s): %s", p.What, p.Option, p.Reason)
	}
	return b.String()
}

// binaryPlan is what providing a profile's binaries takes.
type binaryPlan struct {
	download []profile.Asset // not in the cache yet
	extract  []profile.Asset // in the cache, with members still to unpack
	install  []string        // packages not installed
	proxy    string          // the proxy apt-get installs them through
	problems []BinaryProblem
}

// checkBinaries works out what the profile in dir needs of assets and
// packages, without changing anything.
func (s *System) checkBinaries(m profile.Manifest, offline bool) binaryPlan {
	var bp binaryPlan
	for _, a := range m.Assets {
		switch state, why := s.cachedAsset(a); {
		case state == assetReady:
		case state == assetUnpack:
			bp.extract = append(bp.extract, a)
		case offline:
			bp.problems = append(bp.problems, BinaryProblem{"asset " + a.Name, a.Option, why + ", and --offline forbids downloading " + a.Source()})
		default:
			bp.download = append(bp.download, a)
		}
	}
	bp.proxy = m.PackageProxy
	if len(m.Packages) > 0 {
		missing, err := s.missingPackages(m.Packages)
		if err != nil {
			for _, p := range m.Packages {
				bp.problems = append(bp.problems, BinaryProblem{"package " + p.Name, p.Option, err.Error()})
			}
		}
		for _, p := range missing {
			switch {
			case s.root != "/":
				bp.problems = append(bp.problems, BinaryProblem{"package " + p.Name, p.Option,
					"not installed in " + s.shown + "; nodegen installs packages only on the running system: install it in the image, or provide it as an asset"})
			case aptGet() == "":
				bp.problems = append(bp.problems, BinaryProblem{"package " + p.Name, p.Option,
					"not installed, and this system has no apt-get to install it (Flatcar, Fedora CoreOS: provide it with environment.assets)"})
			default:
				bp.install = append(bp.install, p.Name)
			}
		}
	}
	return bp
}

// States of an asset in the cache.
const (
	assetReady    = iota // the download and every member match their hashes
	assetUnpack          // the download matches; members to unpack (or the mode to set)
	assetDownload        // missing or damaged: to download
)

// cachedAsset verifies what the cache holds of an asset, as it will be
// linked: the download against the profile's hash, each member against the
// hash recorded when it was unpacked from that download, and a program's
// mode. why says what is wrong when it must be downloaded.
func (s *System) cachedAsset(a profile.Asset) (state int, why string) {
	dir := path.Join(assetsDir, a.Key())
	download := path.Join(dir, "download")
	if _, err := s.r.Lstat(download); err != nil {
		return assetDownload, "not in the cache (" + s.show(dir) + ")"
	}
	if ok, err := s.fileHasHash(download, a); err != nil || !ok {
		return assetDownload, "the cached copy " + s.show(download) + " does not match the profile's hash (damaged or truncated)"
	}
	if a.Archive == "" {
		if fi, err := s.r.Lstat(download); err != nil || fi.Mode().Perm() != 0o755 {
			return assetUnpack, ""
		}
		return assetReady, ""
	}
	v := s.readVerified(a)
	for _, f := range a.Files {
		want, ok := v.Members[path.Clean(f.Member)]
		if !ok {
			return assetUnpack, ""
		}
		if got, err := s.sha256Of(assetFile(a, f)); err != nil || got != want {
			return assetUnpack, ""
		}
	}
	return assetReady, ""
}

// readVerified reads an asset's verifiedFile; a missing or damaged one
// records nothing.
func (s *System) readVerified(a profile.Asset) verified {
	v := verified{Members: map[string]string{}}
	if data, err := s.r.ReadFile(path.Join(assetsDir, a.Key(), verifiedFile)); err == nil {
		if json.Unmarshal(data, &v) != nil || v.Members == nil {
			v.Members = map[string]string{}
		}
	}
	return v
}

// assetHash returns a new hash of the asset's kind and the hex the profile
// wants.
func assetHash(a profile.Asset) (hash.Hash, string) {
	if a.SHA512 != "" {
		return sha512.New(), a.SHA512
	}
	return sha256.New(), a.SHA256
}

// fileHasHash reports whether the regular file rel has the asset's hash.
func (s *System) fileHasHash(rel string, a profile.Asset) (bool, error) {
	h, want := assetHash(a)
	if err := s.hashFile(rel, h); err != nil {
		return false, err
	}
	return hex.EncodeToString(h.Sum(nil)) == want, nil
}

func (s *System) sha256Of(rel string) (string, error) {
	h := sha256.New()
	if err := s.hashFile(rel, h); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// hashFile streams the regular file rel into h.
func (s *System) hashFile(rel string, h hash.Hash) error {
	f, err := s.r.Open(rel)
	if err != nil {
		return unwrapPath(err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("%s is not a regular file", s.show(rel))
	}
	_, err = io.Copy(h, f)
	return err
}

// missingPackages asks dpkg which of the packages are not installed.
func (s *System) missingPackages(pkgs []profile.Package) ([]profile.Package, error) {
	dpkg, err := exec.LookPath("dpkg-query")
	if err != nil {
		return nil, errors.New("this system has no dpkg to check packages with (Flatcar, Fedora CoreOS: provide the program with environment.assets)")
	}
	args := []string{"-W", "-f=${Package}\t${db:Status-Abbrev}\n"}
	if s.root != "/" {
		args = append(args, "--admindir="+s.host("var/lib/dpkg"))
	}
	for _, p := range pkgs {
		args = append(args, p.Name)
	}
	// dpkg-query exits 1 when a package is unknown; its output still lists
	// the known ones.
	out, _ := exec.Command(dpkg, args...).Output()
	installed := map[string]bool{}
	for _, line := range strings.Split(string(out), "\n") {
		name, status, ok := strings.Cut(line, "\t")
		if ok && strings.HasPrefix(status, "ii") {
			installed[strings.TrimSuffix(name, ":amd64")] = true
		}
	}
	var missing []profile.Package
	for _, p := range pkgs {
		if !installed[p.Name] {
			missing = append(missing, p)
		}
	}
	return missing, nil
}

// provideBinaries downloads, checks and unpacks the assets of a binary
// plan and installs its packages. Every problem is collected; any problem
// is a *BinariesError.
func (s *System) provideBinaries(bp binaryPlan) error {
	problems := append([]BinaryProblem(nil), bp.problems...)
	for _, a := range bp.download {
		s.logf("downloading %s (%s)", a.Name, a.Source())
		if err := s.download(a); err != nil {
			problems = append(problems, BinaryProblem{"asset " + a.Name, a.Option, err.Error()})
			continue
		}
		bp.extract = append(bp.extract, a)
	}
	for _, a := range bp.extract {
		if err := s.extract(a); err != nil {
			problems = append(problems, BinaryProblem{"asset " + a.Name, a.Option, err.Error()})
		}
	}
	if len(problems) == 0 && len(bp.install) > 0 {
		s.logf("installing packages %s", strings.Join(bp.install, " "))
		if err := installPackages(bp.install, bp.proxy, s.logf); err != nil {
			for _, name := range bp.install {
				problems = append(problems, BinaryProblem{"package " + name, "environment.packages." + name, err.Error()})
			}
		}
	}
	if len(problems) > 0 {
		sort.SliceStable(problems, func(i, j int) bool { return problems[i].What < problems[j].What })
		return &BinariesError{problems}
	}
	return nil
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, " / ")
}

// download fetches an asset into the cache, checking its hash on the way;
// a download with another hash is removed and is an error. A program gets
// its mode before the directory is renamed into place.
func (s *System) download(a profile.Asset) error {
	if err := s.r.MkdirAll(assetsDir, 0o755); err != nil {
		return unwrapPath(err)
	}
	tmp := path.Join(assetsDir, ".tmp-"+path.Base(tempName(a.Key())))
	if err := s.r.Mkdir(tmp, 0o755); err != nil {
		return unwrapPath(err)
	}
	defer s.r.RemoveAll(tmp)
	src := a.Source()
	body, local, err := assetfetch.Open(src, maxAssetSize)
	if err != nil {
		return err
	}
	defer body.Close()
	f, err := s.r.OpenFile(path.Join(tmp, "download"), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return unwrapPath(err)
	}
	h, want := assetHash(a)
	n, err := io.Copy(io.MultiWriter(f, h), io.LimitReader(body, maxAssetSize+1))
	if err == nil && a.Archive == "" {
		err = f.Chmod(0o755)
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("downloading %s: %v", src, err)
	}
	if n > maxAssetSize {
		return fmt.Errorf("%s is larger than %d bytes", src, maxAssetSize)
	}
	kind := strings.SplitN(a.Key(), "-", 2)[0]
	if got := hex.EncodeToString(h.Sum(nil)); got != want {
		if local {
			// Not the hash of a local file: the profile could name any.
			return fmt.Errorf("%s does not have the %s the profile says (%s): not installed", src, kind, want)
		}
		return fmt.Errorf("%s: %s mismatch: expected %s (the profile's: the library's, the host's or nodegen.lock.hcl's), got %s: not installed", src, kind, want, got)
	}
	dir := path.Join(assetsDir, a.Key())
	if err := s.r.RemoveAll(dir); err != nil {
		return unwrapPath(err)
	}
	if err := s.r.Rename(tmp, dir); err != nil {
		return unwrapPath(err)
	}
	return s.syncDir(assetsDir)
}

// extract unpacks the members of an archive asset that its files name and
// that the cache does not hold as verified, each streamed to disk with a
// size bound, and records their hashes; a program gets its mode.
func (s *System) extract(a profile.Asset) error {
	if a.Archive == "" {
		return s.r.Chmod(path.Join(assetsDir, a.Key(), "download"), 0o755)
	}
	v := s.readVerified(a)
	want := map[string]bool{}
	for _, f := range a.Files {
		m := path.Clean(f.Member)
		if got, err := s.sha256Of(assetFile(a, f)); err != nil || v.Members[m] == "" || got != v.Members[m] {
			want[m] = true
			delete(v.Members, m)
		}
	}
	if len(want) == 0 {
		return nil
	}
	found := map[string]bool{}
	put := func(member string, mode fs.FileMode, size int64, r io.Reader) error {
		member = path.Clean(strings.TrimPrefix(member, "./"))
		if !want[member] || found[member] {
			return nil
		}
		if size > maxMemberSize {
			return fmt.Errorf("the archive %s: member %s larger than %d bytes (it has %d)", a.URL, member, maxMemberSize, size)
		}
		dst := path.Join(assetsDir, a.Key(), "files", member)
		if err := s.r.MkdirAll(path.Dir(dst), 0o755); err != nil {
			return unwrapPath(err)
		}
		h := sha256.New()
		err := s.writeAtomicFrom(dst, io.TeeReader(r, h), maxMemberSize, mode.Perm()&0o755|0o444, -1, -1)
		if errors.Is(err, errTooLarge) {
			return fmt.Errorf("the archive %s: member %s larger than %d bytes", a.URL, member, maxMemberSize)
		}
		if err != nil {
			return err
		}
		found[member] = true
		v.Members[member] = hex.EncodeToString(h.Sum(nil))
		return nil
	}
	archive := path.Join(assetsDir, a.Key(), "download")
	f, err := s.r.Open(archive)
	if err != nil {
		return unwrapPath(err)
	}
	defer f.Close()
	switch a.Archive {
	case "tar.gz":
		gz, err := gzip.NewReader(f)
		if err != nil {
			return fmt.Errorf("unpacking: %v", err)
		}
		tr := tar.NewReader(gz)
		for len(found) < len(want) {
			h, err := tr.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				return fmt.Errorf("unpacking: %v", err)
			}
			if h.Typeflag == tar.TypeReg {
				if err := put(h.Name, h.FileInfo().Mode(), h.Size, tr); err != nil {
					return err
				}
			}
		}
	case "zip":
		fi, err := f.Stat()
		if err != nil {
			return err
		}
		zr, err := zip.NewReader(f, fi.Size())
		if err != nil {
			return fmt.Errorf("unpacking: %v", err)
		}
		for _, zf := range zr.File {
			if !zf.Mode().IsRegular() {
				continue
			}
			rc, err := zf.Open()
			if err != nil {
				return fmt.Errorf("unpacking: %v", err)
			}
			err = put(zf.Name, zf.Mode(), int64(min(zf.UncompressedSize64, 1<<62)), rc)
			rc.Close()
			if err != nil {
				return err
			}
		}
	}
	var missing []string
	for m := range want {
		if !found[m] {
			missing = append(missing, m)
		}
	}
	if len(missing) > 0 {
		sort.Strings(missing)
		return fmt.Errorf("the archive %s has no file %s", a.URL, strings.Join(missing, ", "))
	}
	return s.writeJSON(path.Join(assetsDir, a.Key(), verifiedFile), v, 0o644)
}

// pruneAssets removes the cached assets that no generation uses.
func (s *System) pruneAssets() error {
	used := map[string]bool{}
	ns, err := s.generationNumbers()
	if err != nil {
		return err
	}
	for _, n := range ns {
		_, m, err := s.readGeneration(n)
		if err != nil {
			return err
		}
		for _, a := range m.Assets {
			used[a.Key()] = true
		}
	}
	names, err := s.readNames(assetsDir)
	if err != nil {
		return err
	}
	for _, name := range names {
		if !used[name] {
			if err := s.r.RemoveAll(path.Join(assetsDir, name)); err != nil {
				return unwrapPath(err)
			}
		}
	}
	return nil
}
