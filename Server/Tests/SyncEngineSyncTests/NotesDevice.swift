import CipherDB
import CipherSync
import Foundation
import ServerTestSupport
import SyncEngine
import SyncSchema
import TestSupport

/// A device of the test declaration's app (``SyncSchema/testNotes``): an
/// encrypted database with its tables and the sync engine installed, in a
/// folder of its own.
final class NotesDevice: Sendable {
    let folder: TemporaryFolder
    let dbQueue: DatabaseQueue
    let schema = SyncSchema.testNotes

    init() throws {
        folder = try TemporaryFolder()
        var configuration = Configuration()
        DatabaseKeySource.rawKey { Data((0..<32).map { UInt8($0) &* 11 &+ 5 }) }.configure(&configuration)
        dbQueue = try DatabaseQueue(path: folder.path("notes.db"), configuration: configuration)
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(sql: """
                CREATE TABLE notebook (id TEXT PRIMARY KEY NOT NULL, name TEXT NOT NULL);
                CREATE TABLE note (id TEXT PRIMARY KEY NOT NULL,
                                   notebook TEXT NOT NULL REFERENCES notebook(id) ON DELETE CASCADE,
                                   title TEXT NOT NULL, body TEXT);
                CREATE TABLE comment (id TEXT PRIMARY KEY NOT NULL, note TEXT NOT NULL REFERENCES note(id) ON DELETE CASCADE,
                                      text TEXT NOT NULL);
                CREATE TABLE pin (id TEXT PRIMARY KEY NOT NULL, note TEXT REFERENCES note(id) ON DELETE SET NULL, label TEXT NOT NULL);
                CREATE TABLE share (id TEXT PRIMARY KEY NOT NULL, notebook TEXT NOT NULL REFERENCES notebook(id) ON DELETE RESTRICT);
                """)
        }
        migrator.registerMigration("v2-sync") { [schema] db in try db.installSyncEngine(for: schema) }
        try migrator.migrate(dbQueue)
    }

    func execute(_ sql: String, _ arguments: StatementArguments = []) throws {
        try dbQueue.write { db in try db.execute(sql: sql, arguments: arguments) }
    }

    /// Pushes the outbox, then pulls, as a sync does.
    func sync(_ baseURL: URL) async throws -> (pushed: SyncPushCounts, pulled: SyncReport) {
        let pushed = try await SyncEnginePusher(dbQueue, schema: schema, baseURL: baseURL, transport: fastTransport()).push()
        let client = SyncClient(transport: fastTransport(), endpoint: SyncEngineStore.rowsEndpoint(baseURL: baseURL),
                                store: SyncEngineStore(dbQueue, schema: schema))
        return (pushed, try await client.sync())
    }

    /// Every row of the declared tables, table by table, as text.
    func content() throws -> [String] {
        try dbQueue.read { db in
            try schema.tables.flatMap { table in
                try Row.fetchAll(db, sql: "SELECT * FROM \(table.name) ORDER BY id").map { "\(table.name) \($0)" }
            }
        }
    }

    func conflicts() throws -> [SyncConflict] {
        try dbQueue.read { db in try SyncConflict.fetchAll(db) }
    }
}

/// A transport whose limits are the hang guard: a loaded machine never
/// turns a slow answer into a failure.
func fastTransport() -> any HTTPTransport {
    var configuration = TransportConfiguration()
    let seconds = TimeInterval(hangGuard.components.seconds)
    configuration.connectTimeout = seconds
    configuration.timeout = seconds
    configuration.lowSpeedTime = seconds
    return CurlTransport(configuration: configuration)
}
