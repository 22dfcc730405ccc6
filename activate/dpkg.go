package activate

import (
	"bufio"
	"bytes"
	"path"
	"strings"
)

// dpkgFiles maps the paths the root's dpkg database lists (relative to the
// root) to their packages, and marks the conffiles.
type dpkgFiles struct {
	owner    map[string]string
	conffile map[string]bool
}

// readDpkg reads var/lib/dpkg/info/*.list and *.conffiles below the root;
// a root without dpkg has none.
func (s *System) readDpkg() *dpkgFiles {
	d := &dpkgFiles{owner: map[string]string{}, conffile: map[string]bool{}}
	const info = "var/lib/dpkg/info"
	names, err := s.readNames(info)
	if err != nil {
		return d
	}
	for _, name := range names {
		pkg, kind, ok := strings.Cut(name, ".")
		if !ok || kind != "list" && kind != "conffiles" {
			continue
		}
		pkg, _, _ = strings.Cut(pkg, ":") // libc6:amd64
		data, err := s.r.ReadFile(path.Join(info, name))
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
				d.conffile[rel] = true
			} else {
				d.owner[rel] = pkg
			}
		}
	}
	return d
}

// whose says which package a path belongs to: "the file of the package
// chrony (a conffile)", or "" when dpkg lists it for none.
func (d *dpkgFiles) whose(rel string) string {
	pkg, ok := d.owner[rel]
	if !ok {
		return ""
	}
	if d.conffile[rel] {
		return "the package " + pkg + "'s conffile"
	}
	return "a file of the package " + pkg
}
