package activate

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/nodegen/nodegen/internal/keyset"
	"github.com/nodegen/nodegen/profile"
)

// generationFile is the description of a generation, beside its profile.
const generationFile = "generation.json"

// Generation describes one generation.
type Generation struct {
	// Number is the generation's number, from 1, never reused.
	Number int `json:"number"`
	// Date is when it was made, RFC 3339 in UTC.
	Date string `json:"date"`
	// HostName is the profile's etc/hostname, "" when it has none.
	HostName string `json:"hostName"`
	// ProfileHash is the sha256 of the profile's manifest: two generations
	// with the same hash have the same files.
	ProfileHash string `json:"profileHash"`
	// Current is set for the active generation (not stored).
	Current bool `json:"current"`
	// Failures are the activations of this generation that failed at a
	// step (from state.json, not stored here).
	Failures []Failure `json:"failures,omitempty"`
	// Mark says the generation's last activation failed or was rolled
	// back (from state.json, not stored here); nil when it has none.
	Mark *Mark `json:"mark,omitempty"`
}

// genDir is the generation's directory on the host.
func (s *System) genDir(n int) string { return s.host(generationDir(n)) }

// readGeneration reads generation n: its description and its manifest.
func (s *System) readGeneration(n int) (Generation, profile.Manifest, error) {
	var g Generation
	data, err := s.readFile(path.Join(generationDir(n), generationFile))
	if err != nil {
		return g, profile.Manifest{}, fmt.Errorf("generation %d: %w", n, err)
	}
	if err := json.Unmarshal(data, &g); err != nil {
		return g, profile.Manifest{}, fmt.Errorf("generation %d: %s: %w", n, generationFile, err)
	}
	m, err := profile.Read(s.genDir(n))
	if err != nil {
		return g, profile.Manifest{}, fmt.Errorf("generation %d: %w", n, err)
	}
	return g, m, nil
}

// generationNumbers lists the numbers of the generations on the system,
// ascending; directories that are not whole generations are left out.
func (s *System) generationNumbers() ([]int, error) {
	names, err := s.readNames(generationsDir)
	if err != nil {
		return nil, err
	}
	var ns []int
	for _, name := range names {
		n, err := strconv.Atoi(name)
		if err != nil || n <= 0 || strconv.Itoa(n) != name {
			continue
		}
		ns = append(ns, n)
	}
	sort.Ints(ns)
	return ns, nil
}

// Generations lists the generations, oldest first, marking the active one.
func (s *System) Generations() ([]Generation, error) {
	st, err := s.readState()
	if err != nil {
		return nil, err
	}
	ns, err := s.generationNumbers()
	if err != nil {
		return nil, err
	}
	gens := make([]Generation, 0, len(ns))
	for _, n := range ns {
		g, _, err := s.readGeneration(n)
		if err != nil {
			return nil, err
		}
		g.Current = n == st.Generation
		g.Mark = st.markOf(n)
		for _, f := range st.Failures {
			if f.Generation == n {
				g.Failures = append(g.Failures, f)
			}
		}
		gens = append(gens, g)
	}
	return gens, nil
}

// addGeneration copies the profile in dir into a new generation and
// returns its number. The manifest is read once, and every file is checked
// against it while it is copied, so a profile changed or replaced after it
// was written is refused, never copied half and half. The generation is
// built under a temporary name and renamed into place whole.
//
// keys are the generation's keys (see writeKeys).
func (s *System) addGeneration(dir string, st State, keys []keyset.Entry) (int, error) {
	manifest, err := os.ReadFile(filepath.Join(dir, profile.ManifestName))
	if errors.Is(err, fs.ErrNotExist) {
		return 0, fmt.Errorf("%s is not a nodegen profile: it has no %s", dir, profile.ManifestName)
	}
	if err != nil {
		return 0, err
	}
	ns, err := s.generationNumbers()
	if err != nil {
		return 0, err
	}
	n := st.LastGeneration + 1
	if len(ns) > 0 && ns[len(ns)-1] >= n {
		n = ns[len(ns)-1] + 1
	}
	tmp := path.Join(generationsDir, fmt.Sprintf(".new-%d", n))
	if err := s.r.RemoveAll(tmp); err != nil {
		return 0, unwrapPath(err)
	}
	if err := s.r.MkdirAll(path.Join(tmp, "etc"), 0o755); err != nil {
		return 0, unwrapPath(err)
	}
	fail := func(err error) (int, error) {
		s.r.RemoveAll(tmp)
		return 0, err
	}
	// The manifest is read back from the copy: the one source of truth.
	if err := s.r.WriteFile(path.Join(tmp, profile.ManifestName), manifest, 0o600); err != nil {
		return fail(unwrapPath(err))
	}
	m, err := profile.Read(s.host(tmp))
	if err != nil {
		return fail(fmt.Errorf("%s: %w", dir, err))
	}
	host := ""
	for _, e := range m.Entries {
		dst := path.Join(tmp, e.Path)
		if err := s.r.MkdirAll(path.Dir(dst), 0o755); err != nil {
			return fail(unwrapPath(err))
		}
		if e.Type == profile.TypeSymlink {
			if err := s.r.Symlink(e.Target, dst); err != nil {
				return fail(unwrapPath(err))
			}
			continue
		}
		data, err := profile.ReadEntry(dir, e)
		if err != nil {
			return fail(err)
		}
		if e.Path == "etc/hostname" {
			host = strings.TrimSpace(string(data))
		}
		mode, _ := parseMode(e.Mode)
		if err := s.r.WriteFile(dst, data, 0o600); err != nil {
			return fail(unwrapPath(err))
		}
		if err := s.r.Chmod(dst, mode); err != nil {
			return fail(unwrapPath(err))
		}
	}
	sum := sha256.Sum256(manifest)
	g := Generation{
		Number:      n,
		Date:        s.now().UTC().Format(time.RFC3339),
		HostName:    host,
		ProfileHash: hex.EncodeToString(sum[:]),
	}
	desc, err := json.MarshalIndent(g, "", "  ")
	if err != nil {
		return fail(err)
	}
	// The manifest, and generation.json which holds its hash, are
	// root's only when the profile holds a secret (profile.SecretMode).
	for _, f := range []struct {
		name string
		data []byte
	}{{profile.ManifestName, nil}, {generationFile, append(desc, '\n')}} {
		if f.data != nil {
			if err := s.r.WriteFile(path.Join(tmp, f.name), f.data, 0o600); err != nil {
				return fail(unwrapPath(err))
			}
		}
		if err := s.r.Chmod(path.Join(tmp, f.name), m.DescriptionMode()); err != nil {
			return fail(unwrapPath(err))
		}
	}
	if err := s.writeKeys(tmp, keys); err != nil {
		return fail(err)
	}
	if err := s.syncAll(); err != nil {
		return fail(err)
	}
	if err := s.r.Rename(tmp, generationDir(n)); err != nil {
		return fail(unwrapPath(err))
	}
	if err := s.syncDir(generationsDir); err != nil {
		return 0, err
	}
	return n, nil
}

// sameGenerations reports whether generations a and b hold the same
// profile (the same manifest) and the same keys.
func (s *System) sameGenerations(a, b int) (bool, error) {
	ka, err := s.generationKeysJSON(a)
	if err != nil {
		return false, err
	}
	kb, err := s.generationKeysJSON(b)
	if err != nil {
		return false, err
	}
	if string(ka) != string(kb) {
		return false, nil
	}
	x, err := s.readFile(path.Join(generationDir(a), profile.ManifestName))
	if err != nil {
		return false, err
	}
	y, err := s.readFile(path.Join(generationDir(b), profile.ManifestName))
	if err != nil {
		return false, err
	}
	return string(x) == string(y), nil
}

// removeGeneration deletes generation n.
func (s *System) removeGeneration(n int) error {
	// Rename first, so that a crash never leaves half a generation under a
	// generation's name.
	tmp := path.Join(generationsDir, fmt.Sprintf(".old-%d", n))
	if err := s.r.Rename(generationDir(n), tmp); err != nil {
		return unwrapPath(err)
	}
	return unwrapPath(s.r.RemoveAll(tmp))
}

// cleanGenerations removes what an interrupted addGeneration or
// removeGeneration left: .new-N and .old-N directories.
func (s *System) cleanGenerations() error {
	names, err := s.readNames(generationsDir)
	if err != nil {
		return err
	}
	for _, name := range names {
		if strings.HasPrefix(name, ".new-") || strings.HasPrefix(name, ".old-") {
			if err := s.r.RemoveAll(path.Join(generationsDir, name)); err != nil {
				return unwrapPath(err)
			}
		}
	}
	return nil
}

// readNames lists the names in the directory rel; a missing directory has
// none.
func (s *System) readNames(rel string) ([]string, error) {
	d, err := s.r.Open(rel)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, unwrapPath(err)
	}
	defer d.Close()
	return d.Readdirnames(-1)
}

// parseMode reads an octal mode such as "0644".
func parseMode(m string) (fs.FileMode, error) {
	v, err := strconv.ParseUint(m, 8, 32)
	if err != nil || v > 0o7777 {
		return 0, errors.New("bad mode " + strconv.Quote(m))
	}
	return fs.FileMode(v&0o777) | modeBits(v), nil
}

// modeBits turns the set-id and sticky bits of a numeric mode into Go's.
func modeBits(v uint64) fs.FileMode {
	var m fs.FileMode
	if v&0o4000 != 0 {
		m |= fs.ModeSetuid
	}
	if v&0o2000 != 0 {
		m |= fs.ModeSetgid
	}
	if v&0o1000 != 0 {
		m |= fs.ModeSticky
	}
	return m
}
