package profile

import "testing"

// TestValidatePackageProxy checks which package proxies a profile may
// record.
func TestValidatePackageProxy(t *testing.T) {
	for _, tc := range []struct {
		proxy string
		ok    bool
	}{
		{"", true},
		{"http://10.88.0.1:3142", true},
		{"https://proxy.example.com/apt/", true},
		{"http://user:secret@proxy.lan:3128", true},
		{"ftp://proxy.lan", false},
		{"http://", false},
		{"http:///path", false},
		{"proxy.lan:3128", false},
		{"http://proxy.lan/ x", false},
		{"http://proxy.lan\n", false},
		{`http://proxy.lan";`, false},
		{"http://proxy.lan;Acquire::x=y", false},
	} {
		err := ValidatePackageProxy(tc.proxy)
		if (err == nil) != tc.ok {
			t.Errorf("ValidatePackageProxy(%q) = %v, want ok %v", tc.proxy, err, tc.ok)
		}
	}
}
