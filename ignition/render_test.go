package ignition_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/nodegen/nodegen/ignition"
	"github.com/nodegen/nodegen/ignition/ignitiontest"
	"github.com/nodegen/nodegen/profile"
)

func file(target, content string) profile.Entry {
	return profile.Entry{Target: target, Content: []byte(content), Mode: "0644", Option: "opt." + filepath.Base(target)}
}

func link(target, to string) profile.Entry {
	return profile.Entry{Target: target, Link: to, Mode: profile.TypeSymlink, Option: "opt." + filepath.Base(target) + ".link"}
}

func withMode(e profile.Entry, mode string) profile.Entry { e.Mode = mode; return e }

func owned(e profile.Entry, user, group string) profile.Entry {
	e.User, e.Group = user, group
	return e
}

const installed = "[Unit]\nDescription=x\n[Service]\nExecStart=/bin/true\n[Install]\nWantedBy=multi-user.target\n"

// summary is what a test checks of a config: where each profile path went.
type summary struct {
	Files       []string `json:",omitempty"` // "path mode user:group compression"
	Links       []string `json:",omitempty"` // "path -> target"
	Units       []string `json:",omitempty"` // "name [contents] [enabled] [masked] [dropins...]"
	Users       []string `json:",omitempty"` // JSON of each user
	Groups      []string `json:",omitempty"` // JSON of each group
	Directories int
}

func summarize(t *testing.T, raw []byte) summary {
	t.Helper()
	var cfg struct {
		Passwd struct {
			Users  []json.RawMessage
			Groups []json.RawMessage
		}
		Storage struct {
			Directories []json.RawMessage
			Files       []struct {
				Path        string
				Mode        int
				User, Group struct{ Name string }
				Contents    struct{ Compression string }
			}
			Links []struct{ Path, Target string }
		}
		Systemd struct {
			Units []struct {
				Name          string
				Contents      *string
				Enabled, Mask bool
				Dropins       []struct{ Name string }
			}
		}
	}
	if err := json.Unmarshal(raw, &cfg); err != nil {
		t.Fatal(err)
	}
	var s summary
	s.Directories = len(cfg.Storage.Directories)
	for _, f := range cfg.Storage.Files {
		s.Files = append(s.Files, strings.TrimSpace(strings.Join([]string{f.Path, fmt.Sprintf("%04o", f.Mode), f.User.Name + ":" + f.Group.Name, f.Contents.Compression}, " ")))
	}
	for _, l := range cfg.Storage.Links {
		s.Links = append(s.Links, l.Path+" -> "+l.Target)
	}
	for _, u := range cfg.Systemd.Units {
		d := u.Name
		if u.Contents != nil {
			d += " contents"
		}
		if u.Enabled {
			d += " enabled"
		}
		if u.Mask {
			d += " masked"
		}
		for _, in := range u.Dropins {
			d += " +" + in.Name
		}
		s.Units = append(s.Units, d)
	}
	for _, u := range cfg.Passwd.Users {
		s.Users = append(s.Users, compact(t, u))
	}
	for _, g := range cfg.Passwd.Groups {
		s.Groups = append(s.Groups, compact(t, g))
	}
	return s
}

func compact(t *testing.T, raw []byte) string {
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestRender(t *testing.T) {
	tests := []struct {
		name     string
		entries  []profile.Entry
		want     summary
		warnings []string
	}{{
		name: "files keep mode and owner, directories are made",
		entries: []profile.Entry{
			file("hostname", "h1\n"),
			owned(withMode(file("nodegen/scripts/x", "#!/bin/sh\n"), "755"), "etcd", "etcd"),
			file("sysusers.d/etcd.conf", "u etcd - \"etcd user\" /var/lib/etcd\n"),
		},
		want: summary{
			Files: []string{"/etc/hostname 0644 root:root", "/etc/nodegen/scripts/x 0755 etcd:etcd", "/etc/sysusers.d/etcd.conf 0644 root:root"},
			Users: []string{`{"gecos":"etcd user","homeDir":"/var/lib/etcd","name":"etcd","noCreateHome":true,"shell":"/usr/sbin/nologin","system":true}`},
			// /etc/nodegen, /etc/nodegen/scripts, /etc/sysusers.d
			Directories: 3,
		},
	}, {
		name:    "compressible contents are gzipped",
		entries: []profile.Entry{file("big.conf", strings.Repeat("the same line again\n", 200)), file("small.conf", "x\n")},
		want:    summary{Files: []string{"/etc/big.conf 0644 root:root gzip", "/etc/small.conf 0644 root:root"}},
	}, {
		name: "units, drop-ins, links without [Install]",
		entries: []profile.Entry{
			file("systemd/system/a.service", "[Service]\nExecStart=/bin/true\n"),
			file("systemd/system/a.service.d/10-x.conf", "[Service]\nNice=1\n"),
			file("systemd/system/shipped.service.d/10-y.conf", "[Unit]\nAfter=a.service\n"),
			link("systemd/system/multi-user.target.wants/a.service", "/etc/systemd/system/a.service"),
		},
		want: summary{
			Links:       []string{"/etc/systemd/system/multi-user.target.wants/a.service -> /etc/systemd/system/a.service"},
			Units:       []string{"a.service contents +10-x.conf", "shipped.service +10-y.conf"},
			Directories: 5,
		},
	}, {
		name: "links that [Install] makes become enabled",
		entries: []profile.Entry{
			file("systemd/system/b.service", installed),
			link("systemd/system/multi-user.target.wants/b.service", "/etc/systemd/system/b.service"),
		},
		want: summary{Units: []string{"b.service contents enabled"}, Directories: 3},
	}, {
		name: "links that [Install] does not make stay links",
		entries: []profile.Entry{
			file("systemd/system/b.service", installed),
			link("systemd/system/other.target.wants/b.service", "/etc/systemd/system/b.service"),
			file("systemd/system/c.service", installed+"Alias=cc.service\n"),
			link("systemd/system/multi-user.target.wants/c.service", "/etc/systemd/system/c.service"),
		},
		want: summary{
			Links: []string{
				"/etc/systemd/system/multi-user.target.wants/c.service -> /etc/systemd/system/c.service",
				"/etc/systemd/system/other.target.wants/b.service -> /etc/systemd/system/b.service",
			},
			Units:       []string{"b.service contents", "c.service contents"},
			Directories: 4,
		},
	}, {
		name: "masks; units Ignition cannot write as they are stay files",
		entries: []profile.Entry{
			link("systemd/system/m.service", "/dev/null"),
			withMode(file("systemd/system/secret.service", "[Service]\nExecStart=/bin/true\n"), "0600"),
			file("systemd/system/empty.target", ""),
			file("systemd/system/x.service.d/notes.txt", "not a drop-in\n"),
		},
		want: summary{
			Files: []string{
				"/etc/systemd/system/empty.target 0644 root:root",
				"/etc/systemd/system/secret.service 0600 root:root",
				"/etc/systemd/system/x.service.d/notes.txt 0644 root:root",
			},
			Units:       []string{"m.service masked"},
			Directories: 3,
		},
	}, {
		name: "sysusers",
		entries: []profile.Entry{
			file("sysusers.d/a.conf", "# users\ng grp 300\nu svc 301:grp 'Service user' - /bin/sh\nm svc extra\nm core grp\nr - 500-900\nu svc 999\n"),
			file("sysusers.d/b.conf", "u pathuid /var/lib/x\ng pathgid /var/lib/y\nu spec - \"%H user\"\nx what\n"),
			file("sysusers.d/c.conf", "u evil - - \"/home/x y\"\nu root2 0:\"root x\"\ng 'a b'\nm evil 'root;'\nu -bad -\nu gec 302 \"a:b\"\n"),
		},
		want: summary{
			Files: []string{"/etc/sysusers.d/a.conf 0644 root:root", "/etc/sysusers.d/b.conf 0644 root:root", "/etc/sysusers.d/c.conf 0644 root:root"},
			Users: []string{
				`{"gecos":"Service user","groups":["extra"],"name":"svc","noCreateHome":true,"primaryGroup":"grp","shell":"/bin/sh","system":true,"uid":301}`,
				`{"name":"pathuid","noCreateHome":true,"shell":"/usr/sbin/nologin","system":true}`,
			},
			Groups:      []string{`{"gid":300,"name":"grp","system":true}`, `{"name":"pathgid","system":true}`},
			Directories: 1,
		},
		warnings: []string{
			`etc/sysusers.d/a.conf:5 (from opt.a.conf): user "core" is not declared by the profile: adding it to group "grp" is left to systemd-sysusers at boot (Ignition would replace the groups of a user the image has)`,
			`etc/sysusers.d/a.conf:6 (from opt.a.conf): id ranges have no Ignition equivalent; they are left to systemd-sysusers, and useradd picks the ids of the users Ignition creates`,
			`etc/sysusers.d/b.conf:1 (from opt.b.conf): the uid "/var/lib/x" (not a number) is chosen by systemd-sysusers only; Ignition lets useradd choose one`,
			`etc/sysusers.d/b.conf:2 (from opt.b.conf): the gid "/var/lib/y" (not a number) is chosen by systemd-sysusers only; Ignition lets groupadd choose one`,
			`etc/sysusers.d/b.conf:3 (from opt.b.conf): specifiers (%) are expanded by systemd-sysusers only; the line is left to it`,
			`etc/sysusers.d/b.conf:4 (from opt.b.conf): "x" lines have no Ignition equivalent; the line is left to systemd-sysusers`,
			`etc/sysusers.d/c.conf:1 (from opt.c.conf): the home "/home/x y" is refused: it holds a space (systemd-sysusers refuses it too); the line is left to systemd-sysusers`,
			`etc/sysusers.d/c.conf:2 (from opt.c.conf): the name "root x" is refused: it holds a space (systemd-sysusers refuses it too); the line is left to systemd-sysusers`,
			`etc/sysusers.d/c.conf:3 (from opt.c.conf): the name "a b" is refused: it holds a space (systemd-sysusers refuses it too); the line is left to systemd-sysusers`,
			`etc/sysusers.d/c.conf:4 (from opt.c.conf): the name "root;" is refused: it holds ';' (systemd-sysusers refuses it too); the line is left to systemd-sysusers`,
			`etc/sysusers.d/c.conf:5 (from opt.c.conf): the name "-bad" is refused: it starts with '-', not a letter or _ (systemd-sysusers refuses it too); the line is left to systemd-sysusers`,
			`etc/sysusers.d/c.conf:6 (from opt.c.conf): the description "a:b" is refused: it holds ':' (systemd-sysusers refuses it too); the line is left to systemd-sysusers`,
		},
	}, {
		name: "owners nobody provides; settings only a switch reads",
		entries: []profile.Entry{
			owned(file("app.conf", "x\n"), "app", "wheel"),
			file("systemd/system/k.service", "[Unit]\nX-RestartIfChanged=false\nX-StopOnRemoval=false\n[Service]\nExecStart=/bin/true\n"),
		},
		want: summary{
			Files:       []string{"/etc/app.conf 0644 app:wheel"},
			Units:       []string{"k.service contents"},
			Directories: 2,
		},
		warnings: []string{
			`etc/app.conf (from opt.app.conf): owned by group "wheel", which no sysusers.d file of the profile declares: Ignition fails the boot unless the image has that group`,
			`etc/app.conf (from opt.app.conf): owned by user "app", which no sysusers.d file of the profile declares: Ignition fails the boot unless the image has that user`,
			`etc/systemd/system/k.service (from opt.k.service): the settings X-RestartIfChanged, X-StopOnRemoval only take effect when switching to a new profile; Ignition provisions the machine once and never switches, so it is left without effect`,
		},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, version := range ignition.Versions {
				cfg, err := ignition.Render(tt.entries, version)
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(tt.want, summarize(t, cfg.JSON)); diff != "" {
					t.Errorf("%s (-want +got):\n%s", version, diff)
				}
				if diff := cmp.Diff(tt.warnings, cfg.Warnings); diff != "" {
					t.Errorf("%s: warnings (-want +got):\n%s", version, diff)
				}
				ignitiontest.RoundTrip(t, profile.Profile{Entries: tt.entries}, cfg.JSON)
			}
		})
	}
}

func TestRenderErrors(t *testing.T) {
	tests := []struct {
		name     string
		entries  []profile.Entry
		version  string
		want     string
		problems []ignition.Problem
	}{{
		name:    "unknown version",
		version: "3.3.0",
		want:    `unsupported Ignition config version "3.3.0": want one of 3.4.0, 3.5.0`,
	}, {
		name:    "a bad entry",
		entries: []profile.Entry{withMode(file("x", "x"), "rw")},
		version: "3.4.0",
		want:    `profile entry etc/x (from opt.x): bad mode "rw": want octal permissions such as "0644", or "symlink"`,
	}, {
		name: "units Ignition cannot parse",
		entries: []profile.Entry{
			file("systemd/system/ok.service", "[Service]\nExecStart=/bin/true\n"),
			file("systemd/system/bad.service", "[Service]\nExecStart=/bin/true\nnot a setting\n"),
			file("systemd/system/ok.service.d/long.conf", "[Service]\nEnvironment=X="+strings.Repeat("x", 3000)+"\n"),
		},
		version: "3.5.0",
		want: "the Ignition 3.5.0 config is invalid:\n" +
			"  systemd.units.0.contents: invalid unit content: unexpected newline encountered while parsing option name (etc/systemd/system/bad.service, from opt.bad.service)\n" +
			"  systemd.units.1.dropins.0.contents: invalid unit content: line too long (max 2048 bytes) (etc/systemd/system/ok.service.d/long.conf, from opt.long.conf)",
		problems: []ignition.Problem{{
			Path: "systemd.units.0.contents", Entry: "etc/systemd/system/bad.service", Option: "opt.bad.service",
			Message: "invalid unit content: unexpected newline encountered while parsing option name",
		}, {
			Path: "systemd.units.1.dropins.0.contents", Entry: "etc/systemd/system/ok.service.d/long.conf", Option: "opt.long.conf",
			Message: "invalid unit content: line too long (max 2048 bytes)",
		}},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ignition.Render(tt.entries, tt.version)
			if err == nil {
				t.Fatal("no error")
			}
			if diff := cmp.Diff(tt.want, err.Error()); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			var inv *ignition.InvalidError
			if errors.As(err, &inv) {
				if diff := cmp.Diff(tt.problems, inv.Problems); diff != "" {
					t.Errorf("problems (-want +got):\n%s", diff)
				}
			} else if tt.problems != nil {
				t.Errorf("%T is not an *InvalidError", err)
			}
		})
	}
}

// TestRenderDeterministic renders the same entries in two orders.
func TestRenderDeterministic(t *testing.T) {
	entries := []profile.Entry{
		file("b.conf", "b\n"),
		file("systemd/system/b.service", installed),
		link("systemd/system/multi-user.target.wants/b.service", "/etc/systemd/system/b.service"),
		file("systemd/system/b.service.d/2.conf", "[Unit]\nA=1\n"),
		file("systemd/system/b.service.d/1.conf", "[Unit]\nA=2\n"),
		file("sysusers.d/u.conf", "u a -\nu b -\ng c -\n"),
		file("a.conf", "a\n"),
	}
	a, err := ignition.Render(entries, "3.4.0")
	if err != nil {
		t.Fatal(err)
	}
	reversed := make([]profile.Entry, len(entries))
	for i, e := range entries {
		reversed[len(entries)-1-i] = e
	}
	b, err := ignition.Render(reversed, "3.4.0")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(a.JSON), string(b.JSON)); diff != "" {
		t.Errorf("the order of entries changes the config:\n%s", diff)
	}
}
