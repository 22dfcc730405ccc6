// The image that the Kubernetes end-to-end tests run as pods and as the
// pod sandbox, without a registry: a static "sleeper" program (sleeper/)
// and mkimage (mkimage/), which wraps it into a one-layer image tarball
// that `ctr images import` accepts. A module of its own, so that the
// nodegen module neither requires go-containerregistry nor builds, vets
// or tests this directory.
module nodegen-e2e/image

go 1.25.0

require github.com/google/go-containerregistry v0.22.1

require (
	github.com/klauspost/compress v1.19.2 // indirect
	github.com/opencontainers/go-digest v1.0.0 // indirect
	github.com/opencontainers/image-spec v1.1.1 // indirect
)
