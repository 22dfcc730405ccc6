package activate

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"sort"
	"syscall"

	"github.com/nodegen/nodegen/internal/keyset"
	"github.com/nodegen/nodegen/internal/safefile"
)

// A generation's keys (deployment.keys, given to switch with --keys) are
// kept in its directory keys/, root's with mode 0700: keys.json describes
// them (name, directory, owner, mode, hash) and each content is the file
// named by the key's FileID.
const (
	keysDir  = "keys"
	keysFile = "keys.json"
)

// keptSuffix is added to the name of a file that was at a key's path and
// that nodegen did not place: it is kept beside it, never overwritten.
const keptSuffix = ".nodegen-kept"

// keysJSON is the description of keys as a generation records it: sorted
// by path, so that the same keys always give the same bytes; nil for none.
func keysJSON(keys []keyset.Entry) ([]byte, error) {
	if len(keys) == 0 {
		return nil, nil
	}
	list := make([]keyset.Key, len(keys))
	for i, k := range keys {
		list[i] = k.Key
		list[i].SHA256 = keyset.Hash(k.Data)
	}
	sort.Slice(list, func(i, j int) bool { return list[i].Path() < list[j].Path() })
	for i := 1; i < len(list); i++ {
		if list[i].Path() == list[i-1].Path() {
			return nil, fmt.Errorf("two keys are at %s", list[i].Path())
		}
	}
	data, err := json.MarshalIndent(list, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(data, '\n'), nil
}

// writeKeys writes keys into the generation being built at gen (relative
// to the root).
func (s *System) writeKeys(gen string, keys []keyset.Entry) error {
	desc, err := keysJSON(keys)
	if err != nil || desc == nil {
		return err
	}
	dir := path.Join(gen, keysDir)
	if err := s.r.Mkdir(dir, 0o700); err != nil {
		return unwrapPath(err)
	}
	if err := s.r.Chmod(dir, 0o700); err != nil {
		return unwrapPath(err)
	}
	for _, k := range keys {
		if err := k.Check(); err != nil {
			return fmt.Errorf("key %s: %w", k.Path(), err)
		}
		if err := s.r.WriteFile(path.Join(dir, k.FileID()), k.Data, 0o600); err != nil {
			return unwrapPath(err)
		}
	}
	return unwrapPath(s.r.WriteFile(path.Join(dir, keysFile), desc, 0o600))
}

// generationKeysJSON is generation n's keys.json, nil when it has no keys.
func (s *System) generationKeysJSON(n int) ([]byte, error) {
	data, err := s.readFile(path.Join(generationDir(n), keysDir, keysFile))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	return data, err
}

// generationKeys reads the keys of generation n (none for 0), each
// checked, with their contents (checked against their hashes) when
// withData.
func (s *System) generationKeys(n int, withData bool) ([]keyset.Entry, error) {
	if n == 0 {
		return nil, nil
	}
	desc, err := s.generationKeysJSON(n)
	if err != nil || desc == nil {
		return nil, err
	}
	var list []keyset.Key
	if err := json.Unmarshal(desc, &list); err != nil {
		return nil, fmt.Errorf("generation %d: %s: %w", n, keysFile, err)
	}
	out := make([]keyset.Entry, 0, len(list))
	for _, k := range list {
		if err := k.Check(); err != nil {
			return nil, fmt.Errorf("generation %d: %w", n, err)
		}
		e := keyset.Entry{Key: k}
		if withData {
			if e.Data, err = s.readFile(path.Join(generationDir(n), keysDir, k.FileID())); err != nil {
				return nil, fmt.Errorf("generation %d: key %s: %w", n, k.Path(), err)
			}
			if keyset.Hash(e.Data) != k.SHA256 {
				return nil, fmt.Errorf("generation %d: key %s: its content is not the one recorded (the hash differs)", n, k.Path())
			}
		}
		out = append(out, e)
	}
	return out, nil
}

// knownKeys are the contents nodegen placed or may have placed at each
// key's path: the keys state.json records and those of every generation,
// by path, as sets of hashes. A file holding one of them is nodegen's.
func (s *System) knownKeys(st State) (map[string]map[string]bool, error) {
	known := map[string]map[string]bool{}
	add := func(k keyset.Key) {
		if known[k.Path()] == nil {
			known[k.Path()] = map[string]bool{}
		}
		known[k.Path()][k.SHA256] = true
	}
	for _, k := range st.Keys {
		add(k)
	}
	ns, err := s.generationNumbers()
	if err != nil {
		return nil, err
	}
	for _, n := range ns {
		keys, err := s.generationKeys(n, false)
		if err != nil {
			return nil, err
		}
		for _, k := range keys {
			add(k.Key)
		}
	}
	return known, nil
}

// hostDir is the directory dir of the system ("/run/keys") on the host.
func (s *System) hostDir(dir string) string { return filepath.Join(s.root, dir) }

// installKeys is the keys step of an activation: it puts the keys of
// generation p.To at their paths, each through package safefile (no
// component of its directory may be a link, the file is created under a
// temporary name with its owner and mode and renamed into place), and
// removes the keys nodegen placed that p.To does not have. A file at a
// key's path that holds no content nodegen placed there is kept aside
// first, as NAME.nodegen-kept (never over an earlier one). It returns
// the keys placed, for state.json.
func (s *System) installKeys(p *Plan) ([]keyset.Key, error) {
	target, err := s.generationKeys(p.To, true)
	if err != nil {
		return nil, err
	}
	known, err := s.knownKeys(p.state)
	if err != nil {
		return nil, err
	}
	o := s.readOwners()
	want := map[string]bool{}
	placed := []keyset.Key{}
	for _, k := range target {
		want[k.Path()] = true
		uid, ok := o.uid(k.User)
		if !ok {
			return nil, fmt.Errorf("key %s: user %q does not exist", k.Path(), k.User)
		}
		gid, ok := o.gid(k.Group)
		if !ok {
			return nil, fmt.Errorf("key %s: group %q does not exist", k.Path(), k.Group)
		}
		mode, err := keyset.ParseMode(k.Mode)
		if err != nil {
			return nil, fmt.Errorf("key %s: %w", k.Path(), err)
		}
		d, err := safefile.MkdirAll(s.hostDir(k.Dir), 0o751)
		if err != nil {
			return nil, fmt.Errorf("key %s: its directory: %w", k.Path(), err)
		}
		err = s.putKey(d, k, safefile.Owner{UID: uid, GID: gid}, mode, known[k.Path()])
		d.Close()
		if err != nil {
			return nil, fmt.Errorf("key %s: %w", k.Path(), err)
		}
		placed = append(placed, k.Key)
	}
	var gone []string
	for p := range known {
		if !want[p] {
			gone = append(gone, p)
		}
	}
	sort.Strings(gone)
	for _, kp := range gone {
		s.removeKey(kp, known[kp])
	}
	return placed, nil
}

// putKey writes k in d, unless it is there already with its owner and
// mode; what is at its name is replaced when it is a content nodegen
// placed there (one of known), and kept aside otherwise.
func (s *System) putKey(d *safefile.Dir, k keyset.Entry, owner safefile.Owner, mode fs.FileMode, known map[string]bool) error {
	st, err := d.Lstat(k.Name)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return d.WriteFile(k.Name, k.Data, owner, mode)
	case err != nil:
		return err
	}
	if st.Mode&syscall.S_IFMT == syscall.S_IFREG {
		if data, err := d.ReadFile(k.Name, keyset.MaxSize); err == nil {
			h := keyset.Hash(data)
			if h == k.SHA256 && int(st.Uid) == owner.UID && int(st.Gid) == owner.GID && fs.FileMode(st.Mode&0o7777) == mode {
				return nil
			}
			if known[h] {
				return d.WriteFile(k.Name, k.Data, owner, mode)
			}
		}
	}
	// Not nodegen's: kept aside, never overwritten.
	kept := k.Name + keptSuffix
	if len(kept) > 255 {
		return fmt.Errorf("a file nodegen did not place is in the way, and its name is too long to keep it aside as %s", keptSuffix)
	}
	if err := d.RenameNoReplace(k.Name, kept); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return fmt.Errorf("a file nodegen did not place is in the way, and %s is there already, kept from earlier; nodegen never overwrites a file it kept (move one of them away)", filepath.Join(d.Path(), kept))
		}
		return fmt.Errorf("keeping the file in the way aside: %w", err)
	}
	s.logf("moved %s aside to %s (it was in the way of a key)", filepath.Join(d.Path(), k.Name), filepath.Join(d.Path(), kept))
	return d.WriteFile(k.Name, k.Data, owner, mode)
}

// removeKey removes the key at kp when it holds a content nodegen placed
// there (one of known); anything else is left as it is, and said.
func (s *System) removeKey(kp string, known map[string]bool) {
	d, err := safefile.OpenDir(s.hostDir(filepath.Dir(kp)))
	if errors.Is(err, fs.ErrNotExist) {
		return
	}
	if err != nil {
		s.logf("key %s: left as it is: %v", kp, err)
		return
	}
	defer d.Close()
	name := filepath.Base(kp)
	data, err := d.ReadFile(name, keyset.MaxSize)
	if errors.Is(err, fs.ErrNotExist) {
		return
	}
	if err != nil || !known[keyset.Hash(data)] {
		s.logf("key %s changed since nodegen placed it: left as it is, no longer managed", kp)
		return
	}
	if err := d.Remove(name); err != nil {
		s.logf("key %s: %v", kp, err)
		return
	}
	s.logf("removed key %s", kp)
}

// sameKeys reports whether generation n holds keys, the same contents at
// the same paths with the same owners and modes.
func (s *System) sameKeys(n int, keys []keyset.Entry) (bool, error) {
	have, err := s.generationKeysJSON(n)
	if err != nil {
		return false, err
	}
	want, err := keysJSON(keys)
	if err != nil {
		return false, err
	}
	return string(have) == string(want), nil
}
