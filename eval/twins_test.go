package eval_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rogpeppe/go-internal/txtar"

	"github.com/nodegen/nodegen/internal/suitereport"
)

// TestNixOSTwins runs the NixOS twin of every golden case that has one (a
// file nixos.nix, a function of nixpkgs' lib) with nix-instantiate and
// compares its value with the case's out/config.json; a case that fails
// must fail in NixOS too, with the message its comment line
// "nixos-error: MESSAGE" gives. It runs where
// nix-instantiate is installed and nixpkgs' lib is found (in
// ../shared/reference, or where NODEGEN_NIXPKGS_LIB says): the reference
// is not part of the repository. Without them it skips and says why, or
// fails under CI, and make test lists it (internal/suitereport).
func TestNixOSTwins(t *testing.T) {
	const suite = "NixOS twins (eval, nix-instantiate)"
	libDir := suitereport.NixpkgsLib(t, suite)
	nix := suitereport.Program(t, suite, "nix-instantiate", "Debian's nix-bin")
	paths, err := filepath.Glob("testdata/*/*.txtar")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range paths {
		ar, err := txtar.ParseFile(p)
		if err != nil {
			t.Fatal(err)
		}
		files := map[string][]byte{}
		for _, f := range ar.Files {
			files[f.Name] = f.Data
		}
		twin, ok := files["nixos.nix"]
		if !ok {
			continue
		}
		t.Run(strings.TrimSuffix(strings.TrimPrefix(p, "testdata/"), ".txtar"), func(t *testing.T) {
			nixFile := filepath.Join(t.TempDir(), "nixos.nix")
			if err := os.WriteFile(nixFile, twin, 0o644); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(nix, "--eval", "--strict", "--json",
				"--arg", "lib", "import "+libDir, nixFile)
			var stderr strings.Builder
			cmd.Stderr = &stderr
			out, err := cmd.Output()
			want, hasOut := files["out/config.json"]
			if !hasOut {
				// The case is an error: so must the twin be.
				if err == nil {
					t.Fatalf("the NixOS twin succeeds with %s; nodegen fails", out)
				}
				for _, line := range strings.Split(string(ar.Comment), "\n") {
					if msg, ok := strings.CutPrefix(line, "nixos-error: "); ok && !strings.Contains(stderr.String(), msg) {
						t.Errorf("the NixOS twin fails without %q:\n%s", msg, stderr.String())
					}
				}
				return
			}
			if err != nil {
				t.Fatalf("nix-instantiate: %v\n%s", err, stderr.String())
			}
			var got, exp any
			if err := json.Unmarshal(out, &got); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(want, &exp); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(exp, got); diff != "" {
				t.Errorf("NixOS and nodegen differ (-nodegen +NixOS):\n%s", diff)
			}
		})
	}
}
