import Foundation
import SyncSchema

/// Why the engine's store cannot serve.
public enum SyncStoreError: Error, Equatable, CustomStringConvertible {
    /// The database has no identity, no epoch or no counter.
    case historyMissing
    /// A call after the store was closed.
    case closed
    /// The database's schema is of a later program.
    case newerSchema(version: Int, supported: Int)
    /// The database closed while another program had it open (and read
    /// it): its write-ahead log stays beside the file until that program
    /// closes it. Nothing is lost.
    case closedInUse(path: String)
    /// The database holds rows of tables that the store's declaration does
    /// not declare: served, they could be neither read nor checked.
    case undeclaredTables([String])
    /// The declaration given would lock out the devices of the one the
    /// database served before (``SyncDeclarationChange``).
    case declarationLocksOut([SyncDeclarationChange])
    /// The declaration the database served before does not read: it is
    /// damaged, or of a later program.
    case servedDeclarationUnreadable(String)

    public var description: String {
        switch self {
        case .historyMissing: "the database has no identity, epoch or counter: it is damaged, or not a sync server's"
        case .closed: "the store is closed"
        case .newerSchema(let version, let supported):
            "the sync tables' schema is at version \(version), newer than this program's \(supported): upgrade players-server"
        case .closedInUse(let path):
            "the database is closed, but another program has \(path) open: its write-ahead log stays in \(path)-wal until that program closes it (nothing is lost), and until then a copy of \(path) alone is not complete"
        case .declarationLocksOut(let changes):
            "the declaration given would lock out the devices of the one this database served before: "
                + changes.map(\.description).joined(separator: "; ")
                + "; or serve the declaration it served before (nothing was changed)"
        case .servedDeclarationUnreadable(let reason):
            "the declaration this database served before does not read (\(reason)): it is damaged, or of a later players-server"
        case .undeclaredTables(let tables):
            "the database holds rows of \(tables.count == 1 ? "the table" : "the tables") \(tables.joined(separator: ", ")), which the declarations "
                + "given do not declare: declare \(tables.count == 1 ? "it" : "them") too (players-server --schema), or use another database"
        }
    }

    /// The declaration a store keeps as the one it serves, once checked
    /// against `served`, the one it kept before: throws
    /// ``declarationLocksOut(_:)`` for a change that would lock out the
    /// devices of that one, and nothing is to be kept then. Each store
    /// reads and writes the text; the rule is here.
    public static func declarationToKeep(served: String?, serving schema: SyncSchema) throws(SyncStoreError) -> String {
        if let served {
            let earlier: SyncSchema
            do {
                earlier = try SyncSchema(json: Data(served.utf8))
            } catch {
                throw .servedDeclarationUnreadable(error.description)
            }
            let changes = SyncDeclarationChange.lockingOut(from: earlier, to: schema)
            if !changes.isEmpty { throw .declarationLocksOut(changes) }
        }
        return String(decoding: schema.json(), as: UTF8.self)
    }

    /// Throws ``undeclaredTables(_:)`` unless `schema` declares every table
    /// of `storedTables` (the tables a store holds rows of), which a store
    /// checks when it opens.
    public static func checkDeclared(_ storedTables: [String], by schema: SyncSchema) throws(SyncStoreError) {
        let undeclared = storedTables.filter { schema.table($0) == nil }.sorted()
        if !undeclared.isEmpty { throw .undeclaredTables(undeclared) }
    }
}
