import AppFiles
import CipherDB
import CipherSync
import Foundation
import SyncEndToEnd
import SyncEngine
import SyncSchema

/// Notes' encrypted database: notebooks and notes, synced by the engine
/// (``NotesSchema``). Every write goes through the declaration's rules, so
/// that what the app accepts the server accepts too.
///
/// ```swift
/// let notes = try NotesDatabase.create(atPath: "notes.db", key: .passphrase { secret })
/// let work = try notes.addNotebook(name: "Work")
/// let note = try notes.addNote(notebook: work, title: "Groceries", body: "Milk")
/// ```
public final class NotesDatabase: Sendable {
    public let writer: any DatabaseWriter

    init(_ writer: any DatabaseWriter) throws {
        self.writer = writer
        try Self.migrator.migrate(writer)
    }

    /// Creates the database at `path`, which must not exist (a private
    /// file, mode 0600).
    public static func create(atPath path: String, key: DatabaseKeySource) throws -> NotesDatabase {
        guard !FileManager.default.fileExists(atPath: path) else { throw NotesError.exists(path) }
        try PrivateFile.createDatabaseFileIfMissing(at: URL(fileURLWithPath: path))
        return try NotesDatabase(DatabaseQueue(path: path, configuration: configuration(key)))
    }

    /// Opens the database at `path`, which must exist and open with `key`.
    public static func open(atPath path: String, key: DatabaseKeySource) throws -> NotesDatabase {
        guard FileManager.default.fileExists(atPath: path) else { throw NotesError.missing(path) }
        do {
            return try NotesDatabase(DatabaseQueue(path: path, configuration: configuration(key)))
        } catch let error as DatabaseError where error.resultCode == .SQLITE_NOTADB {
            throw NotesError.wrongKey(path)
        }
    }

    static func configuration(_ key: DatabaseKeySource) -> Configuration {
        var configuration = Configuration()
        configuration.busyMode = .timeout(5)
        key.configure(&configuration)
        return configuration
    }

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.create(table: "notebook") { t in
                t.primaryKey("id", .text)
                t.column("name", .text).notNull()
            }
            try db.create(table: "note") { t in
                t.primaryKey("id", .text)
                t.column("notebook", .text).notNull().indexed().references("notebook", onDelete: .cascade)
                t.column("title", .text).notNull()
                t.column("body", .text)
            }
        }
        migrator.registerMigration("v2-sync") { db in
            try db.installSyncEngine(for: NotesSchema.firstRelease)
        }
        migrator.registerMigration("v3-members") { db in
            try db.create(table: "notebook_member") { t in
                t.primaryKey("id", .text)
                t.column("notebook", .text).notNull().references("notebook", onDelete: .cascade)
                t.column("member", .text).notNull()
                t.uniqueKey(["notebook", "member"])
            }
            try db.installSyncEngine(for: NotesSchema.secondRelease)
        }
        // Notebooks and notes end-to-end: the tables keep their columns;
        // the engine now seals them (SyncEndToEndSealer).
        migrator.registerMigration("v4-end-to-end") { db in
            try db.installSyncEngine(for: NotesSchema.declaration)
        }
        return migrator
    }

    // MARK: - Writing

    /// Adds a notebook; its id.
    public func addNotebook(name: String) throws -> UUID {
        let id = UUID()
        let values = try checked("notebook", id: id, ["name": .text(name)], carrying: .whole)
        try writer.write { db in try Notebook(id: id, name: values.text("name")!).insert(db) }
        return id
    }

    /// Renames a notebook.
    public func renameNotebook(_ id: UUID, name: String) throws {
        let values = try checked("notebook", id: id, ["name": .text(name)], carrying: .changed)
        try writer.write { db in
            guard var notebook = try Notebook.fetchOne(db, key: id.uuidString) else { throw NotesError.noNotebook(id) }
            notebook.name = values.text("name")!
            try notebook.update(db)
        }
    }

    /// Adds a note to a notebook; its id.
    public func addNote(notebook: UUID, title: String, body: String?) throws -> UUID {
        let id = UUID()
        let values = try checked("note", id: id, ["notebook": .uuid(notebook), "title": .text(title), "body": body.map(SyncValue.text) ?? .null],
                                 carrying: .whole)
        try writer.write { db in
            guard try Notebook.exists(db, key: notebook.uuidString) else { throw NotesError.noNotebook(notebook) }
            try Note(id: id, notebook: notebook, title: values.text("title")!, body: values.text("body")).insert(db)
        }
        return id
    }

    /// Changes a note's title, body, or both.
    public func editNote(_ id: UUID, title: String?, body: String??) throws {
        var changes: [String: SyncValue] = [:]
        if let title { changes["title"] = .text(title) }
        if let body { changes["body"] = body.map(SyncValue.text) ?? .null }
        let values = try checked("note", id: id, changes, carrying: .changed)
        try writer.write { db in
            guard var note = try Note.fetchOne(db, key: id.uuidString) else { throw NotesError.noNote(id) }
            if title != nil { note.title = values.text("title")! }
            if body != nil { note.body = values.text("body") }
            try note.update(db)
        }
    }

    /// Deletes a note.
    public func deleteNote(_ id: UUID) throws {
        try writer.write { db in
            guard try Note.deleteOne(db, key: id.uuidString) else { throw NotesError.noNote(id) }
        }
    }

    /// Deletes a notebook, and its notes with it.
    /// Shares a notebook with `user` (a token's `sub`): once synced, they
    /// read it and its notes, and write its notes. Sharing it again with
    /// them changes nothing.
    public func share(notebook: UUID, with user: String) throws {
        let id = UUID()
        let values = try checked("notebook_member", id: id, ["notebook": .uuid(notebook), "member": .text(user)], carrying: .whole)
        try writer.write { db in
            guard try Notebook.exists(db, key: notebook.uuidString) else { throw NotesError.noNotebook(notebook) }
            let member = values.text("member")!
            guard try !Self.members(db, of: notebook).contains(member) else { return }
            try NotebookMember(id: id, notebook: notebook, member: member).insert(db)
        }
    }

    /// Stops sharing a notebook with `user`: once synced, the notebook and
    /// its notes leave every device of theirs.
    public func unshare(notebook: UUID, with user: String) throws {
        // The name as a share stores it (trimmed).
        let member = try checked("notebook_member", id: UUID(), ["member": .text(user)], carrying: .changed).text("member")!
        try writer.write { db in
            guard try Notebook.exists(db, key: notebook.uuidString) else { throw NotesError.noNotebook(notebook) }
            let deleted = try NotebookMember.filter(Column("notebook") == notebook.uuidString)
                .filter(Column("member") == member).deleteAll(db)
            guard deleted > 0 else { throw NotesError.notShared(notebook, member) }
        }
    }

    /// The users each shared notebook is shared with, sorted.
    public func members() throws -> [UUID: [String]] {
        try writer.read { db in
            Dictionary(grouping: try NotebookMember.order(Column("member")).fetchAll(db), by: \.notebook).mapValues { $0.map(\.member) }
        }
    }

    private static func members(_ db: Database, of notebook: UUID) throws -> [String] {
        try String.fetchAll(db, NotebookMember.select(Column("member")).filter(Column("notebook") == notebook.uuidString)
            .order(Column("member")))
    }

    public func deleteNotebook(_ id: UUID) throws {
        try writer.write { db in
            guard try Notebook.deleteOne(db, key: id.uuidString) else { throw NotesError.noNotebook(id) }
        }
    }

    // MARK: - Reading

    /// Every notebook and note, by name and title.
    public func list() throws -> (notebooks: [Notebook], notes: [Note]) {
        try writer.read { db in
            (try Notebook.order(Column("name"), Column("id")).fetchAll(db),
             try Note.order(Column("title"), Column("id")).fetchAll(db))
        }
    }

    /// The local changes that lost to the server's state.
    public func conflicts() throws -> [SyncConflict] {
        try writer.read { db in try SyncConflict.order(Column("id")).fetchAll(db) }
    }

    /// Settles the conflicts of a notebook or note: keeps the local value
    /// of the latest (the next sync pushes it) or the server's
    /// (``CipherDB/Database/resolveSyncConflicts(table:rowID:keepLocal:schema:)``).
    /// Throws ``NotesError/noConflict(_:)`` when it has none.
    public func resolveConflicts(of id: UUID, keepLocal: Bool) throws {
        try writer.write { db in
            let tables = try SyncConflict.select(Column("table_name"), as: String.self).distinct()
                .filter(Column("row_id") == id.uuidString).fetchAll(db)
            guard !tables.isEmpty else { throw NotesError.noConflict(id) }
            for table in tables {
                try db.resolveSyncConflicts(table: table, rowID: id, keepLocal: keepLocal, schema: NotesSchema.declaration)
            }
        }
    }

    // MARK: - Syncing

    /// Keeps the identity of the user's recovery key, for the end-to-end
    /// tables: a sync publishes its public key.
    public func keepIdentity(_ identity: SyncStoredIdentity) throws {
        try writer.write { db in try db.saveSyncIdentity(identity) }
    }

    /// Pushes the local changes, then pulls the server's; when the pull
    /// queued rows (the server restored from a backup lost them), pushes
    /// those too (``SyncEngine``'s `pushThenPull`). Notebooks and notes
    /// are sealed before they are pushed and opened when they are pulled
    /// (``SyncEndToEnd/SyncEndToEndSealer``), their keys exchanged first.
    /// With `allowsOtherServer`, a server that holds another database than
    /// the one this database synced with takes the local changes, and its
    /// snapshot replaces the synced rows (``SyncClient/allowsOtherServer``).
    public func sync(baseURL: URL, transport: any HTTPTransport, allowsOtherServer: Bool = false) async throws -> SyncPushPullReport {
        try await syncClient(baseURL: baseURL, transport: transport, allowsOtherServer: allowsOtherServer).pushThenPull()
    }

    /// The client of ``sync(baseURL:transport:allowsOtherServer:)``, which
    /// a ``CipherSync/SyncReplicator`` runs for `notes sync --watch`.
    public func syncClient(baseURL: URL, transport: any HTTPTransport, allowsOtherServer: Bool = false) -> SyncClient<SyncEngineStore> {
        var store = SyncEngineStore(writer, schema: NotesSchema.declaration)
        store.endToEnd = SyncEndToEndSealer(schema: NotesSchema.declaration)
        var client = SyncClient(transport: transport, endpoint: store.rowsEndpoint(baseURL: baseURL), store: store)
        client.allowsOtherServer = allowsOtherServer
        return client
    }

    /// `values` checked by the declaration's column rules, as the server
    /// checks them: the values as stored (trimmed where the column is).
    private func checked(_ table: String, id: UUID, _ values: [String: SyncValue], carrying: SyncTable.RowColumns) throws -> [String: SyncValue] {
        do {
            return try NotesSchema.declaration.table(table)!.row(id: id, values: values, carrying: carrying).values
        } catch {
            throw NotesError.invalid(error)
        }
    }
}

extension Dictionary where Key == String, Value == SyncValue {
    /// The text of a column, nil when it is null or absent.
    func text(_ column: String) -> String? {
        if case .text(let text)? = self[column] { return text }
        return nil
    }
}
