package lib

import (
	"errors"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
)

func TestFile(t *testing.T) {
	fsys := fstest.MapFS{
		"modules/k8s/kubelet.hcl":        {Data: []byte("# module")},
		"modules/k8s/files/kubelet.conf": {Data: []byte("KUBELET_ARGS=--v=2\n")},
		"modules/k8s/binary":             {Data: []byte{0xff, 0xfe}},
		"modules/other/secret":           {Data: []byte("secret")},
		"top.txt":                        {Data: []byte("top")},
	}
	file := FileFunc(fsys, "modules/k8s", 1<<20)
	root := FileFunc(fsys, ".", 1<<20)
	for _, c := range []struct {
		name    string
		f       function.Function
		path    string
		want    string
		wantErr string
	}{
		{"plain", file, "files/kubelet.conf", "KUBELET_ARGS=--v=2\n", ""},
		{"dot", file, "./files/kubelet.conf", "KUBELET_ARGS=--v=2\n", ""},
		{"down and up", file, "files/../kubelet.hcl", "# module", ""},
		{"double slash", file, "files//kubelet.conf", "KUBELET_ARGS=--v=2\n", ""},
		{"root dir", root, "top.txt", "top", ""},
		{"root dir nested", root, "modules/other/secret", "secret", ""},
		{"parent", file, "../other/secret", "", "the file must be below the module's directory"},
		{"parent after clean", file, "files/../../other/secret", "", "the file must be below the module's directory"},
		{"dotdot", file, "..", "", "the file must be below the module's directory"},
		{"absolute", file, "/modules/k8s/kubelet.hcl", "", "the file must be below the module's directory"},
		{"root parent", root, "../etc/passwd", "", "the file must be below the module's directory"},
		{"missing", file, "files/nope", "", `no file exists at "files/nope"`},
		{"directory", file, "files", "", `cannot read "files"`},
		{"module dir itself", file, ".", "", `cannot read "."`},
		{"empty", file, "", "", "the path is empty"},
		{"binary", file, "binary", "", "not valid UTF-8"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := Call(c.f, []cty.Value{cty.StringVal(c.path)})
			if c.wantErr != "" {
				if err == nil {
					t.Fatalf("read %q; want an error containing %q", got.AsString(), c.wantErr)
				}
				if !strings.Contains(err.Error(), c.wantErr) {
					t.Errorf("error %q; want one containing %q", err, c.wantErr)
				}
				var ae function.ArgError
				if !errors.As(err, &ae) || ae.Index != 0 {
					t.Errorf("error %#v is not an ArgError for the path", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got.AsString() != c.want {
				t.Errorf("read %q; want %q", got.AsString(), c.want)
			}
		})
	}
}

func TestFileFuncInvalidDir(t *testing.T) {
	for _, dir := range []string{"/abs", "../up", "a/../b", ""} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("FileFunc(%q) did not panic", dir)
				}
			}()
			FileFunc(fstest.MapFS{}, dir, 1<<20)
		}()
	}
}

func TestCall(t *testing.T) {
	join := Functions()["join"]
	// A tuple converts to the list of strings join wants.
	got, err := Call(join, []cty.Value{cty.StringVal("-"), cty.TupleVal([]cty.Value{cty.StringVal("a"), cty.NumberIntVal(1)})})
	if err != nil || !got.RawEquals(cty.StringVal("a-1")) {
		t.Errorf("join: %#v, %v", got, err)
	}
	// A failed conversion is an error for that argument, variadic ones too.
	_, err = Call(join, []cty.Value{cty.StringVal("-"), cty.ListValEmpty(cty.String), cty.StringVal("x")})
	var ae function.ArgError
	if !errors.As(err, &ae) || ae.Index != 2 {
		t.Errorf("join with a bad list: %#v; want an ArgError for argument 2", err)
	}
	// Too many or too few arguments.
	if _, err := Call(Functions()["upper"], []cty.Value{cty.StringVal("a"), cty.StringVal("b")}); err == nil {
		t.Error("upper with two arguments succeeded")
	}
	if _, err := Call(Functions()["upper"], nil); err == nil {
		t.Error("upper with no arguments succeeded")
	}
}
