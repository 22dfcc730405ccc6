#!/usr/bin/env bash
# Build flannel for the two-host end-to-end test, from the Go module proxy,
# into OUTDIR (made as OUTDIR.partial and renamed when complete):
#   OUTDIR/flanneld/bin/flannel  flanneld v0.28.10 (services.flannel.package)
#   OUTDIR/cni/bin/flannel       the flannel CNI plugin of
#                                containernetworking/plugins v0.9.1, the last
#                                release that has it
#                                (services.kubernetes.flannel.cniPackage)
# flanneld's main package is built in a wrapper module without two of its
# backends: tencentvpc, whose SDK the proxy refuses, and udp, which needs
# cgo. vxlan, host-gw, wireguard, ipip and ipsec remain.
# Usage: build-flannel.sh OUTDIR [WORKDIR]
set -euo pipefail
OUT=${1:?usage: build-flannel.sh OUTDIR [WORKDIR]}
WD=${2:-$(mktemp -d)}
FLANNEL=v0.28.10
PLUGINS=v0.9.1
export CGO_ENABLED=0 GOFLAGS=-mod=mod GOTOOLCHAIN=local
rm -rf "$OUT.partial"
mkdir -p "$OUT.partial/flanneld/bin" "$OUT.partial/cni/bin" "$WD/flanneld"
OUT=$(cd "$OUT.partial/.." && pwd)/$(basename "$OUT")

cd "$WD/flanneld"
printf 'module nodegen-e2e/flanneld\n\ngo 1.26.0\n\nrequire github.com/flannel-io/flannel %s\n' "$FLANNEL" > go.mod
src=$(timeout 600 go mod download -json "github.com/flannel-io/flannel@$FLANNEL" | sed -n 's/.*"Dir": "\(.*\)".*/\1/p')
[ -f "$src/main.go" ] || { echo "build-flannel.sh: the Go module proxy has no github.com/flannel-io/flannel@$FLANNEL" >&2; exit 1; }
grep -vE 'pkg/backend/(tencentvpc|udp)"' "$src/main.go" > main.go
timeout 1500 nice -n 10 go build -trimpath -ldflags "-s -w -X github.com/flannel-io/flannel/pkg/version.Version=$FLANNEL" -o "$OUT.partial/flanneld/bin/flannel" .

cd "$WD"
GOBIN="$OUT.partial/cni/bin" timeout 600 nice -n 10 go install -trimpath -ldflags '-s -w' "github.com/containernetworking/plugins/plugins/meta/flannel@$PLUGINS"

rm -rf "$OUT"
mv "$OUT.partial" "$OUT"
echo "built $OUT/flanneld/bin/flannel and $OUT/cni/bin/flannel"
