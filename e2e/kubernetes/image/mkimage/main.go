//go:build linux

// mkimage: wrap one static binary into a single-layer linux/amd64 image and write a
// `docker save` style tarball (manifest.json with RepoTags) that
// `ctr -n k8s.io images import` accepts. Usage:
//
//	mkimage -bin sleeper -out img.tar -tag k8s-e2e.local/pause:1 -tag k8s-e2e.local/sleeper:1
//	mkimage -bin coredns -name coredns -out coredns.tar -tag k8s-e2e.local/coredns:1
package main

import (
	"archive/tar"
	"bytes"
	"flag"
	"log"
	"os"
	"strings"

	"github.com/google/go-containerregistry/pkg/name"
	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/empty"
	"github.com/google/go-containerregistry/pkg/v1/mutate"
	"github.com/google/go-containerregistry/pkg/v1/tarball"
)

type tags []string

func (t *tags) String() string     { return strings.Join(*t, ",") }
func (t *tags) Set(s string) error { *t = append(*t, s); return nil }

func main() {
	bin := flag.String("bin", "", "static binary, becomes /NAME and the entrypoint")
	base := flag.String("name", "sleeper", "the binary's name in the image")
	out := flag.String("out", "image.tar", "output tarball")
	var ts tags
	flag.Var(&ts, "tag", "image reference (repeatable)")
	flag.Parse()
	data, err := os.ReadFile(*bin)
	if err != nil {
		log.Fatal(err)
	}
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	tw.WriteHeader(&tar.Header{Name: *base, Mode: 0o755, Size: int64(len(data)), Typeflag: tar.TypeReg})
	tw.Write(data)
	tw.Close()
	layer, err := tarball.LayerFromReader(bytes.NewReader(buf.Bytes()))
	if err != nil {
		log.Fatal(err)
	}
	img, err := mutate.AppendLayers(empty.Image, layer)
	if err != nil {
		log.Fatal(err)
	}
	cf, err := img.ConfigFile()
	if err != nil {
		log.Fatal(err)
	}
	cf = cf.DeepCopy()
	cf.OS, cf.Architecture = "linux", "amd64"
	cf.Config = v1.Config{Entrypoint: []string{"/" + *base}, Env: []string{"PATH=/"}}
	img, err = mutate.ConfigFile(img, cf)
	if err != nil {
		log.Fatal(err)
	}
	refs := map[name.Reference]v1.Image{}
	for _, t := range ts {
		r, err := name.NewTag(t)
		if err != nil {
			log.Fatal(err)
		}
		refs[r] = img
	}
	if err := tarball.MultiRefWriteToFile(*out, refs); err != nil {
		log.Fatal(err)
	}
}
