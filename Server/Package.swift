// swift-tools-version: 6.1
import PackageDescription

// players-server, the sync endpoint, and its tests: a package of its own so
// that an app depending on CipherDB (the package above this folder) never
// resolves the server's packages. It depends on CipherDB by path, under the
// name CipherDB whatever the checkout's folder is called.
let cipherDB = "CipherDB"

/// Products of CipherDB, by name.
func fromCipherDB(_ products: String...) -> [Target.Dependency] {
    products.map { .product(name: $0, package: cipherDB) }
}

let package = Package(
    name: "PlayersServer",
    products: [
        .executable(name: "players-server", targets: ["PlayersServer"]),
    ],
    dependencies: [
        .package(name: cipherDB, path: ".."),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        // Without its default traits: swift-configuration (which the
        // server does not read its settings from) is neither resolved nor
        // built, and no trait flags reach swiftc (see the Makefile's note
        // on SwiftPM 6.3's traits).
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", exact: "2.4.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        // Tokens' parsing, keys and signatures (`--auth jwt`): never written here.
        .package(url: "https://github.com/vapor/jwt-kit.git", from: "5.7.1"),
    ],
    targets: [
        // libpq, PostgreSQL's C client (Debian's libpq-dev), which the
        // PostgreSQL store connects with.
        .systemLibrary(
            name: "CPostgres",
            path: "Sources/CPostgres",
            providers: [.apt(["libpq-dev"])]),
        // PostgreSQL over libpq: URLs, connections and their pool, queries
        // with bound values, the errors a caller tells apart. A driver: it
        // knows nothing of the server's rules (SyncServerPostgres does).
        .target(
            name: "PostgresClient",
            dependencies: [
                "CPostgres",
                .product(name: "Logging", package: "swift-log"),
            ]),
        // Players as an app of the engine's server: the demo's writes
        // (--seed, /demo/refresh), the adoption of Players' store of the
        // release before the engine (both dialects), and the server's
        // encrypted file, opened and told from other files.
        .target(
            name: "PlayersOnServer",
            dependencies: fromCipherDB("CipherDB", "PlayersShared", "AppFiles", "SyncSchema") + [
                "SyncServer",
                "SyncServerEmbedded",
                "SyncServerPostgres",
                "PostgresClient",
                .product(name: "Logging", package: "swift-log"),
            ]),
        // The sync engine's HTTP API (Hummingbird): /v1/sync/rows,
        // /v1/sync/changes, /v1/rows, the 410 of Players' earlier
        // endpoints, health, readiness and metrics, for any declared tables
        // on either store.
        .target(
            name: "SyncServerHTTP",
            dependencies: fromCipherDB("SyncSchema") + [
                "PlayersOnServer",
                "SyncServer",
                "SyncServerAuth",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                // /metrics and the drain at shutdown (/ready answers 503).
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]),
        // Who a request is from: JSON Web Tokens verified by jwt-kit
        // (`--auth jwt`), their keys (HS256 secret, ES256 or EdDSA public
        // key, JWKS) and the reasons a token is refused.
        .target(
            name: "SyncServerAuth",
            dependencies: fromCipherDB("AppFiles") + [
                .product(name: "JWTKit", package: "jwt-kit"),
            ]),
        .executableTarget(
            name: "PlayersServer",
            dependencies: fromCipherDB("CommandLineBase", "AppFiles", "PlayersShared", "CipherDB", "SyncSchema") + [
                "SyncServerHTTP",
                "SyncServerAuth",
                "SyncServer",
                "SyncServerEmbedded",
                "SyncServerPostgres",
                "PlayersOnServer",
                "PostgresClient",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                // SIGHUP: the JWT key file read again.
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ]),
        // The sync engine's rules of a write, for any declared table,
        // written once above the stores: what a store reads for a batch of
        // changes, and the plan it carries out; and the notifier that
        // long-polls of every store wait on (NIO's timers). No database,
        // no HTTP.
        .target(
            name: "SyncServer",
            dependencies: fromCipherDB("SyncSchema") + [
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]),
        // The engine's embedded store: the declared tables' rows in a
        // CipherDB database, written by SyncServer's rules.
        .target(
            name: "SyncServerEmbedded",
            dependencies: fromCipherDB("CipherDB", "SyncSchema") + [
                "SyncServer",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]),
        // The engine's PostgreSQL store, for several server instances on
        // one database: the same rules, on PostgresClient.
        .target(
            name: "SyncServerPostgres",
            dependencies: fromCipherDB("SyncSchema") + [
                "SyncServer",
                "PostgresClient",
                .product(name: "Logging", package: "swift-log"),
            ]),
        // Every token the server must refuse, and the key files it reads.
        .testTarget(
            name: "SyncServerAuthTests",
            dependencies: fromCipherDB("TestSupport") + [
                "SyncServerAuth",
                .product(name: "JWTKit", package: "jwt-kit"),
            ]),
        // The rules in memory, then the same cases on both stores (the
        // PostgreSQL cluster of scripts/postgres-cluster).
        .testTarget(
            name: "SyncServerTests",
            dependencies: fromCipherDB("CipherDB", "SyncSchema", "TestSupport") + [
                "SyncServer",
                "SyncServerEmbedded",
                "SyncServerPostgres",
                "ServerTestSupport",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
            ]),
        .testTarget(
            name: "PlayersOnServerTests",
            dependencies: fromCipherDB("Players", "CipherDB", "TestSupport") + [
                "PlayersOnServer",
                "ServerTestSupport",
                "SyncServerEmbedded",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
            ]),
        // The stores of the server's tests: the same case on the embedded
        // store and on PostgreSQL (the cluster of scripts/postgres-cluster),
        // in a sandbox each.
        .target(
            name: "ServerTestSupport",
            dependencies: fromCipherDB("CipherDB", "CipherSync", "Players", "SyncSchema", "TestSupport") + [
                "SyncServer",
                "SyncServerAuth",
                "SyncServerEmbedded",
                "SyncServerPostgres",
                "PlayersOnServer",
                "SyncServerHTTP",
                "PostgresClient",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
                // The long-polls' clock, which the tests advance.
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            path: "Tests/ServerTestSupport"),
        // The libpq driver against a real cluster (scripts/postgres-cluster),
        // and the engine's stores with Players' rows: the same cases on the
        // embedded store and on PostgreSQL.
        .testTarget(
            name: "ServerStoresTests",
            dependencies: fromCipherDB("Players", "CipherDB", "TestSupport") + [
                "PlayersOnServer",
                "PostgresClient",
                "SyncServerPostgres",
                "SyncServerEmbedded",
                "ServerTestSupport",
            ]),
        .testTarget(
            name: "SyncServerHTTPTests",
            dependencies: fromCipherDB("Players", "CipherDB", "SyncSchema", "TestSupport") + [
                "SyncServer",
                "SyncServerHTTP",
                "PlayersOnServer",
                "ServerTestSupport",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
            ]),
        // Runs the built `players-server` as a subprocess: signals, the
        // command line, connections and Host headers as a client sends them.
        .testTarget(
            name: "PlayersServerTests",
            dependencies: fromCipherDB("Players", "PlayersSync", "CipherDB", "CipherSync", "SyncEngine", "SyncSchema", "TestSupport") + [
                "SyncServer",
                "SyncServerAuth",
                "PlayersServer",
                "ServerTestSupport",
            ]),
        // The sync engine's devices (SyncEngine over CipherSync) against
        // the server in the same process, on both stores.
        .testTarget(
            name: "SyncEngineSyncTests",
            dependencies: fromCipherDB("SyncEngine", "SyncSchema", "CipherSync", "CipherDB", "SyncSealing", "TestSupport") + [
                "ServerTestSupport",
                "SyncServer",
                "SyncServerAuth",
            ]),
        // The client's sync (CipherSync, PlayersSync) against the server
        // in the same process: merges, limits, failures, convergence.
        .testTarget(
            name: "PlayersSyncTests",
            dependencies: fromCipherDB("Players", "PlayersSync", "SyncEngine", "SyncSchema", "CipherSync", "CipherDB", "TestSupport") + [
                "SyncServer",
                "SyncServerEmbedded",
                "PlayersOnServer",
                "SyncServerHTTP",
                "ServerTestSupport",
            ]),
    ],
    swiftLanguageModes: [.v6]
)
