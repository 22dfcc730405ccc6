// Package keyset is the set of deployment.keys that belongs to a
// generation: how a deploy stages keys on a host (root-only, below
// /var/lib/nodegen/deploy/keys/ID, one stage per deploy attempt), and how
// a key is described, checked and named wherever it is kept.
package keyset

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/nodegen/nodegen/internal/safefile"
	"github.com/nodegen/nodegen/internal/wordrule"
)

// MaxSize bounds a key's content.
const MaxSize = 1 << 20

// StaleAge is how old a stage is when a locked command removes it: a
// deploy uses its stage seconds after writing it.
const StaleAge = time.Hour

// Key describes one key: its file Name in the directory Dir, owned by
// User and Group with the permission bits Mode (octal, "0400"), and the
// SHA-256 of its content.
type Key struct {
	Name   string `json:"name"`
	Dir    string `json:"dir"`
	User   string `json:"user"`
	Group  string `json:"group"`
	Mode   string `json:"mode"`
	SHA256 string `json:"sha256"`
}

// Entry is a key with its content.
type Entry struct {
	Key
	Data []byte
}

// Path is the key's path on the host: Dir/Name.
func (k Key) Path() string { return filepath.Join(k.Dir, k.Name) }

// FileID is the name the key's content is kept under in a stage or a
// generation: derived from its path, so that two keys of one name in two
// directories never meet.
func (k Key) FileID() string {
	sum := sha256.Sum256([]byte(k.Dir + "\x00" + k.Name))
	return hex.EncodeToString(sum[:16])
}

// Check checks the key's description: its name is a file name, not a
// path; its directory an absolute path word; its owner user and group
// names; its mode three or four octal digits of permission bits.
func (k Key) Check() error {
	if p := wordrule.FileNameProblem(k.Name); p != "" {
		return fmt.Errorf("the key's name %s is refused: %s", quoteShort(k.Name), p)
	}
	if p := wordrule.PathWordProblem(k.Dir); p != "" {
		return fmt.Errorf("the key's directory %s is refused: %s", quoteShort(k.Dir), p)
	}
	if !filepath.IsAbs(k.Dir) || filepath.Clean(k.Dir) != k.Dir {
		return fmt.Errorf("the key's directory %s is refused: not a normalized absolute path", quoteShort(k.Dir))
	}
	for _, n := range []string{k.User, k.Group} {
		if p := wordrule.UserNameProblem(n); p != "" {
			return fmt.Errorf("the key's owner %s is refused: %s", quoteShort(n), p)
		}
	}
	_, err := ParseMode(k.Mode)
	return err
}

// ParseMode reads a key's permissions: three or four octal digits, the
// permission bits alone.
func ParseMode(s string) (fs.FileMode, error) {
	m, err := strconv.ParseUint(s, 8, 32)
	if err != nil || len(s) < 3 || len(s) > 4 || m > 0o777 {
		return 0, fmt.Errorf("the key's mode %s is refused: want octal permission bits, as 0400", quoteShort(s))
	}
	return fs.FileMode(m), nil
}

// Hash is the SHA-256 of a key's content, in hex.
func Hash(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// StageRoot is the directory of the stages on the host whose nodegen state
// directory is stateDir (/var/lib/nodegen).
func StageRoot(stateDir string) string { return filepath.Join(stateDir, "deploy", "keys") }

// IDProblem checks a stage's ID: 1 to 64 letters, digits, - and _.
func IDProblem(id string) string {
	if id == "" || len(id) > 64 {
		return "want 1 to 64 characters"
	}
	for _, c := range id {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return fmt.Sprintf("%q is not a letter, a digit, - or _", c)
		}
	}
	return ""
}

// Stage writes the key k, content data, into the stage directory dir
// (made root-only, 0700, with the directories above it): its content as
// FileID().key and its description as FileID().json, both root's with mode
// 0600, through safefile (no link followed). k's SHA256 is set here.
func Stage(dir string, k Key, data []byte) error {
	if err := k.Check(); err != nil {
		return err
	}
	if len(data) > MaxSize {
		return fmt.Errorf("the key has more than %d bytes", MaxSize)
	}
	k.SHA256 = Hash(data)
	desc, err := json.Marshal(k)
	if err != nil {
		return err
	}
	d, err := safefile.MkdirAll(dir, 0o700)
	if err != nil {
		return fmt.Errorf("the stage: %w", err)
	}
	defer d.Close()
	root := safefile.Owner{UID: os.Geteuid(), GID: os.Getegid()}
	if err := d.WriteFile(k.FileID()+".key", data, root, 0o600); err != nil {
		return err
	}
	return d.WriteFile(k.FileID()+".json", append(desc, '\n'), root, 0o600)
}

// ReadStage reads the keys staged in dir, sorted by path: each
// description checked, each content checked against its hash. A stage
// that holds anything else is refused.
func ReadStage(dir string) ([]Entry, error) {
	d, err := safefile.OpenDir(dir)
	if err != nil {
		return nil, fmt.Errorf("the keys' stage: %w", err)
	}
	defer d.Close()
	names, err := d.Names()
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	var out []Entry
	seen := map[string]bool{}
	for _, n := range names {
		id, ok := strings.CutSuffix(n, ".json")
		if !ok {
			if _, ok := strings.CutSuffix(n, ".key"); !ok {
				return nil, fmt.Errorf("the keys' stage %s holds %s, which is no staged key", dir, quoteShort(n))
			}
			continue
		}
		desc, err := d.ReadFile(n, 64<<10)
		if err != nil {
			return nil, err
		}
		var k Key
		if err := json.Unmarshal(desc, &k); err != nil {
			return nil, fmt.Errorf("%s: %w", filepath.Join(dir, n), err)
		}
		if err := k.Check(); err != nil {
			return nil, fmt.Errorf("%s: %w", filepath.Join(dir, n), err)
		}
		if k.FileID() != id {
			return nil, fmt.Errorf("%s describes %s, which is not its key", filepath.Join(dir, n), k.Path())
		}
		if seen[k.Path()] {
			return nil, fmt.Errorf("the keys' stage %s has %s twice", dir, k.Path())
		}
		seen[k.Path()] = true
		data, err := d.ReadFile(id+".key", MaxSize)
		if err != nil {
			return nil, err
		}
		if Hash(data) != k.SHA256 {
			return nil, fmt.Errorf("%s: its content is not the one staged (the hash differs)", filepath.Join(dir, id+".key"))
		}
		out = append(out, Entry{Key: k, Data: data})
	}
	Sort(out)
	return out, nil
}

// Sort sorts entries by path.
func Sort(es []Entry) {
	sort.Slice(es, func(i, j int) bool { return es[i].Path() < es[j].Path() })
}

// CleanStages removes the stages below root (StageRoot) older than age at
// now, and returns their IDs. The caller holds the host's lock.
func CleanStages(root string, now time.Time, age time.Duration) ([]string, error) {
	entries, err := os.ReadDir(root)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var removed []string
	for _, e := range entries {
		fi, err := e.Info()
		if err != nil || now.Sub(fi.ModTime()) < age {
			continue
		}
		if err := os.RemoveAll(filepath.Join(root, e.Name())); err != nil {
			return removed, err
		}
		removed = append(removed, e.Name())
	}
	return removed, nil
}

// InStageRoot reports whether dir is a stage directly below root.
func InStageRoot(root, dir string) bool {
	abs, err := filepath.Abs(dir)
	absRoot, err2 := filepath.Abs(root)
	return err == nil && err2 == nil && filepath.Dir(abs) == absRoot && IDProblem(filepath.Base(abs)) == ""
}

func quoteShort(s string) string {
	if len(s) > 80 {
		return strconv.Quote(s[:80]) + "..."
	}
	return strconv.Quote(s)
}
