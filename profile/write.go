package profile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"unicode"
	"unicode/utf8"

	"github.com/nodegen/nodegen/profilecheck"
)

// Entry is one path of a profile: a regular file or a symlink below etc/.
type Entry struct {
	// Target is the path below etc/, e.g. "systemd/system/kubelet.service".
	// It must be relative and clean, without "." or ".." elements.
	Target string
	// Content is the content of a regular file.
	Content []byte
	// Link is the target of a symlink (an absolute path), when Mode is
	// "symlink".
	Link string
	// Mode is the permission bits of a regular file as octal digits, "0644"
	// or "644", or "symlink".
	Mode string
	// User and Group own the file once installed; "root" when empty. They
	// are recorded in the manifest: the profile's files themselves belong
	// to whoever writes the profile.
	User, Group string
	// Option is the option path that produced the entry, e.g.
	// environment.etc."hostname". Errors and the manifest name it.
	Option string
	// Checks validate a regular file with the programs that read it
	// (environment.etc.NAME.checks).
	Checks []profilecheck.ProgramCheck
}

// Profile is what Write writes: the entries of etc/ and the warnings of the
// evaluation that produced them.
type Profile struct {
	Entries  []Entry
	Warnings []string
	// Assets and Packages are the binaries the profile needs (see Asset).
	Assets   []Asset
	Packages []Package
	// PackageProxy is the HTTP proxy apt-get installs Packages through
	// (see ValidatePackageProxy); "" for none.
	PackageProxy string
	// ImagePrograms are the programs it leaves to the image (see
	// ImagePrograms).
	ImagePrograms []ImageProgram
}

// EntryError is an invalid entry given to Write.
type EntryError struct {
	Target string // the entry's Target
	Option string // the entry's Option
	Reason string
}

// Error says which entry is wrong, the option that produced it, and why.
// A target or option with a control character or invalid UTF-8 is quoted.
func (e *EntryError) Error() string {
	target := printable("etc/" + e.Target)
	if e.Option == "" {
		return fmt.Sprintf("profile entry %s: %s", target, e.Reason)
	}
	return fmt.Sprintf("profile entry %s (from %s): %s", target, printable(e.Option), e.Reason)
}

// printable returns s, or s quoted as a Go string when printing it as it is
// would be misleading: it has a control character (a newline, a NUL) or is
// not valid UTF-8.
func printable(s string) string {
	if utf8.ValidString(s) && strings.IndexFunc(s, unicode.IsControl) < 0 {
		return s
	}
	return strconv.Quote(s)
}

// failpoint is called at the stages of Write; tests make it fail. A stage is
// "entry <target>" after each entry is written, "manifest", "swap" before
// the swap, "backup" after the old profile was renamed to its backup, and
// "installed" after the new profile was renamed into place.
var failpoint = func(stage string) error { return nil }

// errCrash, returned by failpoint, makes Write stop at once without cleaning
// up, as if the process had died there.
var errCrash = errors.New("simulated crash")

// errExchangeUnsupported is exchangeDirs' answer where directories cannot
// be swapped in one step; Write then swaps with two renames.
var errExchangeUnsupported = errors.New("atomic exchange not supported")

// exchange swaps two directories in one step (exchangeDirs); tests replace
// it to exercise the two-rename swap.
var exchange = exchangeDirs

// isMode reports whether mode is permission bits as three octal digits,
// with a leading 0 or not: "644", "0644".
func isMode(mode string) bool {
	if len(mode) == 4 && mode[0] == '0' {
		mode = mode[1:]
	}
	if len(mode) != 3 {
		return false
	}
	for i := 0; i < len(mode); i++ {
		if mode[i] < '0' || mode[i] > '7' {
			return false
		}
	}
	return true
}

// Write writes p as a profile directory at dir, atomically.
//
// It first validates every entry: a target that is not relative and clean,
// the same target twice, a target below another entry, a bad mode, a
// symlink without an absolute Link or a file with one, and a bad user or
// group are errors naming the entry and its option, and nothing is written.
//
// It then builds the profile in a fresh sibling directory,
// .DIR.nodegen-new-ID (see the package documentation): the
// files below etc/ with their modes (set explicitly, whatever the umask),
// symlinks as symlinks, directories 0755, and the manifest
// nodegen-profile.json (see Manifest), all synced to disk. Last it swaps the
// new directory into place. On Linux an existing profile at dir and the new
// one trade places in one step (renameat2 RENAME_EXCHANGE), so dir always
// holds one whole profile, the old or the new, and the old one (now at the
// temporary name) is removed. Where that is not supported, the old profile
// is renamed to .DIR.nodegen-old-ID, the new one renamed to dir, and the
// old one removed; if the second rename fails, the old profile is renamed
// back. A failed Write thus leaves the previous profile as it was, and so
// does a crash: the sibling directories a crash leaves behind are never read
// as the profile, and the next Write removes them (only those it can prove
// a Write left), after renaming the backup back to dir when a crash came
// between the two renames.
//
// On Linux, a file or symlink that the profile at dir has unchanged (the
// same content, mode, owner and extended attributes and no other name; the
// same target) is linked into the new profile rather than created again,
// which costs a directory entry instead of an inode; see reuser. The
// profile written is the same as one written anew, but for the files'
// times; until the old profile is removed, at the end of Write, the two
// share those inodes, so a program that writes into the old profile's
// files in place meanwhile writes into the new one's.
//
// Write refuses to replace a dir that is not a profile: a symlink, not a
// directory, or a non-empty directory that is not a whole profile, with a
// manifest that parses and matches the directory (the error says what does
// not match). Concurrent Writes in the same parent directory take turns
// (with flock, where it works).
//
// The output is byte-for-byte deterministic: the same Profile gives the same
// tree and the same manifest, whatever the order of its entries.
//
// Begin starts the same write before the profile is known, so that its
// file system work overlaps the evaluation (see Pending).
func Write(dir string, p Profile) error {
	return write(dir, p, true)
}

// WriteUnsynced writes p as a profile directory at dir as Write does, but
// leaves flushing it to disk to a later Sync: it is how many profiles are
// written with one sync between them (nodegen build). The profile is
// installed as atomically as by Write while the system runs: a crash of the
// process leaves dir holding the old profile or the new one, whole. Until
// Sync returns, though, a power loss may leave dir with files of the new
// profile missing or empty.
func WriteUnsynced(dir string, p Profile) error {
	return write(dir, p, false)
}

// Sync makes durable every profile written below dir with WriteUnsynced:
// on Linux, one syncfs(2) of the file system holding dir; elsewhere, an
// fsync of every file and directory below dir, and of dir.
func Sync(dir string) error {
	return syncTree(dir)
}

// write is Write; sync false leaves out every sync (see WriteUnsynced).
// It does the steps of a Pending one after the other, in the order Write
// documents: nothing is touched before the profile is found valid.
func write(dir string, p Profile, sync bool) error {
	w := &Pending{dir: dir, sync: sync}
	w.Entries(p.Entries)
	return w.Commit(p)
}

// target is where a write installs its profile, and what it has prepared
// there: the lock on the parent directory, whether a profile is there to
// replace, and the sibling directory the new profile is built in.
type target struct {
	shown       string // dir, for messages
	abs, parent string
	base        string
	unlock      func()
	exists      bool   // a profile (or an empty directory) is at abs
	id          string // names the write's sibling directories
	tmp, marker string // the new profile's directory and its marker
}

// prepare does what a write to dir (abs, made absolute) does before it
// builds the new profile's tree: it creates the parent directory, takes
// the lock, cleans up after writes that crashed, checks that dir may be
// replaced, and makes the sibling directory with its marker. On error,
// nothing is left locked or made.
func prepare(dir, abs string, recovered bool) (_ *target, err error) {
	t := &target{shown: printable(dir), abs: abs} // shown: in messages
	t.parent, t.base = filepath.Dir(abs), filepath.Base(abs)
	if t.base == "." || t.base == string(filepath.Separator) || t.base == ".." {
		return nil, fmt.Errorf("cannot write a profile to %s", t.shown)
	}
	if err := os.MkdirAll(t.parent, 0o755); err != nil {
		return nil, err
	}
	unlock := lockDir(t.parent)
	t.unlock = unlock
	defer func() {
		if err != nil {
			unlock()
		}
	}()
	if !recovered {
		if err := recoverSiblings(t.parent, t.base); err != nil {
			return nil, err
		}
	}
	if t.exists, err = checkReplaceable(abs, t.shown); err != nil {
		return nil, err
	}
	if t.id, err = newSiblingID(); err != nil {
		return nil, err
	}
	t.tmp = filepath.Join(t.parent, "."+t.base+newInfix+t.id)
	if err := os.Mkdir(t.tmp, 0o700); err != nil {
		return nil, err
	}
	t.marker = filepath.Join(t.tmp, markerName)
	if err := writeFile(t.marker, markerContent(t.tmp), 0o644); err != nil {
		removeOwnDir(t.tmp)
		return nil, err
	}
	return t, nil
}

// old returns the profile the new one replaces, "" when there is none.
func (t *target) old() string {
	if t.exists {
		return t.abs
	}
	return ""
}

// install finishes a write whose tree and manifest are built at t.tmp:
// it removes the marker and swaps the new profile into place (see Write).
// An error other than a simulated crash leaves t.tmp for the caller to
// remove.
func (t *target) install(sync bool) error {
	syncDir := syncDir
	if !sync {
		syncDir = func(string) error { return nil }
	}
	abs, parent, tmp := t.abs, t.parent, t.tmp
	// Whole now, the new profile is recognised by its manifest. The
	// removal is synced before the swap, so that no power loss installs a
	// profile with the marker in it.
	if err := os.Remove(t.marker); err != nil {
		return err
	}
	if err := syncDir(tmp); err != nil {
		return err
	}
	if err := failpoint("swap"); err != nil {
		return err
	}

	if !t.exists {
		if err := os.Rename(tmp, abs); err != nil {
			return err
		}
		return syncDir(parent)
	}
	switch err := exchange(tmp, abs); {
	case err == nil:
		// The old profile is at tmp now.
		if err := syncDir(parent); err != nil {
			return err
		}
		if err := failpoint("installed"); err != nil {
			return err
		}
		_ = removeOwnDir(tmp)
		return nil
	case !errors.Is(err, errExchangeUnsupported):
		return err
	}
	backup := filepath.Join(parent, "."+t.base+oldInfix+t.id)
	if _, err := os.Lstat(backup); !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("cannot move the old profile aside: %s exists", backup)
	}
	if err := os.Rename(abs, backup); err != nil {
		return err
	}
	restore := func(err error) error {
		if errors.Is(err, errCrash) {
			return err
		}
		if rerr := os.Rename(backup, abs); rerr != nil {
			return fmt.Errorf("%w; restoring the old profile from %s failed too: %v", err, backup, rerr)
		}
		return err
	}
	if err := failpoint("backup"); err != nil {
		return restore(err)
	}
	if err := os.Rename(tmp, abs); err != nil {
		return restore(err)
	}
	if err := syncDir(parent); err != nil {
		return err
	}
	if err := failpoint("installed"); err != nil {
		return err
	}
	// The new profile is in place; a backup left behind here is removed by
	// the next Write.
	_ = removeOwnDir(backup)
	return nil
}

// validate checks the entries, fills in defaults and returns them sorted by
// target.
func validate(in []Entry) ([]Entry, error) {
	var errs []*EntryError
	entries := make([]Entry, 0, len(in))
	for _, e := range in {
		bad := func(format string, args ...any) {
			errs = append(errs, &EntryError{Target: e.Target, Option: e.Option, Reason: fmt.Sprintf(format, args...)})
		}
		if e.User == "" {
			e.User = "root"
		}
		if e.Group == "" {
			e.Group = "root"
		}
		if reason := checkTarget(e.Target); reason != "" {
			bad("%s", reason)
		} else if reason := profilecheck.UnitPathProblem(e.Target); reason != "" {
			bad("%s", reason)
		}
		switch {
		case e.Mode == TypeSymlink:
			if !validLink(e.Link) {
				bad("a symlink needs an absolute link target without control characters, not %q", e.Link)
			}
			if len(e.Content) > 0 {
				bad("a symlink cannot have content")
			}
		case isMode(e.Mode):
			if len(e.Mode) == 3 {
				e.Mode = "0" + e.Mode
			}
			if e.Link != "" {
				bad("a link target %q is only for mode \"symlink\", not %q", e.Link, e.Mode)
			}
		default:
			bad("bad mode %q: want octal permissions such as \"0644\", or \"symlink\"", e.Mode)
		}
		for _, owner := range []struct{ what, name string }{{"user", e.User}, {"group", e.Group}} {
			if strings.IndexFunc(owner.name, func(r rune) bool {
				return r == ':' || r == '/' || unicode.IsSpace(r) || unicode.IsControl(r)
			}) >= 0 {
				bad("bad %s %q", owner.what, owner.name)
			}
		}
		entries = append(entries, e)
	}

	sort.SliceStable(entries, func(i, j int) bool { return entries[i].Target < entries[j].Target })
	errs = append(errs, treeProblems(entries)...)
	if len(errs) > 0 {
		sort.SliceStable(errs, func(i, j int) bool { return errs[i].Target < errs[j].Target })
		list := make([]error, len(errs))
		for i, e := range errs {
			list[i] = e
		}
		return nil, errors.Join(list...)
	}
	return entries, nil
}

// treeProblems checks that entries, sorted by target, make a tree that
// can be written without following a link of its own: each target once,
// and none below another entry (a file or symlink at one of its parent
// paths). Write checks it before it writes, and so does ParseManifest for
// every reader of a profile: nodegen receive, which makes the profile's
// symlinks, could otherwise be made to write through one.
func treeProblems(entries []Entry) []*EntryError {
	var errs []*EntryError
	byTarget := make(map[string]Entry, len(entries))
	for i, e := range entries {
		if i > 0 && entries[i-1].Target == e.Target {
			errs = append(errs, &EntryError{Target: e.Target, Option: e.Option,
				Reason: fmt.Sprintf("also defined by %s", OrUnnamed(entries[i-1].Option))})
			continue
		}
		byTarget[e.Target] = e
	}
	for _, e := range entries {
		for d := path.Dir(e.Target); d != "." && d != "/"; d = path.Dir(d) {
			if above, ok := byTarget[d]; ok {
				errs = append(errs, &EntryError{Target: e.Target, Option: e.Option,
					Reason: fmt.Sprintf("is below etc/%s, which %s makes a %s", d, OrUnnamed(above.Option), kindOf(above))})
				break
			}
		}
	}
	return errs
}

// OrUnnamed is option, or "an unnamed option" when it is "": how the
// profile's messages and manifest name the option of an entry that has
// none.
func OrUnnamed(option string) string {
	if option == "" {
		return "an unnamed option"
	}
	return option
}

func kindOf(e Entry) string {
	if e.Mode == TypeSymlink {
		return "symlink"
	}
	return "file"
}

// validLink reports whether link is a valid symlink target in a profile:
// absolute, and without control characters (which a file name may have,
// but which would print as something else).
func validLink(link string) bool {
	return strings.HasPrefix(link, "/") && strings.IndexFunc(link, unicode.IsControl) < 0
}

// maxNameLen is the longest file name (one element of a path) that Linux
// file systems allow, in bytes.
const maxNameLen = 255

// maxTargetLen bounds the length of a target, so that the path of a file
// in a profile stays below Linux's PATH_MAX (4096 bytes with its NUL).
const maxTargetLen = 3072

// checkTarget returns why target is not a valid path below etc/, or "".
func checkTarget(target string) string {
	switch {
	case target == "":
		return "the target is empty"
	case target == ".":
		return "the target must name a file below etc/, not etc/ itself"
	case strings.HasPrefix(target, "/"):
		return "the target must be relative to etc/, not absolute"
	case strings.IndexFunc(target, unicode.IsControl) >= 0:
		return "the target contains a control character"
	case !utf8.ValidString(target):
		return "the target is not valid UTF-8"
	case path.Clean(target) != target:
		return fmt.Sprintf("the target is not clean (want %q)", path.Clean(target))
	case len(target) > maxTargetLen:
		return fmt.Sprintf("the target is %d bytes long; at most %d are allowed", len(target), maxTargetLen)
	}
	for _, elem := range strings.Split(target, "/") {
		if elem == ".." {
			return "the target must not contain \"..\""
		}
		if len(elem) > maxNameLen {
			return fmt.Sprintf("the file name %.20q... is %d bytes long; file systems allow at most %d", elem, len(elem), maxNameLen)
		}
	}
	return ""
}

// checkReplaceable reports whether abs exists, and refuses to go on when it
// exists but is not a profile (see checkProfile) or an empty directory.
// Errors call it dir.
func checkReplaceable(abs, dir string) (bool, error) {
	fi, err := os.Lstat(abs)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		to, _ := os.Readlink(abs)
		return true, fmt.Errorf("%s is a symbolic link (to %s); refusing to replace it with a profile: give the directory itself as the output", dir, printable(to))
	}
	if !fi.IsDir() {
		return true, fmt.Errorf("%s exists and is not a directory; refusing to replace it with a profile", dir)
	}
	names, err := readNames(abs)
	if err != nil {
		return true, err
	}
	if len(names) == 0 {
		return true, nil
	}
	if err := checkProfile(abs); err != nil {
		return true, fmt.Errorf("%s exists and is not a nodegen profile (%v); refusing to replace it: remove it or choose another output directory", dir, err)
	}
	return true, nil
}

func readNames(dir string) ([]string, error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return f.Readdirnames(-1)
}

// recoverSiblings cleans up after a Write that crashed (see the package
// documentation): if the profile is missing but a sibling .BASE.nodegen-old-ID
// is a whole profile (a crash between the two renames), that backup is
// renamed back; then every sibling .BASE.nodegen-new-ID and
// .BASE.nodegen-old-ID that Write provably left (leftBehind) is removed. Any
// other directory is left alone, whatever its name.
func recoverSiblings(parent, base string) error {
	names, err := readNames(parent)
	if err != nil {
		return err
	}
	return recoverFrom(parent, base, names)
}

// recoverFrom is recoverSiblings with the names of parent's entries read
// beforehand (names may hold others than base's siblings).
func recoverFrom(parent, base string, names []string) error {
	sort.Strings(names)
	var news, backups []string
	for _, n := range names {
		switch {
		case isSiblingName(n, "."+base+newInfix):
			news = append(news, filepath.Join(parent, n))
		case isSiblingName(n, "."+base+oldInfix):
			backups = append(backups, filepath.Join(parent, n))
		}
	}
	abs := filepath.Join(parent, base)
	if _, err := os.Lstat(abs); errors.Is(err, fs.ErrNotExist) {
		for i, b := range backups {
			if !isDir(b) || checkProfile(b) != nil {
				continue
			}
			if err := os.Rename(b, abs); err != nil {
				return fmt.Errorf("restoring the previous profile from %s: %w", b, err)
			}
			backups = append(backups[:i], backups[i+1:]...)
			break
		}
	}
	for _, d := range append(news, backups...) {
		if !leftBehind(d) {
			continue
		}
		if err := removeOwnDir(d); err != nil {
			return fmt.Errorf("removing a leftover of an interrupted write: %w", err)
		}
	}
	return nil
}

// buildTree writes the entries into root, an empty directory but for the
// marker (finishTree adds the manifest and syncs). old is the profile
// the new one replaces ("" when there is none): the files and symlinks it
// has unchanged become names of the new profile (see reuser).
func buildTree(root, old string, entries []Entry) error {
	if err := os.Chmod(root, 0o755); err != nil {
		return err
	}
	if top, njobs := planTree(filepath.Join(root, "etc"), entries); top != nil {
		mk := newEntryMaker(root, old)
		err := createTree(top, njobs, mk)
		mk.close()
		if err != nil {
			return err
		}
	}
	return nil
}

// finishTree writes the manifest of the profile buildTree built at root,
// with mode (Manifest.DescriptionMode), and, if sync, syncs the whole tree
// to disk.
func finishTree(root string, manifest []byte, mode fs.FileMode, sync bool) error {
	if err := writeFile(filepath.Join(root, ManifestName), manifest, mode); err != nil {
		return err
	}
	if err := failpoint("manifest"); err != nil {
		return err
	}
	if !sync {
		return nil
	}
	return syncTree(root)
}

// writeFile creates p (which must not exist) with content and mode, set
// explicitly so that the umask does not matter. syncTree makes it durable.
func writeFile(p string, content []byte, mode fs.FileMode) error {
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	_, err = f.Write(content)
	if err == nil {
		err = f.Chmod(mode)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// syncDir flushes a directory's entries to disk, where the file system
// supports it.
func syncDir(dir string) error {
	f, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = f.Sync()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if errors.Is(err, syscall.EINVAL) || errors.Is(err, syscall.ENOTSUP) {
		return nil
	}
	return err
}
