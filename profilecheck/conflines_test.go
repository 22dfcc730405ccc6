package profilecheck

import (
	"strings"
	"testing"
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
