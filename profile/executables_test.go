package profile

import "testing"

// TestValidateImagePrograms refuses what no evaluation writes.
func TestValidateImagePrograms(t *testing.T) {
	for _, ps := range [][]ImageProgram{
		{{Path: "relative"}},
		{{Path: "/a/../b"}},
		{{Path: "/b"}, {Path: "/a"}},
		{{Path: "/a"}, {Path: "/a"}},
	} {
		if err := validateImagePrograms(ps); err == nil {
			t.Errorf("%v: accepted", ps)
		}
	}
	if err := validateImagePrograms([]ImageProgram{{Path: "/a"}, {Path: "/b"}}); err != nil {
		t.Error(err)
	}
}
