package activate

import (
	"io/fs"
	"path"
	"slices"
	"strings"

	"github.com/nodegen/nodegen/internal/unitfile"
)

// StockFile is a file in the way of a profile's entry that the OS
// installer or a package put there and nobody changed since: a switch
// takes it over without --backup, moving it aside as --backup does (it
// comes back when nodegen stops managing the path: deactivate, or a
// rollback or switch to a generation without it).
type StockFile struct {
	// Path is relative to the root ("etc/hostname").
	Path string `json:"path"`
	// What says whose it is and why it is taken over ("dpkg conffile of
	// containerd, unmodified").
	What string `json:"what"`
}

// installerFiles are the files an OS installer writes for the machine
// (debootstrap, debian-installer, cloud-init): always per machine, so
// taken over whatever they hold; an admin's edit is kept in the backup.
var installerFiles = map[string]bool{
	"etc/hostname": true,
	"etc/hosts":    true,
	// The resolver the installer found (debootstrap copies the building
	// host's, cloud-init and the Debian installer write the network's):
	// a profile that sets networking.nameservers replaces it. It may be a
	// symlink instead (cloud images, systemd-resolved's package).
	"etc/resolv.conf": true,
}

// debSystemdHelper is where Debian's deb-systemd-helper records the enable
// links that packages' maintainer scripts made.
const debSystemdHelper = "var/lib/systemd/deb-systemd-helper-enabled"

// stock says whether what is on disk at t.Path, in the way of the profile's
// entry t and not nodegen's, is a stock file the switch takes over (see
// StockFile), and describes it.
func (s *System) stock(p *Plan, t Placement, d onDisk) (what string, ok bool) {
	if installerFiles[t.Path] && d.fi.Mode()&fs.ModeSymlink != 0 {
		// A cloud image's or systemd-resolved's package's resolver link
		// (to ../run/systemd/resolve/stub-resolv.conf) is the machine's
		// as much as a file the installer wrote there.
		return "the machine's own symlink to " + d.link + " (the OS installer's or a package's)", true
	}
	switch {
	case d.fi.Mode().IsRegular():
		if installerFiles[t.Path] {
			return "written by the OS installer for this machine", true
		}
		return s.dpkgOf(p).unmodified(t.Path)
	case d.fi.Mode()&fs.ModeSymlink != 0 && t.Kind != KindSymlink:
		return s.packageAlias(p, t.Path, d.link)
	case d.fi.Mode()&fs.ModeSymlink != 0 && t.Kind == KindSymlink:
		if what, ok := s.packageAlias(p, t.Path, d.link); ok {
			return what, true
		}
		unit, ok := enablesSame(t.Path, d.link, t.Target)
		if !ok {
			return "", false
		}
		what = "enable link of " + unit
		if _, err := s.r.Lstat(path.Join(debSystemdHelper, strings.TrimPrefix(t.Path, "etc/systemd/system/"))); err == nil {
			what = "a package's enable link of " + unit
		}
		for _, dir := range []string{"lib/systemd/system/", "usr/lib/systemd/system/"} {
			if pkg, ok := s.dpkgOf(p).owner[dir+path.Base(d.link)]; ok {
				what = "enable link of " + unit + " from the package " + pkg
			}
		}
		return what + ", which the profile enables too", true
	}
	return "", false
}

// dpkgOf returns the root's dpkg database, read on p's first use.
func (s *System) dpkgOf(p *Plan) *dpkgFiles {
	if p.dpkg == nil {
		p.dpkg = s.readDpkg()
	}
	return p.dpkg
}

// enablesSame says whether a symlink at rel pointing to onDisk and the
// profile's symlink there pointing to want both enable the same unit: rel
// is a link in /etc/systemd/system/UNIT.{wants,requires,upholds}/, as
// systemctl enable and packages make them, and the link there now points
// to the profile's target, or to a file of the unit rel names (its
// template, for an instance). The unit is rel's name.
func enablesSame(rel, onDisk, want string) (unit string, ok bool) {
	dir, unit := path.Split(rel)
	dir = strings.TrimSuffix(dir, "/")
	if path.Dir(dir) != "etc/systemd/system" {
		return "", false
	}
	switch path.Ext(dir) {
	case ".wants", ".requires", ".upholds":
	default:
		return "", false
	}
	if onDisk == want {
		return unit, true
	}
	target := path.Base(onDisk)
	if target == unit {
		return unit, true
	}
	// An instance (getty@tty1.service) links to its template
	// (getty@.service).
	if at := strings.Index(unit, "@"); at > 0 && target == unit[:at+1]+path.Ext(unit) {
		return unit, true
	}
	return "", false
}

// packageAlias says whether the symlink at rel, pointing to onDisk, is an
// alias that systemctl enable made for a package's unit: rel is
// /etc/systemd/system/NAME, onDisk a unit file of a package in
// /lib/systemd/system or /usr/lib/systemd/system, and that unit lists
// NAME in its [Install] section's Alias= (Debian's ssh.service makes
// sshd.service, chrony.service chronyd.service). A profile's unit of that
// name replaces the alias; the module that declares it conflicts with the
// package's unit, so that only one of them runs.
func (s *System) packageAlias(p *Plan, rel, onDisk string) (what string, ok bool) {
	dir, name := path.Split(rel)
	if dir != "etc/systemd/system/" {
		return "", false
	}
	target := strings.TrimPrefix(path.Clean(onDisk), "/")
	if d, _ := path.Split(target); d != "lib/systemd/system/" && d != "usr/lib/systemd/system/" {
		return "", false
	}
	pkg, owned := s.dpkgOf(p).owner[target]
	if !owned {
		return "", false
	}
	data, err := s.r.ReadFile(target)
	if err != nil {
		return "", false
	}
	for _, st := range unitfile.Parse(string(data)) {
		if st.Section == "Install" && st.Key == "Alias" && slices.Contains(strings.Fields(st.Value), name) {
			return "alias " + name + " of " + path.Base(target) + " from the package " + pkg + ", made by systemctl enable", true
		}
	}
	return "", false
}
