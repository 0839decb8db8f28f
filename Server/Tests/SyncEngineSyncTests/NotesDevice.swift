import CipherDB
import CipherSync
import Foundation
import ServerTestSupport
import SyncEndToEnd
import SyncEngine
import SyncSchema
import TestSupport
import Testing

/// A device of the test declaration's app (``SyncSchema/testNotes``, or
/// another version of it): an encrypted database with its tables and the
/// sync engine installed, in a folder of its own.
final class NotesDevice: Sendable {
    let folder: TemporaryFolder
    let dbQueue: DatabaseQueue
    let schema: SyncSchema

    /// A device of `schema`, whose first release made the tables of
    /// `firstRelease` (the test declaration of Notes, unless given).
    init(schema: SyncSchema = .testNotes, firstRelease: SyncSchema = .testNotes) throws {
        self.schema = schema
        folder = try TemporaryFolder()
        var configuration = Configuration()
        DatabaseKeySource.rawKey { Data((0..<32).map { UInt8($0) &* 11 &+ 5 }) }.configure(&configuration)
        dbQueue = try DatabaseQueue(path: folder.path("notes.db"), configuration: configuration)
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            // Each declared table, its columns as text, its references as
            // the declaration says.
            for table in firstRelease.tablesInApplyOrder {
                let columns = table.columns.map { column in
                    guard column.name != table.primaryKey else { return "\(column.name) TEXT PRIMARY KEY NOT NULL" }
                    let reference = column.references.map { reference in
                        let action = switch reference.onDelete {
                        case .cascade: "CASCADE"
                        case .restrict: "RESTRICT"
                        case .setNull: "SET NULL"
                        }
                        return " REFERENCES \(reference.table)(id) ON DELETE \(action)"
                    } ?? ""
                    return "\(column.name) TEXT\(column.isRequired ? " NOT NULL" : "")\(reference)"
                }
                try db.execute(sql: "CREATE TABLE \(table.name) (\(columns.joined(separator: ", ")))")
            }
        }
        // The columns that a later version of the declaration adds (all
        // text in the tests' declarations), as that version's migration would.
        migrator.registerMigration("v1.1") { [schema] db in
            for table in schema.tables {
                let existing = Set(try db.columns(in: table.name).map(\.name))
                for column in table.columns where !existing.contains(column.name) {
                    try db.execute(sql: "ALTER TABLE \(table.name) ADD COLUMN \(column.name) TEXT")
                }
            }
        }
        migrator.registerMigration("v2-sync") { [schema] db in try db.installSyncEngine(for: schema) }
        try migrator.migrate(dbQueue)
    }

    func execute(_ sql: String, _ arguments: StatementArguments = []) throws {
        try dbQueue.write { db in try db.execute(sql: sql, arguments: arguments) }
    }

    /// Pushes the outbox, then pulls, as a sync does (`pushThenPull`).
    func sync(_ baseURL: URL, transport: any HTTPTransport = fastTransport()) async throws -> (pushed: SyncPushCounts, pulled: SyncReport) {
        let report = try await syncReport(baseURL, transport: transport)
        return (report.push.counts, report.pull)
    }

    /// Pushes the outbox, then pulls, as a sync does (a dry run writes
    /// nothing); its whole report.
    func syncReport(_ baseURL: URL, transport: any HTTPTransport = fastTransport(), dryRun: Bool = false) async throws -> SyncPushPullReport {
        let store = store()
        let client = SyncClient(transport: transport, endpoint: store.rowsEndpoint(baseURL: baseURL), store: store)
        return try await client.pushThenPull(dryRun: dryRun)
    }

    /// The device's store, with a sealer when its declaration has
    /// end-to-end tables.
    func store() -> SyncEngineStore {
        var store = SyncEngineStore(dbQueue, schema: schema)
        if schema.tables.contains(where: \.isEndToEnd) { store.endToEnd = SyncEndToEndSealer(schema: schema) }
        return store
    }

    /// A replicator of this device (``CipherSync/SyncReplicator``).
    func replicator(_ baseURL: URL) -> SyncReplicator {
        let store = store()
        return SyncReplicator(client: SyncClient(transport: fastTransport(), endpoint: store.rowsEndpoint(baseURL: baseURL), store: store))
    }

    /// Every row of the declared tables, table by table, as text: the
    /// columns of this device's declaration, or of `declaration`'s.
    func content(columnsOf declaration: SyncSchema? = nil) throws -> [String] {
        try dbQueue.read { db in
            try (declaration ?? schema).tables.flatMap { table in
                let columns = table.columns.map(\.name).joined(separator: ", ")
                return try Row.fetchAll(db, sql: "SELECT \(columns) FROM \(table.name) ORDER BY id").map { "\(table.name) \($0)" }
            }
        }
    }

    /// The text columns of one row but its id and references, by name.
    func values(_ table: String, _ id: String) throws -> [String: String?] {
        try dbQueue.read { db in
            let declared = try #require(schema.tables.first { $0.name == table })
            let row = try #require(try Row.fetchOne(db, sql: "SELECT * FROM \(table) WHERE id = ?", arguments: [id]))
            let columns = declared.columns.filter { $0.name != declared.primaryKey && $0.references == nil }
            return Dictionary(uniqueKeysWithValues: columns.map { ($0.name, row[$0.name] as String?) })
        }
    }

    /// A table's rows, by id, each as its text columns (a NULL left out).
    func rows(_ table: String) throws -> [[String: String]] {
        try dbQueue.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM \(table) ORDER BY id").map { row in
                Dictionary(uniqueKeysWithValues: row.columnNames.compactMap { name in (row[name] as String?).map { (name, $0) } })
            }
        }
    }

    /// The changes waiting in the outbox.
    func outboxCount() throws -> Int {
        try dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM sync_outbox") ?? 0 }
    }

    /// The rows that refer to a row this device does not have.
    func foreignKeyViolations() throws -> Int {
        try dbQueue.read { db in try Row.fetchAll(db, sql: "PRAGMA foreign_key_check").count }
    }

    /// The ids of a table's rows.
    func rowIDs(_ table: String) throws -> Set<String> {
        try dbQueue.read { db in Set(try String.fetchAll(db, sql: "SELECT id FROM \(table)")) }
    }

    func syncConflicts() throws -> [SyncConflict] {
        try dbQueue.read { db in try SyncConflict.fetchAll(db) }
    }
}

/// A `players-server` of `schema`'s tables on loopback, on `kind` of
/// store, for `body`, which gets its URL.
func withSyncServer(_ kind: StoreKind, schema: SyncSchema = .testNotes, _ body: @Sendable (URL) async throws -> Void) async throws {
    try await APITestServer.with(kind, schema: schema) { server in
        try await body(URL(string: "http://127.0.0.1:\(server.client.port)")!)
    }
}
