package profile

import (
	"fmt"
	"path"
	"strings"
)

// ImageProgram is a program that a profile runs and leaves to the system
// image (environment.providedByImage).
type ImageProgram struct {
	// Path is absolute: "/opt/kubernetes/bin/kubelet".
	Path string `json:"path"`
	// Option is the option of a unit or script that runs it.
	Option string `json:"option,omitempty"`
}

// validateImagePrograms checks the image programs of a manifest: absolute
// clean paths, sorted, each once.
func validateImagePrograms(ps []ImageProgram) error {
	for i, p := range ps {
		if p.Path == "" || p.Path[0] != '/' || path.Clean(p.Path) != p.Path || strings.ContainsAny(p.Path, "\x00\n") {
			return fmt.Errorf("image program %q (from %s): not a clean absolute path", p.Path, OrUnnamed(p.Option))
		}
		if i > 0 && ps[i-1].Path >= p.Path {
			return fmt.Errorf("image program %q: the programs are not sorted by path, or the path is listed twice", p.Path)
		}
	}
	return nil
}
