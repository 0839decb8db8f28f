import CipherDB
import Foundation
import PlayersServerPostgres
import PlayersServerStore
import PostgresNIO
import TestSupport
import Testing

/// The stores that the shared cases of ``PlayersStoreTests`` run on.
enum StoreKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case embedded
    case postgres

    var testDescription: String { rawValue }
}

/// A place where stores of one kind share their players: an encrypted
/// file in a temporary folder, or a PostgreSQL schema of its own in the
/// cluster of `PLAYERS_TEST_POSTGRES_URL` (scripts/postgres-cluster).
/// Each ``makeStore()`` is another instance on the same data (another
/// connection pool), as several servers would be.
struct StoreSandbox {
    static let urlVariable = "PLAYERS_TEST_POSTGRES_URL"

    let kind: StoreKind
    private let folder: TemporaryFolder
    private let schema: String

    /// Runs `body` with a new sandbox, and removes it afterwards. Throws
    /// when the PostgreSQL cluster is not there: a skipped backend is not
    /// a tested one.
    static func with(_ kind: StoreKind, _ body: (StoreSandbox) async throws -> Void) async throws {
        let sandbox = StoreSandbox(kind: kind, folder: try TemporaryFolder(), schema: "test_\(UUID().uuidString.prefix(8).lowercased())")
        if kind == .postgres {
            try await sandbox.administer("CREATE SCHEMA \(unescaped: sandbox.schema)")
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
    static func withStore(_ kind: StoreKind, _ body: (any PlayersStore) async throws -> Void) async throws {
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

    /// Another store on the sandbox's players.
    func makeStore() async throws -> any PlayersStore {
        switch kind {
        case .embedded:
            var configuration = Configuration()
            configuration.busyMode = .timeout(30)
            configuration.prepareDatabase { db in try db.usePassphrase("server secret") }
            return EmbeddedPlayersStore(try ServerPlayersDatabase(DatabasePool(path: folder.path("server.db"), configuration: configuration)))
        case .postgres:
            var url = try Self.postgresURL()
            url.configuration.options.additionalStartupParameters = [("search_path", schema)]
            return try await PostgresPlayersStore(url: url)
        }
    }

    static func postgresURL() throws -> PostgresURL {
        try PostgresURL(try postgresURLString())
    }

    /// The test cluster's URL. Throws when it is not set: a skipped
    /// backend is not a tested one.
    static func postgresURLString() throws -> String {
        guard let string = ProcessInfo.processInfo.environment[urlVariable], !string.isEmpty else {
            throw TestFailure(
                "\(urlVariable) is not set: run 'scripts/postgres-cluster start' and 'export $(scripts/postgres-cluster env)' first (make test does both).")
        }
        return string
    }

    private func remove() async throws {
        if kind == .postgres {
            try await administer("DROP SCHEMA \(unescaped: schema) CASCADE")
        }
    }

    /// Runs one statement on the cluster, outside the sandbox's schema.
    private func administer(_ statement: PostgresQuery) async throws {
        let client = PostgresClient(configuration: try Self.postgresURL().configuration)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await client.run() }
            try await client.query(statement)
            group.cancelAll()
        }
    }
}
