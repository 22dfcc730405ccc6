package profile

import (
	"fmt"
	"path"
	"sort"
	"strings"
)

// Asset is a release file that a profile installs, as kops' nodeup does
// with the binaries of a node: downloaded from URL, checked against its
// sha256, and installed at one or more absolute paths, either the download
// itself (an executable) or members of it (a tar.gz or zip archive).
type Asset struct {
	// Name is the asset's name in environment.assets.
	Name string `json:"name"`
	// URL is the asset's URL (https://, http:// or file://): what its
	// hash is known by (in nodegen.lock.hcl too).
	URL string `json:"url"`
	// Mirror, when set, is where it is downloaded from instead: URL as
	// environment.assetMirrors rewrites it.
	Mirror string `json:"mirror,omitempty"`
	// SHA256 or SHA512 (one of them) is the lower-case hex hash of the
	// download.
	SHA256 string `json:"sha256,omitempty"`
	SHA512 string `json:"sha512,omitempty"`
	// Archive is "tar.gz" or "zip" when Files are members of the download,
	// "" when the download itself is installed.
	Archive string `json:"archive,omitempty"`
	// Files are what is installed, sorted by Path.
	Files []AssetFile `json:"files"`
	// Option is the option that declares the asset.
	Option string `json:"option,omitempty"`
}

// AssetFile is one path an asset installs.
type AssetFile struct {
	// Path is absolute: "/opt/kubernetes/bin/kubelet".
	Path string `json:"path"`
	// Member is the path of the file inside the archive; "" for the
	// download itself.
	Member string `json:"member,omitempty"`
}

// Package is a distribution package that a profile needs installed.
type Package struct {
	// Name is the package's name (Debian's, for apt).
	Name string `json:"name"`
	// Option is the option that declares it.
	Option string `json:"option,omitempty"`
}

// Source is where the asset is downloaded from: its Mirror, or its URL.
func (a Asset) Source() string {
	if a.Mirror != "" {
		return a.Mirror
	}
	return a.URL
}

// Key names the asset's content: "sha256-HEX" or "sha512-HEX". Two assets
// with the same key are the same file.
func (a Asset) Key() string {
	if a.SHA512 != "" {
		return "sha512-" + a.SHA512
	}
	return "sha256-" + a.SHA256
}

// forbiddenRoots are where an asset may not be installed: /etc is the
// profile's own, the others are nodegen's state or not files.
var forbiddenRoots = []string{"/etc", "/var/lib/nodegen", "/proc", "/sys", "/dev", "/run"}

// validateBinaries checks a profile's assets and packages and returns them
// sorted, each file's path once.
func validateBinaries(assets []Asset, packages []Package) ([]Asset, []Package, error) {
	var errs []string
	bad := func(what, option, format string, args ...any) {
		errs = append(errs, fmt.Sprintf("%s (from %s): %s", what, OrUnnamed(option), fmt.Sprintf(format, args...)))
	}
	out := make([]Asset, 0, len(assets))
	owner := map[string]string{}
	for _, a := range assets {
		what := "asset " + a.Name
		switch {
		case a.Name == "" || strings.ContainsAny(a.Name, "/\x00"):
			bad(what, a.Option, "bad name %q", a.Name)
		case (a.SHA256 == "") == (a.SHA512 == ""):
			bad(what, a.Option, "give one hash: sha256 or sha512")
		case a.SHA256 != "" && !isLowerHex(a.SHA256, 64):
			bad(what, a.Option, "sha256 %q is not 64 lower-case hex digits", a.SHA256)
		case a.SHA512 != "" && !isLowerHex(a.SHA512, 128):
			bad(what, a.Option, "sha512 %q is not 128 lower-case hex digits", a.SHA512)
		case !strings.HasPrefix(a.URL, "https://") && !strings.HasPrefix(a.URL, "http://") && !strings.HasPrefix(a.URL, "file:///"):
			bad(what, a.Option, "url %q is not https://, http:// or file:///", a.URL)
		case a.Mirror != "" && !strings.HasPrefix(a.Mirror, "https://") && !strings.HasPrefix(a.Mirror, "http://") && !strings.HasPrefix(a.Mirror, "file:///"):
			bad(what, a.Option, "mirror %q is not https://, http:// or file:///", a.Mirror)
		case a.Archive != "" && a.Archive != "tar.gz" && a.Archive != "zip":
			bad(what, a.Option, "archive %q is not tar.gz or zip", a.Archive)
		case len(a.Files) == 0:
			bad(what, a.Option, "installs nothing")
		}
		files := append([]AssetFile(nil), a.Files...)
		sort.Slice(files, func(i, j int) bool { return files[i].Path < files[j].Path })
		for _, f := range files {
			if r := checkInstallPath(f.Path); r != "" {
				bad(what, a.Option, "%s: %s", f.Path, r)
			}
			if (a.Archive == "") != (f.Member == "") {
				bad(what, a.Option, "%s: a member of the archive is given only for a tar.gz or zip asset", f.Path)
			}
			if m := path.Clean(f.Member); f.Member != "" && (m != f.Member || strings.HasPrefix(m, "/") || m == ".." || strings.HasPrefix(m, "../")) {
				bad(what, a.Option, "member %q is not a clean relative path", f.Member)
			}
			if prev, ok := owner[f.Path]; ok {
				bad(what, a.Option, "%s is installed by asset %s too", f.Path, prev)
			}
			owner[f.Path] = a.Name
		}
		a.Files = files
		out = append(out, a)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	for i := 1; i < len(out); i++ {
		if out[i].Name == out[i-1].Name {
			bad("asset "+out[i].Name, out[i].Option, "declared twice")
		}
	}
	pkgs := append([]Package(nil), packages...)
	sort.Slice(pkgs, func(i, j int) bool { return pkgs[i].Name < pkgs[j].Name })
	for i, p := range pkgs {
		if !isDebianName(p.Name) {
			bad("package "+p.Name, p.Option, "not a package name")
		}
		if i > 0 && p.Name == pkgs[i-1].Name {
			bad("package "+p.Name, p.Option, "listed twice")
		}
	}
	if len(errs) > 0 {
		return nil, nil, fmt.Errorf("%s", strings.Join(errs, "\n"))
	}
	return out, pkgs, nil
}

// isDebianName reports whether name is what Debian allows in a package
// name: two or more of a-z, 0-9, "+", "." and "-", starting with a letter
// or a digit.
func isDebianName(name string) bool {
	if len(name) < 2 || !isLowerAlnum(name[0]) {
		return false
	}
	for i := 1; i < len(name); i++ {
		if c := name[i]; !isLowerAlnum(c) && c != '+' && c != '.' && c != '-' {
			return false
		}
	}
	return true
}

func isLowerAlnum(c byte) bool { return 'a' <= c && c <= 'z' || '0' <= c && c <= '9' }

// isLowerHex reports whether s is n lower-case hexadecimal digits.
func isLowerHex(s string, n int) bool {
	if len(s) != n {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// checkInstallPath returns why p is not a path an asset may be installed
// at, or "".
func checkInstallPath(p string) string {
	switch {
	case !strings.HasPrefix(p, "/"):
		return "not an absolute path"
	case path.Clean(p) != p || p == "/":
		return "not a clean path"
	case strings.ContainsAny(p, "\x00\n"):
		return "contains a control character"
	}
	for _, root := range forbiddenRoots {
		if p == root || strings.HasPrefix(p, root+"/") {
			return "below " + root + ", where nodegen installs no binaries"
		}
	}
	return ""
}

// ValidatePackageProxy checks a package proxy (environment.packageProxy):
// "" (none), or an http:// or https:// URL with a host and nothing apt's
// configuration would read otherwise (no space, quote, semicolon or
// control character).
func ValidatePackageProxy(proxy string) error {
	if proxy == "" {
		return nil
	}
	rest, ok := strings.CutPrefix(proxy, "http://")
	if !ok {
		rest, ok = strings.CutPrefix(proxy, "https://")
	}
	host, _, _ := strings.Cut(rest, "/")
	switch {
	case !ok:
		return fmt.Errorf("package proxy %q (from environment.packageProxy): not an http:// or https:// URL", proxy)
	case host == "":
		return fmt.Errorf("package proxy %q (from environment.packageProxy): no host", proxy)
	case strings.IndexFunc(proxy, func(r rune) bool { return r <= ' ' || r == 0x7f || r == '"' || r == ';' || r == '{' || r == '}' }) >= 0:
		return fmt.Errorf("package proxy %q (from environment.packageProxy): a space, quote, semicolon, brace or control character", proxy)
	}
	return nil
}

// orNone is s, or "(none)" when it is empty.
func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}
