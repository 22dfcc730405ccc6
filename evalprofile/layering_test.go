package evalprofile_test

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/nodegen/nodegen/internal/suitereport"
)

// TestFormatPackagesDoNotEvaluate checks the layering the package doc
// states: the packages that read, install or render profiles, and the
// formatter, depend on no part of the evaluator, nor on the function
// library (the rules of generated fields they share are
// internal/wordrule's).
func TestFormatPackagesDoNotEvaluate(t *testing.T) {
	goTool := suitereport.Program(t, "go list -deps (evalprofile)", "go", "the Go toolchain")
	tests := []struct {
		pkg       string
		forbidden []string
	}{
		{"profile", []string{"eval", "evalprofile", "options", "lib", "property"}},
		{"activate", []string{"eval", "evalprofile", "options", "lib", "property"}},
		{"ignition", []string{"eval", "evalprofile", "options", "lib", "property"}},
		// The rules about a built profile know neither the evaluator nor
		// the profile format, which records their program checks.
		{"profilecheck", []string{"eval", "evalprofile", "options", "lib", "property", "profile", "activate"}},
		{"hclfmt", []string{"eval", "options", "lib", "property", "internal/parsecache"}},
	}
	const module = "github.com/nodegen/nodegen/"
	for _, tt := range tests {
		t.Run(tt.pkg, func(t *testing.T) {
			out, err := exec.Command(goTool, "list", "-deps", module+tt.pkg).Output()
			if err != nil {
				t.Fatalf("go list -deps %s: %v", tt.pkg, err)
			}
			deps := map[string]bool{}
			for _, d := range strings.Fields(string(out)) {
				deps[d] = true
			}
			if !deps[module+tt.pkg] {
				t.Fatalf("go list -deps %s does not list the package itself:\n%s", tt.pkg, out)
			}
			for _, f := range tt.forbidden {
				if deps[module+f] {
					t.Errorf("%s depends on %s", tt.pkg, f)
				}
			}
		})
	}
}
