package profilecheck

import "testing"

// TestUnitPathProblem: unit files, their .wants, .requires and .upholds
// links and their drop-in directories below systemd/system have names
// systemd accepts; other files are left alone (issue 27).
func TestUnitPathProblem(t *testing.T) {
	for target, want := range map[string]string{
		"systemd/system/sshd.service":                         "",
		"systemd/system/sshd@.service":                        "",
		"systemd/system/multi-user.target.wants/sshd.service": "",
		"systemd/system/sshd.service.d/overrides.conf":        "",
		"systemd/system/notes.txt":                            "",
		"systemd/timesyncd.conf":                              "",
		"systemd/system/foo bar.service":                      `"foo bar.service" is no unit name systemd accepts: it holds a space`,
		"systemd/system/-foo.service":                         `"-foo.service" is no unit name systemd accepts: it starts with -, which systemctl reads as an option`,
		"systemd/system/multi-user.target.wants/a;b.service":  `"a;b.service" is no unit name systemd accepts: it holds ';'`,
		"systemd/system/x y.target.requires/a.service":        `"x y.target" is no unit name systemd accepts: it holds a space`,
		"systemd/system/foo bar.service.d/overrides.conf":     `"foo bar.service" is no unit name systemd accepts: it holds a space`,
		"systemd/system/multi-user.target.upholds/-x.service": `"-x.service" is no unit name systemd accepts: it starts with -, which systemctl reads as an option`,
	} {
		if got := UnitPathProblem(target); got != want {
			t.Errorf("%s: %q, want %q", target, got, want)
		}
	}
}
