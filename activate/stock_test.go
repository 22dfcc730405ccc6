package activate

import (
	"crypto/md5"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/nodegen/nodegen/profile"
)

// The stock files of the root stockRoot makes: what debootstrap and
// Debian's containerd package put in /etc.
const (
	stockHostname   = "debian\n"
	stockHosts      = "127.0.0.1\tlocalhost\n::1\t\tlocalhost ip6-localhost ip6-loopback\n"
	stockConfig     = "#   Copyright 2018-2022 Docker Inc.\n\ndisabled_plugins = [\"cri\"]\n"
	stockUnit       = "[Unit]\nDescription=containerd container runtime\n\n[Service]\nExecStart=/usr/bin/containerd\n\n[Install]\nWantedBy=multi-user.target\n"
	stockDefaults   = "# defaults of example\nLEVEL=1\n"
	stockEnableLink = "etc/systemd/system/multi-user.target.wants/containerd.service"
	// openssh-server's sshd_config, which its postinst installs with ucf,
	// and its unit, whose enable made the alias sshd.service.
	stockSshdConfig = "Include /etc/ssh/sshd_config.d/*.conf\nKbdInteractiveAuthentication no\n"
	stockSSHUnit    = "[Unit]\nDescription=OpenBSD Secure Shell server\n\n[Service]\nExecStart=/usr/sbin/sshd -D\n\n[Install]\nWantedBy=multi-user.target\nAlias=sshd.service\n"
	stockAlias      = "etc/systemd/system/sshd.service"
)

func md5Hex(s string) string {
	sum := md5.Sum([]byte(s))
	return hex.EncodeToString(sum[:])
}

// stockRoot makes a root as a Debian installer and dpkg leave it: an
// /etc/hostname and /etc/hosts; containerd installed, with its conffile
// (its md5 sum in status's Conffiles:), its files' md5 sums in
// info/containerd.md5sums, and the enable link its postinst made with
// deb-systemd-helper; a multi-arch package (examplepkg:amd64) whose
// /etc/example/defaults is a plain package file, not a conffile; and
// base-files' conffiles with no file of the profile's; openssh-server's
// sshd_config as ucf installed it (recorded in ucf's hashfile and
// registry) and the alias sshd.service of its ssh.service; the
// installer's /etc/resolv.conf.
func stockRoot(t *testing.T) string {
	t.Helper()
	root := newRoot(t, map[string]string{
		"etc/hostname":                          stockHostname,
		"etc/hosts":                             stockHosts,
		"etc/containerd/config.toml":            stockConfig,
		"etc/example/defaults":                  stockDefaults,
		"etc/staged.conf":                       "not configured yet\n",
		"etc/resolv.conf":                       "nameserver 192.0.2.53\n",
		"etc/ssh/sshd_config":                   stockSshdConfig,
		"var/lib/ucf/hashfile":                  md5Hex(stockSshdConfig) + "  /etc/ssh/sshd_config\n",
		"var/lib/ucf/registry":                  "openssh-server\t/etc/ssh/sshd_config\n",
		"lib/systemd/system/ssh.service":        stockSSHUnit,
		"var/lib/dpkg/info/openssh-server.list": "/.\n/lib\n/lib/systemd\n/lib/systemd/system\n/lib/systemd/system/ssh.service\n",
		"lib/systemd/system/containerd.service": stockUnit,
		"var/lib/systemd/deb-systemd-helper-enabled/multi-user.target.wants/containerd.service": "",
		"var/lib/dpkg/status": `Package: base-files
Essential: yes
Status: install ok installed
Priority: required
Section: admin
Installed-Size: 340
Maintainer: Santiago Vila <sanvila@debian.org>
Architecture: amd64
Multi-Arch: foreign
Version: 12.4+deb12u5
Replaces: base, dpkg (<= 1.15.0), miscutils
Provides: base
Conffiles:
 /etc/debian_version 8031d1483ffa9c819e6be94c6c77fd2a
 /etc/dpkg/origins/debian c47b6815f67ad1aeccb0d4529bd0b990
 /etc/host.conf 4eb63731c9f5e30903ac4fc07a7fe3d6
Description: Debian base system miscellaneous files
 This package contains the basic filesystem hierarchy of a Debian system, and
 several important miscellaneous files, such as /etc/debian_version,
 /etc/host.conf, /etc/issue, /etc/motd, /etc/profile, and others,
 and the text of several common licenses in use on Debian systems.
Homepage: https://tracker.debian.org/pkg/base-files

Package: containerd
Status: install ok installed
Priority: optional
Section: admin
Installed-Size: 98366
Maintainer: Debian Go Packaging Team <team+pkg-go@tracker.debian.org>
Architecture: amd64
Source: containerd (1.6.20~ds1-1)
Version: 1.6.20~ds1-1+b1
Depends: runc (>= 1.0.0~rc2~), libc6 (>= 2.34), libseccomp2 (>= 2.5.0)
Conffiles:
 /etc/containerd/config.toml ` + md5Hex(stockConfig) + `
 /etc/containerd/old.toml 0a1b2c3d4e5f60718293a4b5c6d7e8f9 obsolete
Description: open and reliable container runtime
 Containerd is an industry-standard container runtime with an emphasis on
 simplicity, robustness and portability.
Homepage: https://containerd.io

Package: examplepkg
Status: install ok installed
Architecture: amd64
Multi-Arch: same
Version: 1.0-1
Description: a multi-arch package with a plain file in /etc

Package: stagedpkg
Status: install ok unpacked
Architecture: all
Version: 2.0-1
Conffiles:
 /etc/staged.conf newconffile
Description: a package unpacked and not configured yet
`,
		"var/lib/dpkg/info/containerd.list":          "/.\n/etc\n/etc/containerd\n/etc/containerd/config.toml\n/lib\n/lib/systemd\n/lib/systemd/system\n/lib/systemd/system/containerd.service\n/usr/bin/containerd\n",
		"var/lib/dpkg/info/containerd.conffiles":     "/etc/containerd/config.toml\n",
		"var/lib/dpkg/info/containerd.md5sums":       md5Hex(stockUnit) + "  lib/systemd/system/containerd.service\n3f0b2a1c9d8e7f6a5b4c3d2e1f0a9b8c  usr/bin/containerd\n",
		"var/lib/dpkg/info/examplepkg:amd64.list":    "/.\n/etc\n/etc/example\n/etc/example/defaults\n",
		"var/lib/dpkg/info/examplepkg:amd64.md5sums": md5Hex(stockDefaults) + "  etc/example/defaults\n",
		"var/lib/dpkg/info/stagedpkg.list":           "/.\n/etc\n/etc/staged.conf\n",
		"var/lib/dpkg/info/stagedpkg.conffiles":      "/etc/staged.conf\n",
	})
	if err := os.MkdirAll(filepath.Join(root, filepath.Dir(stockEnableLink)), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/lib/systemd/system/containerd.service", filepath.Join(root, stockEnableLink)); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/lib/systemd/system/ssh.service", filepath.Join(root, stockAlias)); err != nil {
		t.Fatal(err)
	}
	return root
}

// TestStockFilesAreTakenOver: a switch takes over, without --backup, what
// the installer and packages put in /etc unchanged, names each in the
// plan, and deactivate puts them back as they were; what an admin changed
// still refuses, naming the flags that keep it.
func TestStockFilesAreTakenOver(t *testing.T) {
	unit := "[Service]\nExecStart=/usr/bin/containerd\n"
	tests := []struct {
		name    string
		entries []profile.Entry
		// edit changes the stock root first, as an admin would.
		edit          func(t *testing.T, root string)
		wantStock     []StockFile
		wantConflicts map[string]string // path: a part of the reason
		// untouched are paths the switch must leave as they are.
		untouched []string
	}{
		{
			name:      "unmodified conffile",
			entries:   []profile.Entry{file("containerd/config.toml", "version = 2\n")},
			wantStock: []StockFile{{"etc/containerd/config.toml", "dpkg conffile of containerd, unmodified"}},
		},
		{
			name:    "edited conffile",
			entries: []profile.Entry{file("containerd/config.toml", "version = 2\n")},
			edit:    appendTo("etc/containerd/config.toml", "# the admin's\n"),
			wantConflicts: map[string]string{
				"/etc/containerd/config.toml": "the package containerd's conffile (dpkg), edited since it was installed, is in the way of the profile's entry (from environment.etc.containerd/config.toml); move it away, or have nodegen keep it and put it back when it stops managing the path: nodegen switch --backup, nodegen deploy --backup, or deployment.backupConflicts = true",
			},
		},
		{
			name:          "conffile dpkg has no sum of yet",
			entries:       []profile.Entry{file("staged.conf", "x\n")},
			wantConflicts: map[string]string{"/etc/staged.conf": "the package stagedpkg's conffile (dpkg) is in the way"},
		},
		{
			name:      "unmodified package file of a multi-arch package",
			entries:   []profile.Entry{file("example/defaults", "LEVEL=2\n")},
			wantStock: []StockFile{{"etc/example/defaults", "file of the package examplepkg, unmodified"}},
		},
		{
			name:          "changed package file",
			entries:       []profile.Entry{file("example/defaults", "LEVEL=2\n")},
			edit:          appendTo("etc/example/defaults", "LEVEL=3\n"),
			wantConflicts: map[string]string{"/etc/example/defaults": "a file of the package examplepkg (dpkg), changed since it was installed, is in the way"},
		},
		{
			name:          "an admin's file",
			entries:       []profile.Entry{file("motd", "hello\n")},
			edit:          appendTo("etc/motd", "the admin's motd\n"),
			wantConflicts: map[string]string{"/etc/motd": "a file that nodegen does not manage is in the way of the profile's entry (from environment.etc.motd); move it away, or have nodegen keep it"},
		},
		{
			name:      "the installer's hostname",
			entries:   []profile.Entry{file("hostname", "web01\n")},
			wantStock: []StockFile{{"etc/hostname", "written by the OS installer for this machine"}},
		},
		{
			name:      "the installer's hostname, edited by an admin",
			entries:   []profile.Entry{file("hostname", "web01\n")},
			edit:      appendTo("etc/hostname", "db01\n"),
			wantStock: []StockFile{{"etc/hostname", "written by the OS installer for this machine"}},
		},
		{
			name:      "the installer's hosts",
			entries:   []profile.Entry{file("hosts", "127.0.0.1 localhost web01\n")},
			wantStock: []StockFile{{"etc/hosts", "written by the OS installer for this machine"}},
		},
		{
			name:      "enable link of a unit the profile enables too",
			entries:   unitFiles("containerd.service", unit),
			wantStock: []StockFile{{stockEnableLink, "enable link of containerd.service from the package containerd, which the profile enables too"}},
		},
		{
			name:      "enable link with the profile's own target",
			entries:   []profile.Entry{link("systemd/system/multi-user.target.wants/containerd.service", "/lib/systemd/system/containerd.service")},
			wantStock: []StockFile{{stockEnableLink, "enable link of containerd.service from the package containerd, which the profile enables too"}},
		},
		{
			name:    "enable link of another unit at the profile's path",
			entries: unitFiles("containerd.service", unit),
			edit: func(t *testing.T, root string) {
				p := filepath.Join(root, stockEnableLink)
				os.Remove(p)
				if err := os.Symlink("/lib/systemd/system/docker.service", p); err != nil {
					t.Fatal(err)
				}
			},
			wantConflicts: map[string]string{"/" + stockEnableLink: "a symlink to /lib/systemd/system/docker.service that nodegen does not manage is in the way"},
		},
		{
			name:      "a package's enable link the profile does not manage",
			entries:   unitFiles("web.service", "[Service]\nExecStart=/bin/true\n"),
			untouched: []string{stockEnableLink, "etc/containerd/config.toml", "etc/hostname"},
		},
		{
			name:      "unmodified configuration file of ucf",
			entries:   []profile.Entry{file("ssh/sshd_config", "Port 22\n")},
			wantStock: []StockFile{{"etc/ssh/sshd_config", "configuration file of openssh-server (ucf), unmodified"}},
		},
		{
			name:          "edited configuration file of ucf",
			entries:       []profile.Entry{file("ssh/sshd_config", "Port 22\n")},
			edit:          appendTo("etc/ssh/sshd_config", "PermitRootLogin no\n"),
			wantConflicts: map[string]string{"/etc/ssh/sshd_config": "the configuration file of openssh-server (ucf), edited since it was installed, is in the way"},
		},
		{
			name:      "the installer's resolv.conf",
			entries:   []profile.Entry{file("resolv.conf", "nameserver 127.0.0.1\n")},
			wantStock: []StockFile{{"etc/resolv.conf", "written by the OS installer for this machine"}},
		},
		{
			name:    "a resolver symlink in place of the installer's resolv.conf",
			entries: []profile.Entry{file("resolv.conf", "nameserver 127.0.0.1\n")},
			edit: func(t *testing.T, root string) {
				p := filepath.Join(root, "etc/resolv.conf")
				if err := os.Remove(p); err != nil {
					t.Fatal(err)
				}
				if err := os.Symlink("../run/systemd/resolve/stub-resolv.conf", p); err != nil {
					t.Fatal(err)
				}
			},
			wantStock: []StockFile{{"etc/resolv.conf", "the machine's own symlink to ../run/systemd/resolve/stub-resolv.conf (the OS installer's or a package's)"}},
		},
		{
			name:      "a package's alias of its unit, replaced by the profile's unit",
			entries:   unitFiles("sshd.service", "[Service]\nExecStart=/usr/sbin/sshd -D -f /etc/ssh/sshd_config\n"),
			wantStock: []StockFile{{stockAlias, "alias sshd.service of ssh.service from the package openssh-server, made by systemctl enable"}},
		},
		{
			name:    "a link to a package's unit that does not name it as an alias",
			entries: unitFiles("other.service", "[Service]\nExecStart=/bin/true\n"),
			edit: func(t *testing.T, root string) {
				if err := os.Symlink("/lib/systemd/system/ssh.service", filepath.Join(root, "etc/systemd/system/other.service")); err != nil {
					t.Fatal(err)
				}
			},
			wantConflicts: map[string]string{"/etc/systemd/system/other.service": "a symlink to /lib/systemd/system/ssh.service that nodegen does not manage is in the way"},
		},
		{
			name: "all at once",
			entries: append(unitFiles("containerd.service", unit),
				file("hostname", "web01\n"), file("hosts", "127.0.0.1 localhost\n"), file("containerd/config.toml", "version = 2\n")),
			wantStock: []StockFile{
				{"etc/containerd/config.toml", "dpkg conffile of containerd, unmodified"},
				{"etc/hostname", "written by the OS installer for this machine"},
				{"etc/hosts", "written by the OS installer for this machine"},
				{stockEnableLink, "enable link of containerd.service from the package containerd, which the profile enables too"},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := stockRoot(t)
			if tt.edit != nil {
				tt.edit(t, root)
			}
			before := listing(t, root, "etc")
			dir := writeProfile(t, tt.entries...)
			res, err := run(t, root, nil, func(s *System) (*Result, error) { return s.Switch(dir, SwitchOptions{}) })
			if len(tt.wantConflicts) > 0 {
				var ce *ConflictError
				if !errors.As(err, &ce) {
					t.Fatalf("switch: %v, want conflicts", err)
				}
				got := map[string]string{}
				for _, c := range ce.Conflicts {
					got[strings.TrimPrefix(c.Path, root)] = c.Reason
				}
				for p, want := range tt.wantConflicts {
					if !strings.Contains(got[p], want) {
						t.Errorf("conflict at %s: %q, want it to say %q", p, got[p], want)
					}
				}
				if len(got) != len(tt.wantConflicts) {
					t.Errorf("conflicts %v, want only %v", got, tt.wantConflicts)
				}
				if d := cmp.Diff(before, listing(t, root, "etc")); d != "" {
					t.Errorf("a refused switch changed /etc (-before +after):\n%s", d)
				}
				// --backup keeps the admin's file, deactivate puts it back.
				mustSwitch(t, root, dir, SwitchOptions{Backup: true})
			} else {
				if err != nil {
					t.Fatalf("switch: %v", err)
				}
				if d := cmp.Diff(tt.wantStock, res.Plan.Stock, cmpEmpty); d != "" {
					t.Errorf("taken over (-want +got):\n%s", d)
				}
				for _, f := range tt.wantStock {
					if !slices.Contains(res.Plan.Backup, f.Path) {
						t.Errorf("%s is taken over without a backup: %v", f.Path, res.Plan.Backup)
					}
				}
			}
			for _, p := range tt.untouched {
				if d := cmp.Diff(before[p], listing(t, root, "etc")[p]); d != "" {
					t.Errorf("%s changed (-before +after):\n%s", p, d)
				}
			}
			if _, err := run(t, root, nil, func(s *System) (*Result, error) { return s.Deactivate(SwitchOptions{}) }); err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(before, listing(t, root, "etc")); d != "" {
				t.Errorf("/etc after deactivate is not as the installer and packages left it (-before +after):\n%s", d)
			}
		})
	}
}

// cmpEmpty makes a nil and an empty list equal.
var cmpEmpty = cmp.Transformer("empty", func(s []StockFile) []StockFile {
	if len(s) == 0 {
		return nil
	}
	return s
})

func appendTo(rel, text string) func(*testing.T, string) {
	return func(t *testing.T, root string) {
		f, err := os.OpenFile(filepath.Join(root, rel), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if _, err := f.WriteString(text); err != nil {
			t.Fatal(err)
		}
	}
}

// TestStockFilesBackAfterAFailedFirstSwitch: a first switch that fails
// after it took over stock files goes back to no generation, which puts
// them back.
func TestStockFilesBackAfterAFailedFirstSwitch(t *testing.T) {
	root := stockRoot(t)
	before := listing(t, root, "etc")
	dir := writeProfile(t, file("hostname", "web01\n"), file("containerd/config.toml", "version = 2\n"))
	old := failpoint
	failed := false
	failpoint = func(stage string) error {
		if stage == "tmpfiles" && !failed {
			failed = true
			return errors.New("a step that fails")
		}
		return nil
	}
	t.Cleanup(func() { failpoint = old })
	res, err := run(t, root, nil, func(s *System) (*Result, error) { return s.Switch(dir, SwitchOptions{}) })
	var fe *FailedError
	if !errors.As(err, &fe) || !fe.Failure.RolledBack || fe.Failure.From != 0 {
		t.Fatalf("switch: %v, want a failure rolled back to no generation", err)
	}
	if len(res.Plan.Stock) != 2 {
		t.Errorf("taken over: %v", res.Plan.Stock)
	}
	if d := cmp.Diff(before, listing(t, root, "etc")); d != "" {
		t.Errorf("/etc after going back to no generation (-before +after):\n%s", d)
	}
}

// TestStockFileWithABackupKeptAlready: a stock file is never moved over a
// backup of its path kept already (an earlier file nodegen moved aside and
// has not put back): the switch refuses, naming both.
func TestStockFileWithABackupKeptAlready(t *testing.T) {
	root := stockRoot(t)
	if err := os.MkdirAll(filepath.Join(root, backupDir, "etc"), 0o700); err != nil {
		t.Fatal(err)
	}
	appendTo(backupDir+"/etc/hostname", "kept from earlier\n")(t, root)
	before := listing(t, root, "")
	dir := writeProfile(t, file("hostname", "web01\n"))
	_, err := run(t, root, nil, func(s *System) (*Result, error) { return s.Switch(dir, SwitchOptions{}) })
	var ce *ConflictError
	if !errors.As(err, &ce) || len(ce.Conflicts) != 1 {
		t.Fatalf("switch: %v, want one conflict", err)
	}
	want := "a file (written by the OS installer for this machine) is in the way of the profile's entry (from environment.etc.hostname), and a backup of an earlier file is already kept at " + root + "/var/lib/nodegen/backups/etc/hostname; move one of them away"
	if d := cmp.Diff(want, ce.Conflicts[0].Reason); d != "" {
		t.Errorf("reason (-want +got):\n%s", d)
	}
	after := listing(t, root, "")
	for p := range after {
		if strings.HasPrefix(p, "var/lib/nodegen") && p != backupDir+"/etc/hostname" && !strings.HasPrefix(backupDir+"/etc/hostname", p) {
			delete(after, p)
		}
	}
	if d := cmp.Diff(before, after); d != "" {
		t.Errorf("a refused switch changed the tree (-before +after):\n%s", d)
	}
}

// TestTakenOverUnitRestarts: a unit new to nodegen that runs already (the
// package's containerd.service, whose enable link and conffile the switch
// takes over) runs the package's definition and files: the switch
// restarts it, where a new unit that does not run is started.
func TestTakenOverUnitRestarts(t *testing.T) {
	root := stockRoot(t)
	dir := writeProfile(t, append(flatten(unitFiles("containerd.service", "[Service]\nExecStart=/usr/bin/containerd\n"), unitFiles("new.service", "[Service]\nExecStart=/bin/true\n")),
		file("containerd/config.toml", "version = 2\n"))...)
	f := &fakeUnits{t: t, root: root, failing: map[string]bool{}, active: map[string]bool{"multi-user.target": true, "containerd.service": true}}
	res, err := run(t, root, f, func(s *System) (*Result, error) { return s.Switch(dir, SwitchOptions{}) })
	if err != nil {
		t.Fatal(err)
	}
	want := UnitPlan{Stop: []string{}, Reload: []string{}, Restart: []string{"containerd.service"}, Start: []string{"new.service"}, NotRestarted: []string{}, FailedBefore: []string{}, ResetFailed: []string{}, Live: true}
	if d := cmp.Diff(want, res.Plan.Units, cmp.AllowUnexported(UnitPlan{}), cmpIgnoreWanted); d != "" {
		t.Errorf("unit plan (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]string{"daemon-reload", "restart containerd.service", "start new.service"}, f.calls); d != "" {
		t.Errorf("calls (-want +got):\n%s", d)
	}
}
