// Package ignitiontest writes out what an Ignition config describes, as
// Ignition's files stage would, and reads trees back, so that tests can
// compare a config with the profile it was rendered from.
package ignitiontest

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/coreos/ignition/v2/config/shared/parse"
	"github.com/coreos/ignition/v2/config/v3_5"
	"github.com/coreos/ignition/v2/config/v3_5/types"
	"github.com/google/go-cmp/cmp"
	"github.com/vincent-petithory/dataurl"

	"github.com/nodegen/nodegen/profile"
)

// Parse parses and validates a config of any version up to 3.5.0 as
// Ignition does, translated to 3.5.0. It is an error when the validation
// reports anything, even a warning.
func Parse(raw []byte) (types.Config, error) {
	cfg, rpt, err := v3_5.ParseCompatibleVersion(raw)
	if err != nil {
		return types.Config{}, fmt.Errorf("%w\n%s", err, rpt)
	}
	if len(rpt.Entries) > 0 {
		return types.Config{}, fmt.Errorf("the config validates with a report:\n%s", rpt)
	}
	return cfg, nil
}

// Apply writes what cfg's storage and systemd sections describe into root
// (a path /etc/x becomes root/etc/x), as Ignition would: directories and
// files with their modes, missing parent directories 0755, links, units
// and drop-ins 0644, a masked unit as a link to /dev/null, and for an
// enabled unit the links its [Install] section asks for (what systemd's
// first-boot presets make of Ignition's preset). It returns the owner,
// "user:group", of every directory and file it wrote, by path below root,
// since it cannot change owners itself.
func Apply(cfg types.Config, root string) (map[string]string, error) {
	owners := map[string]string{}
	at := func(p string) string { return filepath.Join(root, filepath.FromSlash(p)) }
	owner := func(p string, u types.NodeUser, g types.NodeGroup) {
		owners[strings.TrimPrefix(p, "/")] = name(u.Name) + ":" + name(g.Name)
	}
	mkparent := func(p string) error { return os.MkdirAll(filepath.Dir(at(p)), 0o755) }
	for _, d := range cfg.Storage.Directories {
		if err := os.MkdirAll(at(d.Path), 0o755); err != nil {
			return nil, err
		}
		if err := os.Chmod(at(d.Path), fs.FileMode(deref(d.Mode, 0o755))); err != nil {
			return nil, err
		}
		owner(d.Path, d.User, d.Group)
	}
	for _, f := range cfg.Storage.Files {
		if src := deref(f.Contents.Source, ""); src != "" && !strings.HasPrefix(src, "data:") {
			// A download (an asset): Ignition fetches it at boot; RemoteFiles
			// lists these.
			continue
		}
		content, err := decode(f.Contents)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f.Path, err)
		}
		if err := writeFile(at(f.Path), content, fs.FileMode(deref(f.Mode, 0o644))); err != nil {
			return nil, err
		}
		owner(f.Path, f.User, f.Group)
	}
	for _, l := range cfg.Storage.Links {
		if err := mkparent(l.Path); err != nil {
			return nil, err
		}
		if err := os.Symlink(deref(l.Target, ""), at(l.Path)); err != nil {
			return nil, err
		}
	}
	const unitDir = "/etc/systemd/system/"
	for _, u := range cfg.Systemd.Units {
		for _, d := range u.Dropins {
			p := unitDir + u.Name + ".d/" + d.Name
			if err := writeFile(at(p), []byte(deref(d.Contents, "")), 0o644); err != nil {
				return nil, err
			}
			owners[strings.TrimPrefix(p, "/")] = "root:root"
		}
		if deref(u.Contents, "") != "" {
			if err := writeFile(at(unitDir+u.Name), []byte(*u.Contents), 0o644); err != nil {
				return nil, err
			}
			owners[strings.TrimPrefix(unitDir+u.Name, "/")] = "root:root"
		}
		if deref(u.Mask, false) {
			if err := mkparent(unitDir + u.Name); err != nil {
				return nil, err
			}
			if err := os.Symlink("/dev/null", at(unitDir+u.Name)); err != nil {
				return nil, err
			}
		}
		if !deref(u.Enabled, false) {
			continue
		}
		opts, err := parse.ParseUnitContents(u.Contents)
		if err != nil {
			return nil, err
		}
		for _, o := range opts {
			suffix := map[string]string{"WantedBy": ".wants", "RequiredBy": ".requires", "UpheldBy": ".upholds"}[o.Name]
			if o.Section != "Install" || suffix == "" {
				continue
			}
			for _, t := range strings.Fields(o.Value) {
				p := unitDir + t + suffix + "/" + u.Name
				if err := mkparent(p); err != nil {
					return nil, err
				}
				if err := os.Symlink(unitDir+u.Name, at(p)); err != nil {
					return nil, err
				}
			}
		}
	}
	return owners, nil
}

// decode returns the contents of a data URL resource, gunzipped when its
// compression says so.
func decode(r types.Resource) ([]byte, error) {
	if r.Source == nil {
		return nil, nil
	}
	u, err := dataurl.DecodeString(*r.Source)
	if err != nil {
		return nil, err
	}
	switch c := deref(r.Compression, ""); c {
	case "":
		return u.Data, nil
	case "gzip":
		zr, err := gzip.NewReader(bytes.NewReader(u.Data))
		if err != nil {
			return nil, err
		}
		return io.ReadAll(zr)
	default:
		return nil, fmt.Errorf("unknown compression %q", c)
	}
}

// writeFile writes a file with mode, whatever the umask, making its
// missing parents 0755.
func writeFile(p string, content []byte, mode fs.FileMode) error {
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(p, content, mode); err != nil {
		return err
	}
	return os.Chmod(p, mode)
}

// Snapshot reads the tree below root: every path (slash-separated,
// relative to root) with its kind and mode, and a file's content or a
// link's target.
func Snapshot(root string) (map[string]string, error) {
	out := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == root {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		info, err := os.Lstat(p)
		if err != nil {
			return err
		}
		switch {
		case info.Mode()&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			if err != nil {
				return err
			}
			out[filepath.ToSlash(rel)] = "symlink -> " + target
		case info.IsDir():
			out[filepath.ToSlash(rel)] = fmt.Sprintf("directory %04o", info.Mode().Perm())
		default:
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			out[filepath.ToSlash(rel)] = fmt.Sprintf("file %04o\n%s", info.Mode().Perm(), b)
		}
		return nil
	})
	return out, err
}

// RemoteFiles lists the files of cfg that Ignition downloads: "PATH MODE
// SOURCE HASH" each, sorted.
func RemoteFiles(cfg types.Config) []string {
	var out []string
	for _, f := range cfg.Storage.Files {
		if src := deref(f.Contents.Source, ""); src != "" && !strings.HasPrefix(src, "data:") {
			out = append(out, fmt.Sprintf("%s %o %s %s", f.Path, deref(f.Mode, 0o644), src, deref(f.Contents.Verification.Hash, "")))
		}
	}
	sort.Strings(out)
	return out
}

// profileAssets lists what a profile's program assets install, as
// RemoteFiles does.
func profileAssets(p profile.Profile) []string {
	var out []string
	for _, a := range p.Assets {
		if a.Archive != "" {
			continue
		}
		hash := "sha256-" + a.SHA256
		if a.SHA512 != "" {
			hash = "sha512-" + a.SHA512
		}
		for _, f := range a.Files {
			out = append(out, fmt.Sprintf("%s 755 %s %s", f.Path, a.URL, hash))
		}
	}
	sort.Strings(out)
	return out
}

// RoundTrip checks that config, a config of any version up to 3.5.0,
// describes the profile p: the ignition module parses and validates it
// without a word, and what it writes (Apply) is what writing p as a
// profile writes below etc/, byte for byte, with the same modes, link
// targets and owners, and its downloads are the profile's program assets.
// It reports what differs through t.
func RoundTrip(t testing.TB, p profile.Profile, config []byte) {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "result")
	if err := profile.Write(dir, p); err != nil {
		t.Fatal(err)
	}
	wantTree, wantOwners, err := profileTree(dir)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := Parse(config)
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	owners, err := Apply(cfg, root)
	if err != nil {
		t.Fatal(err)
	}
	tree, err := Snapshot(filepath.Join(root, "etc"))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(wantTree, tree); diff != "" {
		t.Errorf("written out, the config differs from the profile (-profile +config):\n%s", diff)
	}
	if diff := cmp.Diff(wantOwners, owners); diff != "" {
		t.Errorf("owners differ (-profile +config):\n%s", diff)
	}
	if diff := cmp.Diff(profileAssets(p), RemoteFiles(cfg)); diff != "" {
		t.Errorf("the downloads differ from the profile's program assets (-profile +config):\n%s", diff)
	}
}

// profileTree reads the profile in dir as Apply leaves a config's tree:
// the Snapshot of its etc/, and the owners of its files (from the
// manifest) and directories (root's, as installing the profile makes
// them), by path below the profile ("etc/hostname").
func profileTree(dir string) (tree, owners map[string]string, err error) {
	tree, err = Snapshot(filepath.Join(dir, "etc"))
	if err != nil {
		return nil, nil, err
	}
	m, err := profile.Read(dir)
	if err != nil {
		return nil, nil, err
	}
	owners = map[string]string{}
	for _, e := range m.Entries {
		if e.Type == profile.TypeFile {
			owners[e.Path] = e.Owner()
		}
	}
	for p, kind := range tree {
		if strings.HasPrefix(kind, "directory") {
			owners["etc/"+p] = "root:root"
		}
	}
	return tree, owners, nil
}

func name(s *string) string {
	if s == nil {
		return "root"
	}
	return *s
}

func deref[T any](p *T, def T) T {
	if p == nil {
		return def
	}
	return *p
}
