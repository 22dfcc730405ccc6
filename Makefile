GO ?= go

.PHONY: build test vet fmt-check test-modules hcl-fmt-check docs bench fuzz pgo e2e-kubernetes e2e-kubernetes-build containerd2

# build writes the command as one static executable (BIN, default
# bin/nodegen): no C library to link, nothing to install beside it, and no
# dynamic loader to run at every start.
BIN ?= bin/nodegen
build:
	CGO_ENABLED=0 $(GO) build -o $(BIN) ./cmd/nodegen

# test is what CI runs: static checks, then every test (docgen's test fails
# when docs/options.md is stale), then the module library's own tests,
# each phase timed ("make test: PHASE: N s").
#
# Every go test has a timeout that fits what it does (go test's default,
# 10 minutes, would kill a first run that builds a machine's root file
# system). The packages whose tests boot systemd-nspawn machines
# (internal/nspawntest) are SLOW_TESTS, PACKAGE:TIMEOUT[:COUNT] each, run one
# after the other once the rest have passed or failed; each timeout covers
# building the package's root file systems on first use (nspawntest bounds
# one debootstrap at 15 minutes and its packing at 5, the usual first
# build takes 2 to 5) and the tests. A new package of machine tests (such
# as modtest/machinerun, the machine tests' driver, or e2e/stock, the
# operator's cluster from stock machines, run twice in a row) goes in
# this list. e2e/kubernetes runs once here (make
# e2e-kubernetes runs it twice in a row) and needs the binaries that make
# e2e-kubernetes-build builds (.ci/run does; without them its tests skip,
# and fail under CI).
#
# The tests that need something of the machine (other programs to compare
# with: NixOS through nix-instantiate, systemd-analyze, containerd, ...;
# root; nspawn; the Kubernetes binaries) record whether they ran
# (internal/suitereport); the list is printed at the end, a line per
# suite: ran, skipped and why, or (under CI=true) failed and why.
TEST_TIMEOUT = 20m
SLOW_TESTS = \
	./internal/nspawntest:30m \
	./modtest/machinerun:20m \
	./switchtest:45m \
	./e2e/deploy:40m \
	./e2e/pull:25m \
	./e2e/kubernetes:60m \
	./e2e/stock:75m:2
# TIMELINE_TESTS print their tests' logs (-v) when they pass too: the
# timelines of the cluster tests.
TIMELINE_TESTS = ./e2e/stock ./e2e/kubernetes
SUITES = bin/comparison-suites.txt
MODULE = github.com/nodegen/nodegen
test:
	@mkdir -p bin && rm -f $(SUITES); status=0; \
	timed() { name=$$1; shift; t0=$$(date +%s); "$$@"; s=$$?; \
	  echo "make test: $$name: $$(( $$(date +%s) - t0 )) s$$([ $$s = 0 ] || echo ", FAILED")"; \
	  [ $$s = 0 ] || status=1; }; \
	timed vet $(VET); \
	timed fmt-check sh -c '$(FMT_CHECK)'; \
	timed hcl-fmt-check $(HCL_FMT_CHECK); \
	export NODEGEN_SUITE_REPORT=$(CURDIR)/$(SUITES); \
	timed "go test (all but SLOW_TESTS)" $(GO) test -count=1 -timeout $(TEST_TIMEOUT) \
	  $$($(GO) list ./... | grep -vxF $(foreach t,$(SLOW_TESTS),-e $(MODULE)/$(patsubst ./%,%,$(firstword $(subst :, ,$(t)))))); \
	for t in $(SLOW_TESTS); do \
	  pkg=$${t%%:*}; rest=$${t#*:}; timeout=$${rest%%:*}; count=1; \
	  [ "$$rest" = "$$timeout" ] || count=$${rest#*:}; \
	  v=; case " $(TIMELINE_TESTS) " in *" $$pkg "*) v=-v;; esac; \
	  timed "go test $$pkg" $(GO) test -count=$$count -timeout $$timeout $$v $$pkg; \
	done; \
	timed "nodegen test modules/" $(GO) run ./cmd/nodegen test modules/; \
	echo "suites that need the machine (internal/suitereport):"; sort -u $(SUITES) 2>/dev/null | sed 's/^/  /'; \
	exit $$status

# The Kubernetes end-to-end tests (e2e/kubernetes, see its README.md) run
# the programs of this release, built once into the cache NODEGEN_K8S_CACHE
# (the tests read the same variable, and name the same version).
K8S_VERSION = v1.37.2
NODEGEN_K8S_CACHE ?= /var/cache/nodegen-e2e/kubernetes
export NODEGEN_K8S_CACHE
K8S_BIN = $(NODEGEN_K8S_CACHE)/$(K8S_VERSION)/bin
# flannel and CoreDNS for the two-host test over flannel's overlay, with
# the DNS addon (e2e/kubernetes/scripts/build-flannel.sh and
# build-coredns.sh, a few minutes each).
K8S_FLANNEL = $(NODEGEN_K8S_CACHE)/flannel-v0.28.10
K8S_COREDNS = $(NODEGEN_K8S_CACHE)/coredns-v1.15.0

# e2e-kubernetes-build builds the Kubernetes binaries, flannel and CoreDNS
# from the Go module proxy when they are not cached (about 17 minutes on 2
# cores for Kubernetes, a few for the others); each script builds into a
# .partial directory and renames it, so a cached directory is complete.
e2e-kubernetes-build:
	@[ -x "$(K8S_BIN)/kube-addons" ] || e2e/kubernetes/scripts/build-k8s.sh $(K8S_VERSION) "$(K8S_BIN)"
	@[ -x "$(K8S_FLANNEL)/cni/bin/flannel" ] || e2e/kubernetes/scripts/build-flannel.sh "$(K8S_FLANNEL)"
	@[ -x "$(K8S_COREDNS)/coredns" ] || e2e/kubernetes/scripts/build-coredns.sh "$(K8S_COREDNS)"

# e2e-kubernetes builds what is missing, then runs the cluster tests twice
# in a row; the first run also builds the nodes' root file systems and the
# image when they are not cached.
e2e-kubernetes: e2e-kubernetes-build
	for run in 1 2; do \
	  $(GO) test -count=1 -timeout 60m -run 'TestSingleHost|TestTwoHosts|TestTwoHostsFlannelDNS|TestFlagsAccepted|TestConfigFiles' -v ./e2e/kubernetes/ || exit 1; \
	done

# containerd2 builds containerd 2 from the Go module proxy (a few minutes)
# where containerdtest's TestConfigVersion3 looks for it; without it that
# test is skipped, and make test says so (under CI it fails: .ci/run runs
# make containerd2).
CONTAINERD2 = /var/cache/nodegen-e2e/containerd-v2.4.2
containerd2:
	@[ -x "$(CONTAINERD2)/containerd" ] || CGO_ENABLED=0 GOFLAGS=-mod=mod GOBIN="$(CONTAINERD2)" $(GO) install -trimpath -ldflags '-s -w' -tags 'no_btrfs no_devmapper no_zfs' github.com/containerd/containerd/v2/cmd/containerd@v2.4.2

# test-modules runs the *.test.hcl tests of the module library.
test-modules:
	$(GO) run ./cmd/nodegen test modules/

# hcl-fmt-check lists the module and fixture files that nodegen fmt would
# change.
HCL_FMT_CHECK = $(GO) run ./cmd/nodegen fmt --check modules fixtures
hcl-fmt-check:
	$(HCL_FMT_CHECK)

# docs regenerates docs/options.md, the reference of the library's options,
# its searchable page (docs/options.html, options-index.js and
# options-index.json, written in place atomically), and the library's
# syntax trees that the command carries (internal/librarytrees/library.bundle).
docs:
	@mkdir -p docs
	$(GO) run ./cmd/nodegen options --format markdown > docs/options.md.tmp
	mv docs/options.md.tmp docs/options.md
	$(GO) run ./cmd/nodegen options --format html -o docs
	NODEGEN_UPDATE=1 $(GO) test -count=1 -run TestBundleUpToDate ./internal/librarytrees/

VET = $(GO) vet ./...
vet:
	$(VET)

# fmt-check lists the Go files that gofmt would change.
FMT_CHECK = out=$$(gofmt -l $$(git ls-files "*.go" 2>/dev/null || find . -name "*.go")); \
	if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
fmt-check:
	@$(FMT_CHECK)

# bench measures parsing and evaluation of generated module sets, the
# Kubernetes host, and nodegen build on fleets of 10, 100 and 1000
# generated workers (once each), compiled with the profile the command is
# built with.
bench:
	$(GO) test -pgo=cmd/nodegen/default.pgo -run '^$$' -bench . -benchmem -count 1 ./eval/
	$(GO) test -pgo=cmd/nodegen/default.pgo -run '^$$' -bench . -benchmem -count 1 ./fixtures/
	$(GO) test -pgo=cmd/nodegen/default.pgo -run '^$$' -bench Fleet -benchtime 1x -benchmem -count 1 ./cmd/nodegen/
	$(GO) test -run '^$$' -bench . -benchtime 30x -count 1 ./lsp/

# pgo regenerates cmd/nodegen/default.pgo, the CPU profile that go build
# optimises the command with (profile-guided optimisation), from the
# benchmarks of the generated 1000-module set and of k8s-single.
pgo:
	@mkdir -p bin
	$(GO) test -run '^$$' -bench 'Whole/1000$$' -benchtime 6x -cpuprofile bin/whole.pprof -o bin/eval.test ./eval/
	$(GO) test -run '^$$' -bench K8sSingle -benchtime 60x -cpuprofile bin/k8s.pprof -o bin/fixtures.test ./fixtures/
	$(GO) tool pprof -proto bin/whole.pprof bin/k8s.pprof > cmd/nodegen/default.pgo

# fuzz runs the parse+evaluate fuzz target for a minute, then each fuzz
# target of the generated formats (fixtures/fuzz_formats_test.go: values
# through the modules, the result read back by sshd, chronyd, nft,
# systemd-sysusers, systemd-tmpfiles and sh) for 20 seconds.
FORMAT_FUZZ = FuzzSysusers FuzzTmpfilesPath FuzzChronyServers FuzzSshdAuthorizedKeysFiles FuzzFirewallTrustedInterface FuzzHostKeyScript
fuzz:
	$(GO) test -run '^$$' -fuzz FuzzEvaluate -fuzztime 60s ./eval/
	for f in $(FORMAT_FUZZ); do $(GO) test -run '^$$' -fuzz "^$$f$$" -fuzztime 20s ./fixtures/ || exit 1; done
