#!/usr/bin/env bash
# Build CoreDNS for the end-to-end test of the DNS addon, from the Go module
# proxy, into OUTDIR/coredns (made in OUTDIR.partial and renamed when
# complete). The test wraps it into an image of its own (image/mkimage).
# Usage: build-coredns.sh OUTDIR
set -euo pipefail
OUT=${1:?usage: build-coredns.sh OUTDIR}
VERSION=v1.15.0
export CGO_ENABLED=0 GOFLAGS=-mod=mod GOTOOLCHAIN=local
rm -rf "$OUT.partial"
mkdir -p "$OUT.partial"
GOBIN=$(cd "$OUT.partial" && pwd) timeout 1800 nice -n 10 go install -trimpath -ldflags '-s -w' "github.com/coredns/coredns@$VERSION"
rm -rf "$OUT"
mv "$OUT.partial" "$OUT"
echo "built $OUT/coredns"
