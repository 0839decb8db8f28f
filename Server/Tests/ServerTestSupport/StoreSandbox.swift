import CipherDB
import Foundation
import Logging
import Players
import PlayersOnServer
import PlayersShared
import PostgresClient
import SyncSchema
import SyncServer
import SyncServerEmbedded
import SyncServerPostgres
import TestSupport

/// A place where stores of one kind share their players: an encrypted
/// file in a temporary folder, or a PostgreSQL database of its own in the
/// cluster of `PLAYERS_TEST_POSTGRES_URL` (scripts/postgres-cluster).
/// Each ``makeStore()`` is another instance on the same data (another
/// connection pool), as several servers would be; ``serverArguments`` and
/// ``serverEnvironment`` start a `players-server` process on it.
public struct StoreSandbox: Sendable {
    public static let urlVariable = "PLAYERS_TEST_POSTGRES_URL"
    /// The raw key of the embedded store's file: encrypted as with a
    /// passphrase, without PBKDF2 (the server's passphrases have tests of
    /// their own).
    static let key = Data((0..<32).map { UInt8($0) &* 29 &+ 7 })

    public let kind: StoreKind
    public let folder: TemporaryFolder
    /// The PostgreSQL database of the sandbox.
    let databaseName: String

    /// Runs `body` with a new sandbox, and removes it afterwards. Throws
    /// when the PostgreSQL cluster is not there: a skipped backend is not
    /// a tested one.
    public static func with(_ kind: StoreKind, _ body: (StoreSandbox) async throws -> Void) async throws {
        let sandbox = StoreSandbox(kind: kind, folder: try TemporaryFolder(), databaseName: "test_\(UUID().uuidString.prefix(8).lowercased())")
        switch kind {
        case .embedded:
            let hexadecimal = Self.key.map { String(format: "%02x", $0) }.joined() + "\n"
            guard FileManager.default.createFile(atPath: sandbox.keyFilePath, contents: Data(hexadecimal.utf8),
                                                 attributes: [.posixPermissions: 0o600]) else {
                throw TestFailure("could not write the sandbox's key file \(sandbox.keyFilePath)")
            }
        case .postgres:
            try await administer("CREATE DATABASE \(unescaped: sandbox.databaseName)")
        }
        do {
            try await body(sandbox)
        } catch {
            try? await sandbox.remove()
            throw error
        }
        try await sandbox.remove()
    }

    /// Runs `body` with one store of a new sandbox, closed afterwards.
    public static func withStore(_ kind: StoreKind, _ body: (PlayersTestStore) async throws -> Void) async throws {
        try await with(kind) { sandbox in
            let store = try await sandbox.makeStore()
            do {
                try await body(store)
            } catch {
                try? await store.close()
                throw error
            }
            try await store.close()
        }
    }

    /// Another store on the sandbox's players. A PostgreSQL store tries to
    /// connect for up to `connectTimeout`: on a loaded machine that may take
    /// long (the hang guard), but a test of a database that refuses
    /// connections waits that long for its error.
    public func makeStore(connectTimeout: Duration = hangGuard) async throws -> PlayersTestStore {
        PlayersTestStore(try await makeSyncStore(schema: PlayersSchema.schema, connectTimeout: connectTimeout))
    }

    /// The sync engine's store of `schema`'s tables on the sandbox's
    /// database (another pool), as players-server opens it: players of an
    /// earlier release's tables are taken in.
    public func makeSyncStore(schema: SyncSchema, connectTimeout: Duration = hangGuard) async throws -> any SyncRowStore {
        switch kind {
        case .embedded:
            return EmbeddedSyncStore(try ServerSyncDatabase(try embeddedPool(), schema: schema, adopting: PlayersServerAdoption.embedded))
        case .postgres:
            return try await PostgresSyncStore(url: try postgresURL(), schema: schema, adopting: PlayersServerAdoption.postgres,
                                               connectTimeout: connectTimeout, logger: postgresTestLogger)
        }
    }

    /// The embedded store's file, as `players-server --database` opens it.
    public var databasePath: String { folder.path("server.db") }

    /// The embedded store's key file (mode 0600), as `players-server
    /// --key-file` reads it.
    public var keyFilePath: String { folder.path("server.key") }

    /// The options of a `players-server` process on the sandbox's store:
    /// the embedded store's file and key file (the PostgreSQL URL, a
    /// secret, goes in ``serverEnvironment``).
    public var serverArguments: [String] {
        switch kind {
        case .embedded: ["--database", databasePath, "--key-file", keyFilePath]
        case .postgres: []
        }
    }

    /// The environment of a `players-server` process on the sandbox's
    /// store: the PostgreSQL URL with its password.
    public var serverEnvironment: [String: String] {
        get throws {
            switch kind {
            case .embedded: [:]
            case .postgres: ["PLAYERS_SERVER_POSTGRES_URL": try postgresURLString()]
            }
        }
    }

    /// The URL of the sandbox's PostgreSQL database.
    public func postgresURLString() throws -> String {
        var components = try parsedURL(URLComponents(string: try Self.postgresURLString()))
        components.path = "/" + databaseName
        return try parsedURL(components.string)
    }

    /// The sandbox's PostgreSQL database, parsed.
    public func postgresURL() throws -> PostgresURL {
        try PostgresURL(try postgresURLString())
    }

    /// A pool on the embedded store's file, keyed as `players-server
    /// --key-file` keys it.
    public func embeddedPool() throws -> DatabasePool {
        var configuration = Configuration()
        configuration.busyMode = .timeout(30)
        DatabaseKeySource.rawKey { Self.key }.configure(&configuration)
        // The pages of the server's files.
        ServerDatabasePageSize.current.configure(&configuration)
        return try DatabasePool(path: databasePath, configuration: configuration)
    }

    /// The test cluster's URL. Throws when it is not set: a skipped
    /// backend is not a tested one.
    public static func postgresURLString() throws -> String {
        guard let string = ProcessInfo.processInfo.environment[urlVariable], !string.isEmpty else {
            throw TestFailure(
                "\(urlVariable) is not set: run 'scripts/postgres-cluster start' and 'export $(scripts/postgres-cluster env)' first (make test does both).")
        }
        return string
    }

    private func remove() async throws {
        if kind == .postgres {
            try await Self.administer("DROP DATABASE \(unescaped: databaseName) WITH (FORCE)")
        }
    }

    /// Runs one statement on the cluster's own database. A machine loaded
    /// by a whole test run can make a connection fail: it is tried again,
    /// once a second, up to the hang guard; then the failure names the
    /// statement, with PostgreSQL's last error (the test cluster's, no
    /// secret of anyone's).
    static func administer(_ statement: PostgresQuery) async throws {
        let url = try PostgresURL(try postgresURLString())
        var lastError: (any Error)?
        do {
            try await waitUntil("the test cluster (\(urlVariable)) to run \(statement.sql)", every: .seconds(1)) {
                do {
                    try await withClient(url) { client in try await client.query(statement) }
                    return true
                } catch where error is PostgresStoreError || error is PostgresServerError {
                    lastError = error
                    return false
                }
            }
        } catch let failure as TestFailure {
            throw TestFailure("\(failure); the last error: \(lastError.map { String(reflecting: $0) } ?? "none")")
        }
    }

    /// Runs `body` with one connection to `url`, closed afterwards: the
    /// tests' own, apart from the stores' pools that they test.
    static func withClient(_ url: PostgresURL, _ body: (AdminConnection) async throws -> Void) async throws {
        let logger = Logger(label: "StoreSandbox")
        let connection = try await PostgresConnection.connect(to: url, timeout: hangGuard, id: 0, logger: logger)
        defer { connection.close() }
        try await body(AdminConnection(connection: connection, logger: logger))
    }
}

/// A connection of the tests to their cluster, whose queries log nowhere.
struct AdminConnection {
    let connection: PostgresConnection
    let logger: Logger

    @discardableResult
    func query(_ query: PostgresQuery) async throws -> PostgresRows {
        try await connection.query(query, logger: logger)
    }
}

/// The value, or a test failure naming the URL's problem.
private func parsedURL<T>(_ value: T?) throws -> T {
    guard let value else { throw TestFailure("the test cluster's URL cannot be parsed.") }
    return value
}
