package activate

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"strings"

	"github.com/nodegen/nodegen/profile"
)

// This file holds what a switch does for the programs of a profile beyond
// its assets and packages: it keeps a copy of nodegen itself where the
// library's units run it (system.nodegen.path's default), and it checks,
// before anything changes, that the programs the profile leaves to the
// image are on the system.

// selfDir holds the copy of nodegen that every switch keeps: the file
// nodegen-HASH, and the link nodegen to it, which the units run.
const (
	selfDir  = stateDir + "/bin"
	selfLink = selfDir + "/nodegen"
)

// selfExecutable returns the path of the running nodegen; a variable for
// tests.
var selfExecutable = os.Executable

// maxSelfSize bounds the copy of nodegen.
const maxSelfSize = 1 << 30

// installSelf keeps a copy of the running nodegen at
// var/lib/nodegen/bin/nodegen, so that the units that run nodegen (such
// as kube-certs.service) find it whichever way it came to the machine (by
// hand, or as nodegen deploy's nodegen-HASH): the executable is copied to
// nodegen-HASH (the first 16 hex digits of its SHA-256) unless a file with
// its content is there, the link nodegen is pointed at it in one rename,
// and older copies are removed.
func (s *System) installSelf() error {
	exe, err := selfExecutable()
	if err != nil {
		return fmt.Errorf("keeping a copy of nodegen: finding its executable: %w", err)
	}
	f, err := os.Open(exe)
	if err != nil {
		return fmt.Errorf("keeping a copy of nodegen: %w", err)
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, io.LimitReader(f, maxSelfSize+1)); err != nil {
		return fmt.Errorf("keeping a copy of nodegen: reading %s: %w", exe, err)
	}
	sum := hex.EncodeToString(h.Sum(nil))
	name := "nodegen-" + sum[:16]
	rel := path.Join(selfDir, name)
	if err := s.r.MkdirAll(selfDir, 0o755); err != nil {
		return fmt.Errorf("keeping a copy of nodegen: creating %s: %w", s.show(selfDir), unwrapPath(err))
	}
	if have, err := s.sha256Of(rel); err != nil || have != sum {
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			return fmt.Errorf("keeping a copy of nodegen: %w", err)
		}
		s.logf("keeping a copy of this nodegen at %s", s.show(selfLink))
		if err := s.writeAtomicFrom(rel, f, maxSelfSize, 0o755, -1, -1); err != nil {
			return fmt.Errorf("keeping a copy of nodegen: %w", err)
		}
	}
	if target, err := s.r.Readlink(selfLink); err != nil || target != name {
		if err := s.symlinkAtomic(name, selfLink); err != nil {
			return fmt.Errorf("keeping a copy of nodegen: %w", err)
		}
		if err := s.syncDir(selfDir); err != nil {
			return fmt.Errorf("keeping a copy of nodegen: %w", err)
		}
	}
	// A unit still running an older copy keeps its file open.
	names, err := s.readNames(selfDir)
	if err != nil {
		return fmt.Errorf("keeping a copy of nodegen: %w", err)
	}
	for _, n := range names {
		if strings.HasPrefix(n, "nodegen-") && n != name {
			if err := s.r.Remove(path.Join(selfDir, n)); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return fmt.Errorf("keeping a copy of nodegen: removing %s: %w", s.show(path.Join(selfDir, n)), unwrapPath(err))
			}
		}
	}
	return nil
}

// MissingProgram is a program a profile leaves to the image that is not
// on the system.
type MissingProgram struct {
	profile.ImageProgram
	// Reason says what is there instead.
	Reason string
}

// ImageProgramsError lists the programs a profile leaves to the image
// (environment.providedByImage) that are not on the system; a switch that
// meets it changed nothing.
type ImageProgramsError struct {
	// Root is the system's root, as the user gave it.
	Root    string
	Missing []MissingProgram
}

func (e *ImageProgramsError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d program(s) that the profile leaves to the image are not on the system", len(e.Missing))
	if e.Root != "/" {
		fmt.Fprintf(&b, " in %s", e.Root)
	}
	b.WriteString("; nothing was changed:")
	for _, m := range e.Missing {
		fmt.Fprintf(&b, "\n  %s (run by %s): %s", m.Path, m.Option, m.Reason)
	}
	b.WriteString("\nput them in the image, or let the profile install them (environment.assets, environment.packages; services.kubernetes.release.skipInstall = false)")
	return b.String()
}

// checkImagePrograms checks that each program of m's ImagePrograms is an
// executable file on the system (symbolic links followed inside the root).
func (s *System) checkImagePrograms(m profile.Manifest) error {
	var missing []MissingProgram
	for _, p := range m.ImagePrograms {
		if why := s.notExecutable(p.Path); why != "" {
			missing = append(missing, MissingProgram{p, why})
		}
	}
	if len(missing) > 0 {
		return &ImageProgramsError{Root: s.shown, Missing: missing}
	}
	return nil
}

// notExecutable says why the absolute path p is not an executable file
// below the root; "" when it is.
func (s *System) notExecutable(p string) string {
	rel, err := s.resolve(p)
	if err != nil {
		return err.Error()
	}
	fi, err := s.r.Lstat(rel)
	switch {
	case err != nil:
		return unwrapPath(err).Error()
	case fi.IsDir():
		return "a directory"
	case !fi.Mode().IsRegular():
		return "not a regular file"
	case fi.Mode()&0o111 == 0:
		return fmt.Sprintf("not executable (mode %04o)", fi.Mode().Perm())
	}
	return ""
}

// maxLinks bounds the symbolic links resolve follows, as the kernel's
// ELOOP does.
const maxLinks = 40

// resolve returns the path, relative to the root, that the absolute path
// p names on the system: each symbolic link on the way is followed as the
// system sees it, an absolute target from the root (os.Root follows only
// relative ones), never above it.
func (s *System) resolve(p string) (string, error) {
	todo := strings.Split(strings.TrimPrefix(p, "/"), "/")
	var done []string
	links := 0
	for len(todo) > 0 {
		name := todo[0]
		todo = todo[1:]
		switch name {
		case "", ".":
			continue
		case "..":
			if len(done) > 0 {
				done = done[:len(done)-1]
			}
			continue
		}
		rel := path.Join(append(done, name)...)
		fi, err := s.r.Lstat(rel)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return "", errors.New("no such file")
			}
			return "", unwrapPath(err)
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			if len(todo) > 0 && !fi.IsDir() {
				return "", fmt.Errorf("/%s is not a directory", rel)
			}
			done = append(done, name)
			continue
		}
		if links++; links > maxLinks {
			return "", errors.New("too many levels of symbolic links")
		}
		target, err := s.r.Readlink(rel)
		if err != nil {
			return "", unwrapPath(err)
		}
		if strings.HasPrefix(target, "/") {
			done = nil
		}
		todo = append(strings.Split(target, "/"), todo...)
	}
	if len(done) == 0 {
		return ".", nil
	}
	return path.Join(done...), nil
}
