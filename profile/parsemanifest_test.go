package profile

import (
	"strings"
	"testing"
)

// TestParseManifestTree: a manifest is read only when its entries make a
// tree that can be written without following one of its own links, by
// the rule Write checks (treeProblems): an entry below a symlink or a
// file is refused, naming both (issue 36, N4).
func TestParseManifestTree(t *testing.T) {
	const file = `"type": "file", "mode": "0644", "sha256": "f09693eb113fe630bac50b5e99386a704ba4a363133e55f9735d322ddb8e78ef", "size": 8`
	for _, tc := range []struct {
		name    string
		entries string
		want    string // "" when the manifest is read
	}{
		{"a file and a link beside it", `{"path": "etc/a", "type": "symlink", "target": "/srv"}, {"path": "etc/b", ` + file + `}`, ""},
		{"a file below a link", `{"path": "etc/a", "type": "symlink", "target": "/srv"}, {"path": "etc/a/b", ` + file + `}`,
			`entry etc/a/b: is below etc/a, which an unnamed option makes a symlink`},
		{"a file deep below a link", `{"path": "etc/a", "type": "symlink", "target": "/srv", "option": "environment.etc.a"}, {"path": "etc/a/b/c", ` + file + `}`,
			`entry etc/a/b/c: is below etc/a, which environment.etc.a makes a symlink`},
		{"a file below a file", `{"path": "etc/a", ` + file + `}, {"path": "etc/a/b", ` + file + `}`,
			`entry etc/a/b: is below etc/a, which an unnamed option makes a file`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseManifest([]byte(`{"version": 1, "entries": [`+tc.entries+`], "warnings": []}`), "m.json")
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Fatalf("error %v, want %q", err, tc.want)
			}
		})
	}
}
