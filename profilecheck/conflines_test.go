package profilecheck

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestSysusersProblems checks lines against systemd-sysusers' rules.
func TestSysusersProblems(t *testing.T) {
	for _, c := range []struct {
		line string
		want string // "" for a valid line
	}{
		{`u svc - "A service" /var/lib/svc /usr/sbin/nologin`, ""},
		{`u svc 500:svc - -`, ""},
		{`u svc 500:400`, ""},
		{`u svc /var/lib/svc`, ""},
		{`g grp 300`, ""},
		{`m alice grp`, ""},
		{`r - 500-900`, ""},
		{`u svc - - - nologin`, "not a valid login shell"},
		{`u svc - - var/lib/svc`, "not a valid home"},
		{`u svc - "a:b"`, "not a valid GECOS"},
		{`u 1svc`, "not a valid user or group name"},
		{`u svc 65535`, "not a valid UID"},
		{`u svc abc`, "not a valid UID"},
		{`g grp - "x"`, "take no GECOS"},
		{`m alice`, "need a group name"},
		{`r - 900-500`, "not a valid UID range"},
		{`x svc`, "unknown line type"},
		{`u`, "syntax error"},
		{`u svc - "unclosed`, "quote is not closed"},
		{`u svc - - / /bin/sh extra`, "trailing garbage"},
	} {
		ps := sysusersLines([]byte("# comment\n\n" + c.line + "\n"))
		var got string
		if len(ps) > 0 {
			got = ps[0].msg
			if ps[0].line != 3 {
				t.Errorf("%s: line %d, want 3", c.line, ps[0].line)
			}
		}
		if c.want == "" && got != "" || c.want != "" && !strings.Contains(got, c.want) {
			t.Errorf("%s: %q, want %q", c.line, got, c.want)
		}
	}
}

// knownOwners are the users and groups of a target system.
type knownOwners map[string]bool

func (o knownOwners) KnownUser(name string) bool  { return o["u:"+name] }
func (o knownOwners) KnownGroup(name string) bool { return o["g:"+name] }

// TestTmpfilesOwners: the owners of tmpfiles.d lines are checked only
// against the target's users and groups (Files with Owners, at nodegen
// switch); without them (nil, at eval and build, which do not know the
// target) the rule is left out, and the other rules of the lines still
// apply.
func TestTmpfilesOwners(t *testing.T) {
	f := File{Path: "tmpfiles.d/00-nodegen.conf", Option: "systemd.tmpfiles.rules",
		Content: []byte("d /var/lib/app 0750 app app -\nd /run/x 0755 root - -\nd /run/%u 0700 %u %g -\nd\n")}
	target := knownOwners{"u:root": true, "g:root": true, "g:app": true}
	for _, tc := range []struct {
		name   string
		owners Owners
		want   []string
	}{
		{"eval and build: the target's owners unknown", nil, []string{
			"/etc/tmpfiles.d/00-nodegen.conf:4: systemd-tmpfiles: a line needs a type and a path (from systemd.tmpfiles.rules)",
		}},
		{"switch: a user the target lacks", target, []string{
			`/etc/tmpfiles.d/00-nodegen.conf:1: systemd-tmpfiles: user "app" (of /var/lib/app) is not a user of the system, and no sysusers.d file of the profile creates it (from systemd.tmpfiles.rules)`,
			"/etc/tmpfiles.d/00-nodegen.conf:4: systemd-tmpfiles: a line needs a type and a path (from systemd.tmpfiles.rules)",
		}},
		{"switch: every owner known", knownOwners{"u:root": true, "g:root": true, "u:app": true, "g:app": true}, []string{
			"/etc/tmpfiles.d/00-nodegen.conf:4: systemd-tmpfiles: a line needs a type and a path (from systemd.tmpfiles.rules)",
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, p := range Files([]File{f}, tc.owners) {
				got = append(got, p.String())
			}
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
}
