import CipherDB
import Foundation

/// A local change of a player that the server has not acknowledged yet: a
/// row of the `pendingChange` table, the outbox that `players sync` pushes
/// (Docs/Sync.md).
///
/// Every write of ``AppDatabase`` records its change here in its own
/// transaction, so that a change and its entry exist together or not at
/// all. An entry leaves the table only in the transaction that records
/// the server's answer to it.
///
/// ```swift
/// let pending = try appDatabase.reader.read { db in try PendingChange.inPushOrder().fetchAll(db) }
/// ```
public struct PendingChange: Codable, Equatable, Sendable, FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "pendingChange"

    public enum Kind: String, Codable, Sendable {
        case save, delete
    }

    /// The push order.
    public var id: Int64?
    /// Random, made with the entry, and the same on every retry: the
    /// server applies an entry once.
    public var mutationID: UUID
    public var playerUUID: UUID
    public var kind: Kind
    /// The values of a save; nil for a delete.
    public var name: String?
    public var score: Int?
    /// The server version of the player that the change was made on; nil
    /// when the player was never synced.
    public var baseVersion: Int64?
    /// When the entry was first sent. A sent entry is never rewritten: its
    /// retry must carry the same values as the request that may have
    /// reached the server.
    public var sentAt: Date?
    public var createdAt: Date

    public init(id: Int64? = nil, mutationID: UUID = UUID(), playerUUID: UUID, kind: Kind, name: String? = nil, score: Int? = nil,
                baseVersion: Int64?, sentAt: Date? = nil, createdAt: Date = Date()) {
        self.id = id
        self.mutationID = mutationID
        self.playerUUID = playerUUID
        self.kind = kind
        self.name = name
        self.score = score
        self.baseVersion = baseVersion
        self.sentAt = sentAt
        self.createdAt = createdAt
    }

    public enum Columns {
        public static let id = Column(CodingKeys.id)
        public static let mutationID = Column(CodingKeys.mutationID)
        public static let baseVersion = Column(CodingKeys.baseVersion)
        public static let playerUUID = Column(CodingKeys.playerUUID)
        public static let kind = Column(CodingKeys.kind)
        public static let sentAt = Column(CodingKeys.sentAt)
    }

    public static func databaseUUIDEncodingStrategy(for column: String) -> DatabaseUUIDEncodingStrategy {
        .uppercaseString
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }

    /// The entries in the order they are pushed.
    public static func inPushOrder() -> QueryInterfaceRequest<PendingChange> {
        order(Columns.id)
    }

    /// Creates the `pendingChange` table, in a migration.
    static func createTable(_ db: Database) throws {
        try db.create(table: databaseTableName) { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("mutationID", .text).notNull().unique()
            t.column("playerUUID", .text).notNull().indexed()
            t.column("kind", .text).notNull().check { [Kind.save.rawValue, Kind.delete.rawValue].contains($0) }
            t.column("name", .text)
            t.column("score", .integer)
            t.column("baseVersion", .integer)
            t.column("sentAt", .datetime)
            t.column("createdAt", .datetime).notNull()
        }
    }
}
