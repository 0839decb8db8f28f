// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "CipherDB",
    products: [
        .library(name: "CipherDB", targets: ["CipherDB"]),
        .library(name: "CipherSync", targets: ["CipherSync"]),
        // Products apart, so that what links one does not link the others'
        // libraries: players-server links PlayersShared and AppFiles, never
        // Players, PlayersSync or libcurl.
        .library(name: "SyncSchema", targets: ["SyncSchema"]),
        .library(name: "SyncEngine", targets: ["SyncEngine"]),
        .library(name: "Players", targets: ["PlayersShared", "Players"]),
        // What the server shares with Players, without Players' database
        // layer (PlayersShared).
        .library(name: "PlayersShared", targets: ["PlayersShared"]),
        .library(name: "PlayersSync", targets: ["PlayersSync"]),
        .library(name: "PlayersFiles", targets: ["PlayersFiles"]),
        .library(name: "AppFiles", targets: ["AppFiles"]),
        // End-to-end sealing, apart: only an app that declares an
        // end-to-end table links libsodium.
        .library(name: "SyncSealing", targets: ["SyncSealing", "SyncRowSealing", "SyncEndToEnd"]),
        // For the server's package (Server/), which depends on this one by
        // path: what both command lines share, and the tests' helpers.
        .library(name: "CommandLineBase", targets: ["CommandLineBase"]),
        .library(name: "TestSupport", targets: ["TestSupport"]),
        .executable(name: "cipherdb-demo", targets: ["CipherDBDemo"]),
        .executable(name: "players", targets: ["PlayersCLI"]),
        .executable(name: "notes", targets: ["NotesCLI"]),
        .executable(name: "cipherdb-bench", targets: ["CipherDBBench"]),
    ],
    // Only what the library and the command line need: an app that
    // depends on CipherDB resolves this and nothing else. The server and
    // its packages (Hummingbird, swift-nio, PostgresNIO, …) are a package
    // of their own, in Server/.
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        // Debian's libsqlcipher-dev. Never libsqlite3: in one process its
        // symbols would shadow SQLCipher's and store plaintext.
        .systemLibrary(
            name: "CSQLCipher",
            path: "Sources/CSQLCipher",
            providers: [.apt(["libsqlcipher-dev"])]),
        // libcurl for the sync client: the header of Debian's
        // libcurl4-openssl-dev, and libcurl.so.4 loaded with dlopen by the
        // first transfer, so that commands that never sync do not load it
        // (Sources/CCurl/include/ccurl.h).
        .target(
            name: "CCurl",
            path: "Sources/CCurl"),
        // Debian's libssl-dev: OpenSSL's libcrypto, which SQLCipher already
        // links: PBKDF2 for CipherDB's passphrase keys (derived once per
        // file, not once per connection), and the encrypted JSON exports
        // (AES-GCM, PBKDF2, HKDF).
        .systemLibrary(
            name: "COpenSSL",
            path: "Sources/COpenSSL",
            providers: [.apt(["libssl-dev"])]),
        .target(
            name: "CipherDB",
            dependencies: ["CSQLCipher", "COpenSSL"]),
        // Debian's libsodium-dev: XChaCha20-Poly1305, X25519 boxes and
        // BLAKE2b for the end-to-end sealing of synced rows.
        .systemLibrary(
            name: "CSodium",
            path: "Sources/CSodium",
            providers: [.apt(["libsodium-dev"])]),
        // End-to-end encryption of synced rows: partition keys, sealed
        // values bound to their row, identity keys from a recovery key,
        // keys wrapped from one user to another. It knows no database,
        // no declaration and no HTTP.
        .target(
            name: "SyncSealing",
            dependencies: ["CSodium"]),
        // A device's end-to-end tables: its rows sealed into their server
        // view and opened back, checked by the declaration. What an app
        // with such tables links, and no other.
        .target(
            name: "SyncRowSealing",
            dependencies: ["SyncSchema", "SyncSealing"]),
        // The engine's client for end-to-end tables: the keys exchanged
        // with the server's key directory, the push sealed, the pull
        // opened (SyncEndToEndSealer, a CipherSync.SyncEndToEndCodec). What
        // an app with such tables links, and no other.
        .target(
            name: "SyncEndToEnd",
            dependencies: ["CipherDB", "CipherSync", "SyncEngine", "SyncSchema", "SyncSealing", "SyncRowSealing"]),
        // The sync engine's HTTP client over libcurl: transport, retries,
        // paging, limits, and the engine's store (SyncEngineStore) that
        // it pushes from and stages pages into. Above the engine's
        // database layer, which knows no HTTP.
        .target(
            name: "CipherSync",
            dependencies: ["CCurl", "CipherDB", "SyncSchema", "SyncEngine", "TerminalText"]),
        // Text from a server or a database made safe to print on a
        // terminal and to log (PrintableText): for the command lines, and
        // for the sync client, which quotes a server's messages in its
        // errors. Foundation only.
        .target(
            name: "TerminalText"),
        // The sync engine's declaration of an app's tables, read by both
        // sides, and what travels: rows, changes, answers, tombstones.
        // Foundation only.
        .target(
            name: "SyncSchema"),
        // The device's side of the sync engine for any app's declared
        // tables, in its database: the outbox that the tables' own
        // triggers write, the staging and merge of pulled pages, the
        // digests, the conflicts. No HTTP: CipherSync pushes and pulls.
        .target(
            name: "SyncEngine",
            dependencies: ["CipherDB", "SyncSchema"]),
        // What Players' app, command line and server share, below
        // Players' database layer: its declaration (PlayersSchema), the one
        // validator of names and scores, the JSON export's format, the kind
        // of a database file, the demo's random players and changes.
        .target(
            name: "PlayersShared",
            dependencies: ["CipherDB", "SyncSchema"]),
        // What every app of the toolkit reads and writes the same way:
        // secret files (passphrases, keys, tokens; private to their owner),
        // private files, XDG folders, verified copies of a database file
        // (backup, export, rekey), and their errors.
        .target(
            name: "AppFiles",
            dependencies: ["CipherDB"]),
        // The database layer of the seeds, an app of the sync engine: its
        // triggers record every change of a player, and its tables hold
        // the versions, the outbox and the conflicts.
        .target(
            name: "Players",
            dependencies: ["CipherDB", "PlayersShared", "SyncSchema", "SyncEngine", "AppFiles"]),
        // The players' sync client: the engine's, with Players' checks and
        // report.
        .target(
            name: "PlayersSync",
            dependencies: ["Players", "PlayersShared", "SyncEngine", "SyncSchema", "CipherSync", "CipherDB"]),
        // The players database's own file operations (restore, encrypt,
        // JSON exports and their encrypted format), over AppFiles' verified
        // copies, and their errors (PlayersFileError).
        .target(
            name: "PlayersFiles",
            dependencies: ["Players", "PlayersShared", "AppFiles", "CipherDB", "COpenSSL"]),
        // What every command line of the project shares (players, notes,
        // players-server): progress on standard error, the version report
        // of --version, arguments and usage errors as git reads and prints
        // them, interruptible operations.
        .target(
            name: "CommandLineBase",
            dependencies: [
                "CipherDB",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        // What the apps' command lines (players, notes) share above it: the
        // one map of the libraries' errors to a sentence and an exit
        // status, `-` for a file argument (StandardStream), and `sync --watch`
        // on a replicator (SyncWatch). Apart from CommandLineBase, which players-server
        // links too: the map knows CipherSync's errors, and the server
        // holds no code of CipherSync.
        .target(
            name: "AppCommandLine",
            dependencies: ["AppFiles", "CipherDB", "CipherSync", "CommandLineBase", "SyncSchema"]),
        .executableTarget(
            name: "PlayersCLI",
            dependencies: [
                "AppCommandLine",
                "CommandLineBase",
                "TerminalText",
                "Players",
                "PlayersShared",
                "PlayersSync",
                "PlayersFiles",
                "CipherDB",
                "CipherSync",
                "SyncEngine",
                "SyncSchema",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        // Notes, the sync engine's second app: notebooks and notes, their
        // declaration, the database (a library, for tests and other apps).
        .target(
            name: "Notes",
            dependencies: ["CipherDB", "SyncSchema", "SyncEngine", "CipherSync", "SyncEndToEnd", "AppFiles"]),
        // `notes`, Notes' command line.
        .executableTarget(
            name: "NotesCLI",
            dependencies: [
                "Notes", "AppFiles", "CipherDB", "CipherSync", "SyncEngine", "SyncSchema", "SyncSealing", "SyncEndToEnd", "AppCommandLine",
                "CommandLineBase",
                "TerminalText",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        // The benchmarks (make bench): CipherDB against raw SQLCipher calls,
        // and Players', Notes' and the sync's workloads as ratios to their
        // own baselines.
        .executableTarget(
            name: "CipherDBBench",
            dependencies: [
                "CipherDB",
                "CipherSync",
                "CSQLCipher",
                "Players",
                "PlayersShared",
                "PlayersSync",
                "Notes",
                "SyncEngine",
                "SyncSchema",
                "SyncSealing",
                "SyncRowSealing",
                "SyncEndToEnd",
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
            dependencies: ["CipherSync", "SyncEngine", "SyncSchema", "TestSupport"]),
        .testTarget(
            name: "SyncSchemaTests",
            dependencies: ["SyncSchema", "PlayersShared", "TestSupport"]),
        .testTarget(
            name: "SyncSealingTests",
            dependencies: ["SyncSealing", "SyncRowSealing", "SyncSchema"]),
        .testTarget(
            name: "SyncEngineTests",
            dependencies: ["SyncEngine", "SyncSchema", "CipherDB", "CipherSync", "TestSupport"]),
        .testTarget(
            name: "PlayersTests",
            dependencies: ["Players", "PlayersShared", "PlayersFiles", "SyncSchema", "SyncEngine", "CipherDB", "TestSupport"]),
        .testTarget(
            name: "AppCommandLineTests",
            dependencies: ["AppCommandLine", "AppFiles", "CipherDB", "CipherSync"]),
        .testTarget(
            name: "PlayersCLITests",
            dependencies: ["PlayersCLI", "Players", "PlayersShared", "SyncSchema", "CipherDB", "TestSupport"]),
        // Docs/Architecture.md's module map against both packages' manifests.
        .testTarget(
            name: "ArchitectureTests",
            dependencies: ["TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
