GO ?= go

.PHONY: build test vet fmt-check test-modules hcl-fmt-check docs bench fuzz

build:
	$(GO) build -o bin/nodegen ./cmd/nodegen

# test is what CI runs: static checks, then every test (docgen's test fails
# when docs/options.md is stale), then the module library's own tests.
test: vet fmt-check hcl-fmt-check
	$(GO) test ./...
	$(GO) run ./cmd/nodegen test modules/

# test-modules runs the *.test.hcl tests of the module library.
test-modules:
	$(GO) run ./cmd/nodegen test modules/

# hcl-fmt-check lists the module and fixture files that nodegen fmt would
# change.
hcl-fmt-check:
	$(GO) run ./cmd/nodegen fmt --check modules fixtures

# docs regenerates docs/options.md, the reference of the library's options.
docs:
	@mkdir -p docs
	$(GO) run ./cmd/nodegen options --format markdown > docs/options.md.tmp
	mv docs/options.md.tmp docs/options.md

vet:
	$(GO) vet ./...

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi

# bench measures parsing and evaluation of generated module sets.
bench:
	$(GO) test -run '^$$' -bench . -benchmem -count 1 ./eval/

# fuzz runs the parse+evaluate fuzz target for a minute.
fuzz:
	$(GO) test -run '^$$' -fuzz FuzzEvaluate -fuzztime 60s ./eval/
