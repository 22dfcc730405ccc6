package main

import (
	"bytes"
	"io"
	"io/fs"
	"testing"

	"github.com/nodegen/nodegen/modules"
)

func TestLibrarySuggestion(t *testing.T) {
	files := []string{"system/boot/kernel.hcl", "config/networking.hcl", "services/kubelet.hcl", "virtualisation/containerd/kubelet.hcl"}
	tests := []struct{ name, want string }{
		{"config/networkin.hcl", "config/networking.hcl"},
		{"networking.hcl", "config/networking.hcl"},
		{"system/networking.hcl", "config/networking.hcl"},
		{"kubelet.hcl", ""}, // two files of that name: no guess
		{"services/kubelt.hcl", "services/kubelet.hcl"},
		{"nosuch.hcl", ""},
	}
	for _, tt := range tests {
		if got := librarySuggestion(tt.name, files); got != tt.want {
			t.Errorf("librarySuggestion(%q) = %q, want %q", tt.name, got, tt.want)
		}
	}
}

// TestModulesCat prints every library file that nodegen modules lists, by
// its name and by the name diagnostics give it.
func TestModulesCat(t *testing.T) {
	var list bytes.Buffer
	if code := run([]string{"modules"}, &list, io.Discard); code != exitOK {
		t.Fatalf("nodegen modules: exit %d", code)
	}
	names := bytes.Fields(list.Bytes())
	if len(names) == 0 {
		t.Fatal("nodegen modules lists nothing")
	}
	for _, n := range names {
		want, err := fs.ReadFile(modules.FS(), string(n))
		if err != nil {
			t.Fatal(err)
		}
		for _, arg := range []string{string(n), "<nodegen>/modules/" + string(n)} {
			var out, errOut bytes.Buffer
			if code := run([]string{"modules", "cat", arg}, &out, &errOut); code != exitOK || !bytes.Equal(out.Bytes(), want) {
				t.Errorf("nodegen modules cat %s: exit %d, %d bytes (want %d), stderr %q", arg, code, out.Len(), len(want), errOut.String())
			}
		}
	}
}
