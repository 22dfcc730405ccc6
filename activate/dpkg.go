package activate

import (
	"bufio"
	"bytes"
	"crypto/md5"
	"encoding/hex"
	"io"
	"path"
	"strings"
)

// dpkgFiles is what the root's dpkg database says of the files below it:
// which package each belongs to, which are conffiles, and the md5 sum
// each had when its package installed it. It is read from the files
// themselves (var/lib/dpkg/status and info/), never through dpkg, so
// that it works below any root.
type dpkgFiles struct {
	s *System
	// owner maps a path (relative to the root) to its package, and info
	// to the package's name in info/ ("libc6:amd64").
	owner map[string]string
	info  map[string]string
	// conffile maps each conffile to the md5 sum dpkg recorded for it in
	// status ("" when dpkg recorded none, as for a newconffile).
	conffile map[string]string
	// sums caches each package's info/PKG.md5sums, by info name.
	sums map[string]map[string]string
	// ucf maps each configuration file that a package's maintainer
	// script installed with ucf (not a dpkg conffile: sshd_config) to the
	// md5 sum ucf recorded for it, and ucfOwner to the package that
	// registered it.
	ucf      map[string]string
	ucfOwner map[string]string
}

// ucf's records, relative to the root: "MD5  /etc/PATH" lines, and
// "PACKAGE  /etc/PATH" lines.
const (
	ucfHashes   = "var/lib/ucf/hashfile"
	ucfRegistry = "var/lib/ucf/registry"
)

// dpkgInfo and dpkgStatus are dpkg's database, relative to the root.
const (
	dpkgInfo   = "var/lib/dpkg/info"
	dpkgStatus = "var/lib/dpkg/status"
)

// readDpkg reads var/lib/dpkg/info/*.list and *.conffiles, and the
// Conffiles: fields of var/lib/dpkg/status, below the root; a root without
// dpkg has none.
func (s *System) readDpkg() *dpkgFiles {
	d := &dpkgFiles{s: s, owner: map[string]string{}, info: map[string]string{}, conffile: map[string]string{}, sums: map[string]map[string]string{}, ucf: map[string]string{}, ucfOwner: map[string]string{}}
	if data, err := s.r.ReadFile(dpkgStatus); err == nil {
		d.readStatus(data)
	}
	if data, err := s.r.ReadFile(ucfHashes); err == nil {
		readPairs(data, func(sum, rel string) {
			if isMD5(sum) {
				d.ucf[rel] = sum
			}
		})
	}
	if data, err := s.r.ReadFile(ucfRegistry); err == nil {
		readPairs(data, func(pkg, rel string) { d.ucfOwner[rel] = pkg })
	}
	names, err := s.readNames(dpkgInfo)
	if err != nil {
		return d
	}
	for _, name := range names {
		base, kind, ok := strings.Cut(name, ".")
		if !ok || kind != "list" && kind != "conffiles" {
			continue
		}
		pkg, _, _ := strings.Cut(base, ":") // libc6:amd64
		data, err := s.r.ReadFile(path.Join(dpkgInfo, name))
		if err != nil {
			continue
		}
		sc := bufio.NewScanner(bytes.NewReader(data))
		for sc.Scan() {
			p := strings.TrimPrefix(strings.TrimSpace(sc.Text()), "remove-on-upgrade ")
			if !strings.HasPrefix(p, "/") {
				continue
			}
			rel := strings.TrimPrefix(path.Clean(p), "/")
			if kind == "conffiles" {
				if _, ok := d.conffile[rel]; !ok {
					d.conffile[rel] = ""
				}
			} else {
				d.owner[rel], d.info[rel] = pkg, base
			}
		}
	}
	return d
}

// readStatus reads the Conffiles: fields of dpkg's status file, whose
// lines are " /etc/PATH MD5 [obsolete] [remove-on-upgrade]" (MD5 is
// "newconffile" until the package is configured).
func (d *dpkgFiles) readStatus(data []byte) {
	in := false
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if !strings.HasPrefix(line, " ") {
			in = strings.HasPrefix(line, "Conffiles:")
			continue
		}
		if !in {
			continue
		}
		f := strings.Fields(line)
		if len(f) < 2 || !strings.HasPrefix(f[0], "/") {
			continue
		}
		rel := strings.TrimPrefix(path.Clean(f[0]), "/")
		if isMD5(f[1]) {
			d.conffile[rel] = f[1]
		} else if _, ok := d.conffile[rel]; !ok {
			d.conffile[rel] = ""
		}
	}
}

func isMD5(s string) bool {
	if len(s) != 32 {
		return false
	}
	_, err := hex.DecodeString(s)
	return err == nil
}

// readPairs calls f with the two fields of each line "A  /PATH" of data
// (ucf's hashfile and registry), PATH relative to the root.
func readPairs(data []byte, f func(a, rel string)) {
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) == 2 && strings.HasPrefix(fields[1], "/") {
			f(fields[0], strings.TrimPrefix(path.Clean(fields[1]), "/"))
		}
	}
}

// unmodified says whether the regular file at rel is its package's, as
// dpkg installed it: a conffile whose md5 sum is the one status records,
// or a file of a package's list whose md5 sum is the one its
// info/PKG.md5sums records; or as a package's maintainer script installed
// it with ucf: a file whose md5 sum is the one ucf's hashfile records.
// what describes it for the plan ("dpkg conffile of containerd,
// unmodified").
func (d *dpkgFiles) unmodified(rel string) (what string, ok bool) {
	pkg, listed := d.owner[rel]
	if !listed {
		return d.ucfUnmodified(rel)
	}
	want, conf := d.conffile[rel]
	if !conf {
		want = d.md5sums(d.info[rel])[rel]
	}
	if want == "" || d.s.md5Of(rel) != want {
		return "", false
	}
	if conf {
		return "dpkg conffile of " + pkg + ", unmodified", true
	}
	return "file of the package " + pkg + ", unmodified", true
}

// ucfUnmodified says whether rel is a file ucf installed for a package
// and nobody changed since: its md5 sum is the one ucf recorded.
func (d *dpkgFiles) ucfUnmodified(rel string) (what string, ok bool) {
	want := d.ucf[rel]
	if want == "" || d.s.md5Of(rel) != want {
		return "", false
	}
	if pkg := d.ucfOwner[rel]; pkg != "" {
		return "configuration file of " + pkg + " (ucf), unmodified", true
	}
	return "configuration file installed with ucf, unmodified", true
}

// md5sums reads info/NAME.md5sums ("MD5  PATH" lines, PATH without its
// leading slash), once.
func (d *dpkgFiles) md5sums(name string) map[string]string {
	if m, ok := d.sums[name]; ok {
		return m
	}
	m := map[string]string{}
	d.sums[name] = m
	data, err := d.s.r.ReadFile(path.Join(dpkgInfo, name+".md5sums"))
	if err != nil {
		return m
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		sum, p, ok := strings.Cut(sc.Text(), "  ")
		if ok && isMD5(sum) {
			m[strings.TrimPrefix(path.Clean("/"+p), "/")] = sum
		}
	}
	return m
}

// md5Of is the md5 sum of the file at rel, "" when it cannot be read.
func (s *System) md5Of(rel string) string {
	f, err := s.r.Open(rel)
	if err != nil {
		return ""
	}
	defer f.Close()
	h := md5.New()
	if _, err := io.Copy(h, f); err != nil {
		return ""
	}
	return hex.EncodeToString(h.Sum(nil))
}

// whose says which package a path belongs to, for a conflict: "the
// package chrony's conffile (dpkg), edited since it was installed", or ""
// when dpkg lists it for none.
func (d *dpkgFiles) whose(rel string) string {
	pkg, ok := d.owner[rel]
	if !ok {
		if want := d.ucf[rel]; want != "" {
			owner := d.ucfOwner[rel]
			if owner == "" {
				owner = "a package"
			}
			return "the configuration file of " + owner + " (ucf), edited since it was installed,"
		}
		return ""
	}
	if want, conf := d.conffile[rel]; conf {
		if want != "" {
			return "the package " + pkg + "'s conffile (dpkg), edited since it was installed,"
		}
		return "the package " + pkg + "'s conffile (dpkg)"
	}
	if d.md5sums(d.info[rel])[rel] != "" {
		return "a file of the package " + pkg + " (dpkg), changed since it was installed,"
	}
	return "a file of the package " + pkg + " (dpkg)"
}
