# The README's two commands:
#   make demo   installs the dependencies, builds, and runs the end-to-end demo
#               (scripts/demo: the toolkit demo, then a `players` session)
#   make test   installs the dependencies, builds (failing on any compiler
#               warning in the project's code) and runs the test suite, with
#               a throwaway PostgreSQL cluster for the PostgreSQL store
#               (scripts/postgres-cluster)
#   make bench  builds players-bench in release mode and prints its ratios
#               (BENCH_FLAGS="--json" for machines, "--runs 9" for more runs)
#   make demo-postgres  two players-server instances on PostgreSQL and a
#               watching client (scripts/demo-postgres)
#   make install  builds players and players-server in release mode and
#               installs them, with players' shell completions, under PREFIX
#               (default ~/.local; scripts/install); make uninstall removes them
#   make load   players-server under load (release, wrk, loopback): the
#               embedded store and PostgreSQL with 1 and 2 instances, and
#               idle long-polls (scripts/load-test; Docs/Benchmarks.md)

.PHONY: demo demo-postgres test deps build bench load install uninstall

PREFIX ?= $(HOME)/.local

deps:
	@./scripts/install-deps

build: deps
	swift build

demo: build
	./scripts/demo

# Two players-server instances on a throwaway PostgreSQL cluster, and a
# client watching one of them (scripts/demo-postgres).
demo-postgres: build
	./scripts/demo-postgres

# The command-line tests run the built executables: build them first, and
# the release ones too, which the README's `make install` installs (run by
# DocumentationTests). The cluster is stopped whether the tests pass or not.
test: deps
	./scripts/build-without-warnings swift build
	./scripts/build-without-warnings swift build --build-tests
	swift build -c release --product players
	swift build -c release --product players-server
	./scripts/postgres-cluster start
	export $$(./scripts/postgres-cluster env) && swift test --skip-build; \
	status=$$?; ./scripts/postgres-cluster stop; exit $$status

bench: deps
	swift build -c release --product players-bench
	.build/release/players-bench $(BENCH_FLAGS)

load: deps
	./scripts/load-test

install: deps
	./scripts/install "$(PREFIX)"

uninstall:
	./scripts/install --uninstall "$(PREFIX)"
