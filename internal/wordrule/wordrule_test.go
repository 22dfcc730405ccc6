package wordrule

import (
	"strings"
	"testing"
)

func TestWordRules(t *testing.T) {
	tests := []struct {
		rule    func(string) string
		in      string
		problem string // "" for a value the rule accepts
	}{
		{UserNameProblem, "alice", ""},
		{UserNameProblem, "_kube-proxy2", ""},
		{UserNameProblem, "", "it is empty"},
		{UserNameProblem, "evil root", "it holds a space"},
		{UserNameProblem, "a\nm evil root", "it holds a newline"},
		{UserNameProblem, "-x", "it starts with '-', not a letter or _"},
		{UserNameProblem, "a.b", "it holds '.'"},
		{UserNameProblem, "abcdefghijabcdefghijabcdefghijab", "it is longer than 31 characters"},
		{UnitNameProblem, "sshd.service", ""},
		{UnitNameProblem, "sshd@.service", ""},
		{UnitNameProblem, "getty@tty1.service", ""},
		{UnitNameProblem, "var-lib-x\\x2dy.mount", ""},
		{UnitNameProblem, "-.slice", ""},
		{UnitNameProblem, "foo bar.service", "it holds a space"},
		{UnitNameProblem, "foo;bar.service", "it holds ';'"},
		{UnitNameProblem, "-foo.service", "it starts with -, which systemctl reads as an option"},
		{UnitNameProblem, "foo", "it has no type suffix (.service, .target, ...)"},
		{UnitNameProblem, "foo.conf", `its type "conf" is none of systemd's (service, socket, target, device, mount, automount, swap, timer, path, slice, scope)`},
		{UnitNameProblem, "@x.service", "its name before @ is empty"},
		{UnitNameProblem, ".service", "its name before the type is empty"},
		{InterfaceNameProblem, "eth0", ""},
		{InterfaceNameProblem, "veth*", ""},
		{InterfaceNameProblem, `wg0"`, `it holds '"'`},
		{InterfaceNameProblem, "a:b", "it holds ':'"},
		{InterfaceNameProblem, "abcdefghijklmnop", "it is longer than 15 bytes"},
		{InterfaceNameProblem, "..", "it is . or .."},
		{InterfaceNameProblem, "*", "it is * alone, which nft refuses (a wildcard needs a prefix, as eth*)"},
		{HostProblem, "pool.ntp.org", ""},
		{HostProblem, "fe80::1", ""},
		{HostProblem, "pool.example iburst", "it holds a space"},
		{WordProblem, "/etc/ssh/authorized_keys.d/%u", ""},
		{WordProblem, "/x\nAuthorizedKeysCommand", "it holds a newline"},
		{WordProblem, "a\tb", "it holds a tab"},
		{WordProblem, "#x", "it starts with #, which starts a comment"},
		{WordProblem, "a#x", ""},
		{WordProblem, "a\x00b", "it holds the character U+0000"},
		{FileNameProblem, "db-password", ""},
		{FileNameProblem, ".env", ""},
		{FileNameProblem, "../../etc/cron.d/x", "it holds /, which makes it a path"},
		{FileNameProblem, "a/b", "it holds /, which makes it a path"},
		{FileNameProblem, "..", "it is .., a directory"},
		{FileNameProblem, ".", "it is ., a directory"},
		{FileNameProblem, "", "it is empty"},
		{FileNameProblem, "a\x00b", "it holds the character U+0000"},
		{FileNameProblem, strings.Repeat("k", 256), "it is longer than 255 bytes"},
		{PathWordProblem, "/var/lib/x", ""},
		{PathWordProblem, "var/lib", "it is not an absolute path"},
		{PathWordProblem, "/home/%u", "it holds %"},
		{PathWordProblem, "/home/x y", "it holds a space"},
		{PathWordProblem, "/a\xffb", "it is not valid UTF-8"},
		{PathWordProblem, "/", ""},
		{PathWordProblem, "/000/", "it is not normalized (an empty, . or .. component, or a / at the end)"},
		{PathWordProblem, "/a//b", "it is not normalized (an empty, . or .. component, or a / at the end)"},
		{PathWordProblem, "/a/../b", "it is not normalized (an empty, . or .. component, or a / at the end)"},
		{GECOSProblem, "", ""},
		{GECOSProblem, "Jörg Müller, room 4", ""},
		{GECOSProblem, "a:b", "it holds ':'"},
		{GECOSProblem, "x\nroot::0:0", "it holds a newline"},
		{GECOSProblem, "a\x7fb", "it holds the character U+007F"},
		{GECOSProblem, "a\xffb", "it is not valid UTF-8"},
	}
	for _, tt := range tests {
		if got := tt.rule(tt.in); got != tt.problem {
			t.Errorf("%q: got %q, want %q", tt.in, got, tt.problem)
		}
	}
}

// TestIDProblem: the user and group IDs systemd refuses.
func TestIDProblem(t *testing.T) {
	tests := []struct {
		id      int64
		problem string
	}{
		{0, ""},
		{1000, ""},
		{65534, ""},
		{65535, "it is 65535, which 16-bit programs read as -1"},
		{4294967294, ""},
		{4294967295, "it is 4294967295, larger than 4294967294"},
		{-1, "it is -1, negative"},
	}
	for _, tt := range tests {
		if got := IDProblem(tt.id); got != tt.problem {
			t.Errorf("%d: got %q, want %q", tt.id, got, tt.problem)
		}
	}
}

func TestShellQuote(t *testing.T) {
	for in, want := range map[string]string{
		"":                "''",
		"plain":           "'plain'",
		"it's":            `'it'\''s'`,
		"$(touch x) `id`": "'$(touch x) `id`'",
	} {
		if got := ShellQuote(in); got != want {
			t.Errorf("ShellQuote(%q) = %s, want %s", in, got, want)
		}
	}
}

func TestSystemdExecArg(t *testing.T) {
	for in, want := range map[string]string{
		"--web.listen-address": "--web.listen-address",
		"0.0.0.0:9100":         "0.0.0.0:9100",
		"[::]:9100":            "[::]:9100",
		"%n":                   "%%n",
		"^/(dev)($|/)":         "^/(dev)($$|/)",
		";":                    `";"`,
		"a;b":                  "a;b",
		"$HOME ${X}":           `"$$HOME $${X}"`,
		"a b;c":                `"a b;c"`,
		`say "hi" \ bye`:       `"say \"hi\" \\ bye"`,
		"a\nb\x01":             `"a\nb\x01"`,
		"a\u0085b":             `"a\u0085b"`,
		"":                     `""`,
	} {
		if got := SystemdExecArg(in); got != want {
			t.Errorf("SystemdExecArg(%q) = %s, want %s", in, got, want)
		}
	}
}
