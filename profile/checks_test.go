package profile

import "testing"

// TestNameChecks checks what the checks of modes, Debian package names
// and hashes accept and refuse.
func TestNameChecks(t *testing.T) {
	tests := []struct {
		check func(string) bool
		name  string
		good  []string
		bad   []string
	}{
		{isMode, "isMode", []string{"644", "0644", "000", "0777", "0000"}, []string{"", "64", "6444", "1644", "0648", "00644", "0x64", "644\n", "+644"}},
		{isDebianName, "isDebianName", []string{"containerd", "g++", "libc6", "0ad", "a.b-c+d"}, []string{"", "a", "-x", "+x", ".x", "Foo", "foo bar", "foo_bar", "foo\n"}},
		{func(s string) bool { return isLowerHex(s, 4) }, "isLowerHex 4", []string{"0123", "abcd", "ffff"}, []string{"", "012", "01234", "ABCD", "012g", "01 2"}},
	}
	for _, tt := range tests {
		for _, s := range tt.good {
			if !tt.check(s) {
				t.Errorf("%s(%q) = false", tt.name, s)
			}
		}
		for _, s := range tt.bad {
			if tt.check(s) {
				t.Errorf("%s(%q) = true", tt.name, s)
			}
		}
	}
}
