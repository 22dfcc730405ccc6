package profile

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/nodegen/nodegen/profilecheck"
)

// encodingJSON is how the manifest was written before Manifest.encode: by
// encoding/json, which encode must match byte for byte.
func encodingJSON(t testing.TB, m Manifest) []byte {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(m); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// awkward holds every byte, the runes encoding/json escapes, and invalid
// UTF-8.
func awkward() string {
	var b strings.Builder
	for c := range 256 {
		b.WriteByte(byte(c))
	}
	b.WriteString("<a href=\"x\">&amp;</a> \u2028 \u2029 \ufffd é 日本 \U0001F600 \xed\xa0\x80 \xf4\x90\x80\x80 \xc3")
	return b.String()
}

func TestManifestEncoding(t *testing.T) {
	size := func(n int64) *int64 { return &n }
	odd := awkward()
	tests := []struct {
		name string
		m    Manifest
	}{
		{"nothing", Manifest{Version: ManifestVersion, Entries: []ManifestEntry{}, Warnings: []string{}}},
		{"nil lists", Manifest{}},
		{"a file and a symlink", withWarnings(newManifest([]Entry{
			{Target: "hostname", Mode: "0644", User: "root", Group: "root", Content: []byte("h\n"), Option: `environment.etc."hostname"`},
			{Target: "systemd/system/multi-user.target.wants/a.service", Mode: TypeSymlink, Link: "/etc/systemd/system/a.service", Option: "systemd.services.a"},
			{Target: "empty", Mode: "0600", User: "u", Group: "g"},
			{Target: "checked", Mode: "0644", Content: []byte("x\n"), Checks: []profilecheck.ProgramCheck{
				{Programs: []string{"/usr/sbin/sshd", "/usr/bin/ssh-keygen"}, Script: "sshd -t -f \"$1\" <&-\n"},
				{Programs: nil, Script: "", Root: true},
			}},
		}), []string{"b", "a", "b"})},
		{"assets and packages", Manifest{
			Version: ManifestVersion, Entries: []ManifestEntry{}, Warnings: []string{"w"},
			Assets: []Asset{
				{Name: "kubelet", URL: "https://example.org/k?a=1&b=<2>", SHA256: strings.Repeat("a", 64), Files: []AssetFile{{Path: "/opt/bin/kubelet"}}, Option: "environment.assets.kubelet"},
				{Name: "cni", URL: "file:///x.tgz", SHA512: strings.Repeat("b", 128), Archive: "tar.gz", Files: []AssetFile{{Path: "/opt/cni/bin/a", Member: "./a"}, {Path: "/opt/cni/bin/b", Member: "b"}}},
				{Name: "none", URL: "http://x", Files: []AssetFile{}},
				{Name: "nil", URL: "http://y"},
			},
			Packages: []Package{{Name: "conntrack", Option: "environment.packages.conntrack"}, {Name: "socat"}},
		}},
		{"every byte in every string", Manifest{
			Version: ManifestVersion,
			Entries: []ManifestEntry{
				{Path: odd, Type: odd, Mode: odd, User: odd, Group: odd, SHA256: odd, Size: size(-1), Target: odd, Option: odd,
					Checks: []profilecheck.ProgramCheck{{Programs: []string{odd}, Script: odd, Root: true}}},
				{Path: "etc/zero", Type: TypeFile, Size: size(0)},
			},
			Warnings: []string{odd, ""},
			Assets:   []Asset{{Name: odd, URL: odd, SHA256: odd, SHA512: odd, Archive: odd, Files: []AssetFile{{Path: odd, Member: odd}}, Option: odd}},
			Packages: []Package{{Name: odd, Option: odd}},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(string(encodingJSON(t, tt.m)), string(tt.m.encode())); diff != "" {
				t.Errorf("encode against encoding/json (-want +got):\n%s", diff)
			}
		})
	}
}

// FuzzManifestEncoding holds encode to encoding/json for any strings.
func FuzzManifestEncoding(f *testing.F) {
	f.Add("etc/a", "w", "opt", "\x00\u2028\xff<>&\"\\")
	f.Add("", "", "", awkward())
	f.Fuzz(func(t *testing.T, path, warning, option, other string) {
		n := int64(len(other))
		m := Manifest{
			Version:  ManifestVersion,
			Entries:  []ManifestEntry{{Path: path, Type: other, Mode: other, SHA256: other, Size: &n, Option: option}, {Path: other, Target: path}},
			Warnings: []string{warning, other},
			Assets:   []Asset{{Name: other, URL: path, Files: []AssetFile{{Path: other, Member: option}}, Option: warning}},
			Packages: []Package{{Name: path, Option: other}},
		}
		if got, want := m.encode(), encodingJSON(t, m); !bytes.Equal(got, want) {
			t.Errorf("encode:\n%s\nencoding/json:\n%s", got, want)
		}
	})
}

// TestManifestEncodingEveryField fills every field of the manifest's types,
// found by reflection, so that a field added to them and not to encode
// fails here rather than going missing from written manifests.
func TestManifestEncodingEveryField(t *testing.T) {
	var m Manifest
	fill(reflect.ValueOf(&m).Elem())
	if diff := cmp.Diff(string(encodingJSON(t, m)), string(m.encode())); diff != "" {
		t.Errorf("encode against encoding/json (-want +got):\n%s", diff)
	}
}

// fill sets every field of v, at every depth, to a value that is not its
// zero: strings to their field's name, numbers to 7, bools to true,
// slices to one element.
func fill(v reflect.Value) {
	switch v.Kind() {
	case reflect.Struct:
		for i := range v.NumField() {
			f := v.Field(i)
			if f.Kind() == reflect.String {
				f.SetString(v.Type().Field(i).Name)
				continue
			}
			fill(f)
		}
	case reflect.String:
		v.SetString("s")
	case reflect.Int, reflect.Int64:
		v.SetInt(7)
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		fill(v.Elem())
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 1, 1))
		fill(v.Index(0))
	default:
		panic("fill: a field of kind " + v.Kind().String())
	}
}

// withWarnings returns m with the warnings a manifest records of warnings.
func withWarnings(m Manifest, warnings []string) Manifest {
	m.Warnings = dedupedWarnings(warnings)
	return m
}
