# The README's two commands:
#   make demo   installs the dependencies, builds, and runs the end-to-end demo
#               (scripts/demo: the toolkit demo, then a `players` session)
#   make test   installs the dependencies, builds the debug products and the
#               tests once (failing on any compiler warning in the project's
#               code) and runs the correctness suite, with a throwaway
#               PostgreSQL cluster for the PostgreSQL store
#               (scripts/postgres-cluster); prints the failures and a
#               summary, the whole log in .build/test.log (scripts/run-tests)
#   make check-long  the same suite with its properties and stress tests at
#               full size (CIPHERDB_TEST_TIER=long: 100 convergence seeds per store,
#               10,000 waiters, the random-request storm), every seed printed
#   make bench  builds cipherdb-bench in release mode and prints its ratios
#               (BENCH_FLAGS="--json" for machines, "--runs 9" for more runs)
#   make demo-postgres  two players-server instances on PostgreSQL and a
#               watching client (scripts/demo-postgres)
#   make install  builds players and players-server (release, or
#               CONFIGURATION=debug) and installs them, with players' shell
#               completions, under PREFIX (default ~/.local; scripts/install);
#               make uninstall removes them
#   make load   players-server under load (release, wrk, loopback): the
#               embedded store and PostgreSQL with 1 and 2 instances, and
#               idle long-polls (scripts/load-test; Docs/Benchmarks.md)

.PHONY: demo demo-postgres test check-long deps build build-tests bench load install uninstall

# SwiftPM 6.3 passes a package's traits to swiftc (-DA -DB) in the order of
# a Set, which Swift's per-process hash seed redraws: half of all builds
# then recompile Hummingbird and relink players-server although nothing
# changed (swiftlang/swift-package-manager#10525, fixed in 6.4). A fixed
# seed makes every build of an unchanged tree build nothing.
export SWIFT_DETERMINISTIC_HASHING := 1

PREFIX ?= $(HOME)/.local
CONFIGURATION ?= release

deps:
	@./scripts/install-deps

# Two packages: CipherDB (this folder) and the server's (Server/), which
# depends on it by path. An app that uses CipherDB builds only the first.
build: deps
	./scripts/swift-build
	./scripts/swift-build --package-path Server

demo: build
	./scripts/demo

# Two players-server instances on a throwaway PostgreSQL cluster, and a
# client watching one of them (scripts/demo-postgres).
demo-postgres: build
	./scripts/demo-postgres

# One build: `--build-tests` builds the debug executables too, which the
# command-line tests run (the README's `make install`, run by
# DocumentationTests, installs these debug ones: CONFIGURATION=debug); and
# the README's example package, which ReadmeExampleTests runs
# (scripts/readme-example).
build-tests: deps
	./scripts/build-without-warnings ./scripts/swift-build --build-tests
	./scripts/build-without-warnings ./scripts/swift-build --build-tests --package-path Server
	./scripts/readme-example build

# The cluster is stopped whether the tests pass or not.
test: build-tests
	./scripts/run-tests

check-long: build-tests
	CIPHERDB_TEST_TIER=long ./scripts/run-tests

bench: deps
	swift build -c release --product cipherdb-bench
	.build/release/cipherdb-bench $(BENCH_FLAGS)

load: deps
	./scripts/load-test

install: deps
	./scripts/install "$(PREFIX)" "$(CONFIGURATION)"

uninstall:
	./scripts/install --uninstall "$(PREFIX)"
