#!/usr/bin/env bash
# Build Kubernetes server binaries + kubectl from the Go module proxy, for
# the end-to-end tests (about 17 minutes on 2 cores, 514 MiB).
# Usage: build-k8s.sh VERSION OUTDIR [WORKDIR]
#   VERSION: e.g. v1.37.2   OUTDIR: where binaries go   WORKDIR: scratch wrapper module
# The binaries are built into OUTDIR.partial, which is renamed to OUTDIR
# once all of them are there: an OUTDIR that exists is complete.
# k8s.io/kubernetes's go.mod replaces every k8s.io/<staging> module with
# ./staging/src/k8s.io/<staging>, so `go install k8s.io/kubernetes/cmd/...@v`
# fails. We make a wrapper module that requires k8s.io/kubernetes and replaces
# each staging module with its published twin at v0.<minor>.<patch>.
set -euo pipefail
VER=${1:?version like v1.34.4}
FINAL=${2:?outdir}
WD=${3:-${TMPDIR:-/tmp}/nodegen-k8s-build-$VER}
STAGING_VER=v0.${VER#v1.}
BINS=${BINS:-"kube-apiserver kube-controller-manager kube-scheduler kubelet kube-proxy kubectl"}
mkdir -p "$FINAL.partial" "$WD"
OUT=$(cd "$FINAL.partial" && pwd)
cd "$WD"

export GOFLAGS=-mod=mod CGO_ENABLED=${CGO_ENABLED:-0} GOTOOLCHAIN=${GOTOOLCHAIN:-local}

if ! json=$(timeout 600 go mod download -json "k8s.io/kubernetes@$VER"); then
  echo "go mod download k8s.io/kubernetes@$VER failed:" >&2
  echo "$json" >&2
  exit 1
fi
gomod=$(echo "$json" | sed -n 's/.*"GoMod": "\(.*\)".*/\1/p')
[ -f "$gomod" ] || { echo "no go.mod for k8s.io/kubernetes@$VER" >&2; exit 1; }
goline=$(grep -m1 '^go ' "$gomod")

{
  echo "module k8s-e2e-build"
  echo
  echo "$goline"
  echo
  echo "require k8s.io/kubernetes $VER"
  echo
  # every "k8s.io/x => ./staging/src/k8s.io/x" becomes "k8s.io/x => k8s.io/x v0.Y.Z"
  grep -E '^\s*(replace\s+)?k8s\.io/[^ ]+\s+=>\s+\./staging/' "$gomod" |
    sed -E 's/^\s*(replace\s+)?//' |
    awk -v v="$STAGING_VER" '{print "replace " $1 " => " $1 " " v}'
} > go.mod
cat > main.go <<'EOF'
package main

func main() {}
EOF

# same -X flags as hack/lib/version.sh, so the binaries report the real version
minor=${VER#v1.}; minor=${minor%%.*}
date=$(date -u +%Y-%m-%dT%H:%M:%SZ)
ld="-s -w"
for p in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
  ld="$ld -X $p.gitVersion=$VER -X $p.gitMajor=1 -X $p.gitMinor=$minor -X $p.gitTreeState=clean -X $p.buildDate=$date -X $p.gitCommit=0000000000000000000000000000000000000000"
done

for b in $BINS; do
  t0=$(date +%s)
  timeout 3000 nice -n 10 go build -trimpath -ldflags "$ld" -o "$OUT/$b" "k8s.io/kubernetes/cmd/$b"
  t1=$(date +%s)
  echo "built $b in $((t1 - t0))s, $(du -h "$OUT/$b" | cut -f1)"
done
"$OUT/kubectl" version --client 2>/dev/null | head -1 || true
rm -rf "$FINAL"
mv "$OUT" "$FINAL"
