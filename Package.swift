// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "CipherDB",
    products: [
        .library(name: "CipherDB", targets: ["CipherDB"]),
        .library(name: "CipherSync", targets: ["CipherSync"]),
        .library(name: "Players", targets: ["PlayersProtocol", "Players", "PlayersSync", "PlayersFiles"]),
        .executable(name: "cipherdb-demo", targets: ["CipherDBDemo"]),
        .executable(name: "players", targets: ["PlayersCLI"]),
        .executable(name: "players-server", targets: ["PlayersServer"]),
        .executable(name: "players-bench", targets: ["PlayersBench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/vapor/postgres-nio", exact: "1.33.2"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", exact: "2.4.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
    ],
    targets: [
        // Debian's libsqlcipher-dev. Never libsqlite3: in one process its
        // symbols would shadow SQLCipher's and store plaintext.
        .systemLibrary(
            name: "CSQLCipher",
            path: "Sources/CSQLCipher",
            providers: [.apt(["libsqlcipher-dev"])]),
        // Debian's libcurl4-openssl-dev, for the sync client.
        .systemLibrary(
            name: "CCurl",
            path: "Sources/CCurl",
            providers: [.apt(["libcurl4-openssl-dev"])]),
        // Debian's libssl-dev: OpenSSL's libcrypto, which SQLCipher already
        // links, for the encrypted JSON exports (AES-GCM, PBKDF2, HKDF).
        .systemLibrary(
            name: "COpenSSL",
            path: "Sources/COpenSSL",
            providers: [.apt(["libssl-dev"])]),
        .target(
            name: "CipherDB",
            dependencies: ["CSQLCipher"]),
        // A generic HTTP sync client over libcurl: transport, retries,
        // paging, limits. It hands checked pages to a store; it knows
        // neither players nor databases.
        .target(
            name: "CipherSync",
            dependencies: ["CCurl"]),
        // The players' wire format: messages, the one validator of names
        // and scores. No database, no HTTP.
        .target(
            name: "PlayersProtocol"),
        // The database layer of the seeds, and the sync state table.
        .target(
            name: "Players",
            dependencies: ["CipherDB", "PlayersProtocol"]),
        // The merge of a sync into the players database: the only module
        // that knows both the database and the HTTP client.
        .target(
            name: "PlayersSync",
            dependencies: ["Players", "PlayersProtocol", "CipherSync", "CipherDB"]),
        // Backups, exports and key rotation: apart from the database layer,
        // so that libcrypto is linked only where files are encrypted.
        .target(
            name: "PlayersFiles",
            dependencies: ["Players", "PlayersProtocol", "CipherDB", "COpenSSL"]),
        // What the two command lines share: progress on standard error,
        // the version report of --version, usage errors as git prints them.
        .target(
            name: "PlayersCommandLine",
            dependencies: [
                "CipherDB",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        .executableTarget(
            name: "PlayersCLI",
            dependencies: [
                "PlayersCommandLine",
                "Players",
                "PlayersProtocol",
                "PlayersSync",
                "PlayersFiles",
                "CipherDB",
                "CipherSync",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        // The server's storage behind an async protocol (PlayersStore),
        // embedded CipherDB today; its HTTP layer (Hummingbird) comes
        // next, in its own target, so that no library depends on it.
        .target(
            name: "PlayersServerStore",
            dependencies: [
                "CipherDB",
                "Players",
                "PlayersProtocol",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            path: "Server/Sources/PlayersServerStore"),
        // The server's players in PostgreSQL, for several server instances
        // on one database: only the server depends on it, so that no
        // library of Sources/ links PostgresNIO.
        .target(
            name: "PlayersServerPostgres",
            dependencies: [
                "PlayersServerStore",
                "PlayersProtocol",
                "Players",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Server/Sources/PlayersServerPostgres"),
        .target(
            name: "PlayersServerHTTP",
            dependencies: [
                "PlayersServerStore",
                "PlayersProtocol",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                // /metrics and the drain at shutdown (/ready answers 503):
                // only the server links them, no library of Sources/.
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            path: "Server/Sources/PlayersServerHTTP"),
        .executableTarget(
            name: "PlayersServer",
            dependencies: [
                "PlayersCommandLine",
                "PlayersServerHTTP",
                "PlayersServerStore",
                "PlayersServerPostgres",
                "Players",
                "PlayersFiles",
                "CipherDB",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            path: "Server/Sources/PlayersServer"),
        // The benchmarks (make bench): CipherDB against raw SQLCipher calls.
        .executableTarget(
            name: "PlayersBench",
            dependencies: [
                "CipherDB",
                "CipherSync",
                "CSQLCipher",
                "Players",
                "PlayersProtocol",
                "PlayersSync",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        .executableTarget(
            name: "CipherDBDemo",
            dependencies: ["CipherDB"]),
        .testTarget(
            name: "CipherDBTests",
            dependencies: ["CipherDB", "CSQLCipher", "CCurl", "TestSupport"]),
        // Shared by every test target: temporary folders, the built
        // executables and their runners, loopback and TLS test servers.
        // It imports no module of ours, so that any test target may use it.
        .target(
            name: "TestSupport",
            path: "Tests/TestSupport"),
        .testTarget(
            name: "CipherSyncTests",
            dependencies: ["CipherSync", "TestSupport"]),
        .testTarget(
            name: "PlayersSyncTests",
            dependencies: [
                "Players",
                "PlayersProtocol",
                "PlayersSync",
                "CipherSync",
                "CipherDB",
                "PlayersServerStore",
                "PlayersServerHTTP",
                "TestSupport",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
            ]),
        .testTarget(
            name: "PlayersTests",
            dependencies: ["Players", "PlayersProtocol", "PlayersFiles", "CipherDB", "TestSupport"]),
        .testTarget(
            name: "PlayersServerStoreTests",
            dependencies: [
                "PlayersServerStore", "Players", "PlayersProtocol", "CipherDB", "TestSupport",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
            ],
            path: "Server/Tests/PlayersServerStoreTests"),
        // The stores of the server's tests: the same case on the embedded
        // store and on PostgreSQL (the cluster of scripts/postgres-cluster),
        // in a sandbox each.
        .target(
            name: "ServerTestSupport",
            dependencies: [
                "PlayersServerPostgres",
                "PlayersServerStore",
                "PlayersServerHTTP",
                "CipherDB",
                "TestSupport",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                // The long-polls' clock, which the tests advance.
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            path: "Server/Tests/ServerTestSupport"),
        // The PostgreSQL store against a real cluster
        // (scripts/postgres-cluster), and the same cases on the embedded
        // store.
        .testTarget(
            name: "PlayersServerPostgresTests",
            dependencies: [
                "PlayersServerPostgres",
                "PlayersServerStore",
                "PlayersProtocol",
                "CipherDB",
                "TestSupport",
                "ServerTestSupport",
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ],
            path: "Server/Tests/PlayersServerPostgresTests"),
        .testTarget(
            name: "PlayersServerHTTPTests",
            dependencies: [
                "PlayersServerHTTP",
                "PlayersServerStore",
                "Players",
                "PlayersProtocol",
                "CipherDB",
                "TestSupport",
                "ServerTestSupport",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
            ],
            path: "Server/Tests/PlayersServerHTTPTests"),
        // Runs the built `players-server` as a subprocess: signals, the
        // command line, connections and Host headers as a client sends them.
        .testTarget(
            name: "PlayersServerTests",
            dependencies: ["PlayersServer", "CipherDB", "TestSupport", "ServerTestSupport"],
            path: "Server/Tests/PlayersServerTests"),
        .testTarget(
            name: "PlayersCLITests",
            dependencies: ["PlayersCLI", "Players", "PlayersProtocol", "CipherDB", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
