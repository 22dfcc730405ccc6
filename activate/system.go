package activate

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/nodegen/nodegen/internal/flock"
)

// Options configure Open.
type Options struct {
	// Root is the root directory of the system: "/" for the live machine,
	// any directory for an image or a test. Default "/".
	Root string
	// Units acts on systemd units. Nil chooses: systemctl when Root is "/"
	// and systemd is running, otherwise none (units are only planned).
	Units UnitManager
	// Log receives progress lines; nil discards them.
	Log io.Writer
	// Now gives the date of new generations; default time.Now.
	Now func() time.Time
	// Create makes Root when it does not exist (an image built from
	// nothing).
	Create bool
}

// System is a root directory that nodegen manages, locked for one command.
type System struct {
	root  string // absolute
	shown string // the root as the user gave it, for messages
	r     *os.Root
	units UnitManager
	log   io.Writer
	now   func() time.Time
	lock  *os.File
}

// Open opens the system at opts.Root, creates var/lib/nodegen if needed and
// takes its lock. Another nodegen holding the lock is an error, not a wait.
// ErrLocked is Open's error when another nodegen command holds the lock.
var ErrLocked = errors.New("locked by another nodegen command")

// errLockedMark wraps ErrLocked into Open's message without adding text.
var errLockedMark = lockedMark{}

type lockedMark struct{}

func (lockedMark) Error() string        { return "" }
func (lockedMark) Is(target error) bool { return target == ErrLocked }

// Close releases the lock.
func Open(opts Options) (*System, error) {
	root := opts.Root
	if root == "" {
		root = "/"
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, err
	}
	if opts.Create {
		if err := os.MkdirAll(abs, 0o755); err != nil {
			return nil, fmt.Errorf("root %s: %w", root, unwrapPath(err))
		}
	}
	fi, err := os.Stat(abs)
	if err != nil {
		return nil, fmt.Errorf("root %s: %w", root, unwrapPath(err))
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("root %s is not a directory", root)
	}
	r, err := os.OpenRoot(abs)
	if err != nil {
		return nil, err
	}
	s := &System{root: abs, shown: filepath.Clean(root), r: r, units: opts.Units, log: opts.Log, now: opts.Now}
	if s.log == nil {
		s.log = io.Discard
	}
	if s.now == nil {
		s.now = time.Now
	}
	if s.units == nil && abs == "/" && systemdRunning() {
		s.units = &Systemctl{}
	}
	if err := r.MkdirAll(generationsDir, 0o755); err != nil {
		r.Close()
		return nil, fmt.Errorf("creating %s: %w", s.show(generationsDir), unwrapPath(err))
	}
	f, err := r.OpenFile(lockFile, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		r.Close()
		return nil, fmt.Errorf("opening %s: %w", s.show(lockFile), unwrapPath(err))
	}
	if err := lockNoWait(f, s.rootName(), s.show(lockFile)); err != nil {
		f.Close()
		r.Close()
		return nil, err
	}
	s.lock = f
	return s, nil
}

// LockState takes the lock of nodegen's state directory stateDir
// (/var/lib/nodegen on a host), the one Open takes, for a command that
// changes the state without a System (nodegen receive), without waiting:
// another nodegen command holding it is ErrLocked. It returns the lock's
// release.
func LockState(stateDir string) (release func(), err error) {
	if err := os.MkdirAll(stateDir, 0o755); err != nil {
		return nil, err
	}
	p := filepath.Join(stateDir, filepath.Base(lockFile))
	f, err := os.OpenFile(p, os.O_RDWR|os.O_CREATE|syscall.O_NOFOLLOW, 0o600)
	if err != nil {
		return nil, err
	}
	if err := lockNoWait(f, "this host", p); err != nil {
		f.Close()
		return nil, err
	}
	return func() {
		flock.Unlock(f)
		f.Close()
	}, nil
}

// lockNoWait takes an exclusive flock on f, the lock file shown, without
// waiting; where names what the holder is changing.
func lockNoWait(f *os.File, where, shown string) error {
	if err := flock.TryLock(f); err != nil {
		if errors.Is(err, flock.ErrHeld) {
			return fmt.Errorf("another nodegen command is changing %s (it holds %s)%w", where, shown, errLockedMark)
		}
		return fmt.Errorf("locking %s: %w", shown, err)
	}
	return nil
}

// Close releases the lock.
func (s *System) Close() error {
	if s.lock != nil {
		flock.Unlock(s.lock)
		s.lock.Close()
		s.lock = nil
	}
	return s.r.Close()
}

// Live reports whether units are acted on.
func (s *System) Live() bool { return s.units != nil }

// systemdRunning reports whether systemd is the running init system.
func systemdRunning() bool {
	fi, err := os.Stat("/run/systemd/system")
	return err == nil && fi.IsDir()
}

// show turns a path relative to the root into the path a user sees: below
// the root as the user named it.
func (s *System) show(rel string) string {
	return filepath.Join(s.shown, filepath.FromSlash(rel))
}

// host turns a path relative to the root into an absolute path on the
// host, for tools and packages that read files themselves.
func (s *System) host(rel string) string {
	return filepath.Join(s.root, filepath.FromSlash(rel))
}

// rootName names the root in messages.
func (s *System) rootName() string {
	if s.root == "/" {
		return "this system"
	}
	return s.shown
}

func (s *System) logf(format string, args ...any) {
	fmt.Fprintf(s.log, format+"\n", args...)
}

func (s *System) readFile(rel string) ([]byte, error) {
	data, err := s.r.ReadFile(rel)
	return data, unwrapPath(err)
}

// writeJSON writes v as indented JSON to rel atomically: a temporary
// sibling, synced, renamed over rel, and the directory synced.
func (s *System) writeJSON(rel string, v any, mode fs.FileMode) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return s.writeAtomic(rel, append(data, '\n'), mode, -1, -1)
}

// writeAtomic writes a regular file at rel through a temporary sibling,
// with mode and (when uid >= 0) owner, synced before it is renamed into
// place.
func (s *System) writeAtomic(rel string, data []byte, mode fs.FileMode, uid, gid int) error {
	return s.writeAtomicFrom(rel, bytes.NewReader(data), int64(len(data)), mode, uid, gid)
}

// errTooLarge is a reader of writeAtomicFrom with more than its limit.
var errTooLarge = errors.New("larger than the limit")

// writeAtomicFrom is writeAtomic of what r holds, streamed; more than
// limit bytes is errTooLarge, and nothing is written.
func (s *System) writeAtomicFrom(rel string, r io.Reader, limit int64, mode fs.FileMode, uid, gid int) error {
	return s.replace("writing", rel, fileMaker(rel, r, limit, mode, uid, gid), nil)
}

// symlinkAtomic makes rel a symlink to target, replacing what is there
// (but a directory) in one rename.
func (s *System) symlinkAtomic(target, rel string) error {
	return s.replace("linking", rel, linkMaker(target), nil)
}

// syncDir makes the entries of a directory durable.
func (s *System) syncDir(rel string) error {
	d, err := s.r.Open(rel)
	if err != nil {
		return unwrapPath(err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, syscall.EINVAL) {
		return err
	}
	return nil
}

// syncAll makes everything written below the root durable.
func (s *System) syncAll() error {
	for _, rel := range []string{"etc", stateDir} {
		d, err := s.r.Open(rel)
		if err != nil {
			continue
		}
		err = syncFS(d)
		d.Close()
		if err != nil {
			return err
		}
	}
	return nil
}

// tempName is a fresh name beside rel that nodegen alone writes:
// .NAME.nodegen-RANDOM.
func tempName(rel string) string {
	var b [6]byte
	rand.Read(b[:])
	return path.Join(path.Dir(rel), "."+path.Base(rel)+".nodegen-"+hex.EncodeToString(b[:]))
}

// isTempName reports whether a file name is one tempName makes.
func isTempName(name string) bool {
	i := strings.LastIndex(name, ".nodegen-")
	if !strings.HasPrefix(name, ".") || i < 2 || len(name)-i != len(".nodegen-")+12 {
		return false
	}
	for _, c := range name[i+len(".nodegen-"):] {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

// cleanTemp removes the temporary files that a killed nodegen left: those
// tempName names (copies of profile files, of state.json, symlinks about
// to replace an entry) in etc/, below var/lib/nodegen (the generations
// aside) and beside every path nodegen manages elsewhere (asset links),
// and unfinished downloads in the asset cache.
func (s *System) cleanTemp() error {
	dirs := []string{"etc", stateDir}
	if st, err := s.readState(); err == nil {
		for _, e := range st.Entries {
			dirs = append(dirs, path.Dir(e.Path))
		}
	}
	if j, ok, err := s.readJournal(); err == nil && ok {
		for _, g := range []int{j.From, j.To} {
			if g == 0 {
				continue
			}
			if _, m, err := s.readGeneration(g); err == nil {
				for _, a := range assetPlacements(m) {
					dirs = append(dirs, path.Dir(a.Path))
				}
			}
		}
	}
	seen := map[string]bool{}
	var walk func(dir string, deep bool) error
	walk = func(dir string, deep bool) error {
		if seen[dir] {
			return nil
		}
		seen[dir] = true
		names, err := s.readNames(dir)
		if err != nil {
			return nil // not a directory, or unreadable: nothing of ours
		}
		for _, name := range names {
			rel := path.Join(dir, name)
			if rel == generationsDir {
				continue
			}
			fi, err := s.r.Lstat(rel)
			if err != nil {
				continue
			}
			switch {
			case dir == assetsDir && strings.HasPrefix(name, ".tmp-") && fi.IsDir():
				if err := s.r.RemoveAll(rel); err != nil {
					return fmt.Errorf("removing %s: %w", s.show(rel), unwrapPath(err))
				}
				s.logf("removed the unfinished download %s", s.show(rel))
			case fi.IsDir():
				if deep {
					if err := walk(rel, deep); err != nil {
						return err
					}
				}
			case isTempName(name) && (fi.Mode().IsRegular() || fi.Mode()&fs.ModeSymlink != 0):
				if err := s.r.Remove(rel); err != nil && !errors.Is(err, fs.ErrNotExist) {
					return fmt.Errorf("removing %s: %w", s.show(rel), unwrapPath(err))
				}
				s.logf("removed the temporary file %s", s.show(rel))
			}
		}
		return nil
	}
	for i, d := range dirs {
		if err := walk(d, i < 2); err != nil {
			return err
		}
	}
	return nil
}

// unwrapPath drops the operation and path of an *fs.PathError, which
// messages state themselves.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err
	}
	return err
}
