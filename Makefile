GO ?= go

.PHONY: build test vet fmt-check bench fuzz docs

build:
	$(GO) build -o bin/nodegen ./cmd/nodegen

# test is what CI runs: static checks, then every test.
test: vet fmt-check
	$(GO) test ./...

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
