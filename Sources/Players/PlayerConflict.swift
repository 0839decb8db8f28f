import CipherDB
import Foundation

/// A local change that lost to the server's: a row of the `playerConflict`
/// table. The server's state won (so that every client converges); the
/// local value is kept here until `players conflicts resolve` turns it
/// into a new change or drops it (Docs/Sync.md).
///
/// ```swift
/// let conflicts = try appDatabase.reader.read { db in try PlayerConflict.order(PlayerConflict.Columns.id).fetchAll(db) }
/// ```
public struct PlayerConflict: Codable, Equatable, Sendable, FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "playerConflict"

    public var id: Int64?
    public var playerUUID: UUID
    /// The local value that lost; nil name and score: the local change
    /// deleted the player.
    public var localName: String?
    public var localScore: Int?
    /// The server's value that won; nil name and score: the server deleted
    /// the player.
    public var serverName: String?
    public var serverScore: Int?
    public var serverVersion: Int64?
    /// When the local change was made.
    public var changedAt: Date
    /// When the sync found the conflict.
    public var detectedAt: Date

    public init(id: Int64? = nil, playerUUID: UUID, localName: String?, localScore: Int?, serverName: String?, serverScore: Int?,
                serverVersion: Int64?, changedAt: Date, detectedAt: Date = Date()) {
        self.id = id
        self.playerUUID = playerUUID
        self.localName = localName
        self.localScore = localScore
        self.serverName = serverName
        self.serverScore = serverScore
        self.serverVersion = serverVersion
        self.changedAt = changedAt
        self.detectedAt = detectedAt
    }

    public enum Columns {
        public static let id = Column(CodingKeys.id)
        public static let playerUUID = Column(CodingKeys.playerUUID)
    }

    /// Whether the local change deleted the player.
    public var localIsDeletion: Bool { localName == nil }
    /// Whether the server deleted the player.
    public var serverIsDeletion: Bool { serverName == nil }

    public static func databaseUUIDEncodingStrategy(for column: String) -> DatabaseUUIDEncodingStrategy {
        .uppercaseString
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }

    /// Creates the `playerConflict` table, in a migration.
    static func createTable(_ db: Database) throws {
        try db.create(table: databaseTableName) { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("playerUUID", .text).notNull().indexed()
            t.column("localName", .text)
            t.column("localScore", .integer)
            t.column("serverName", .text)
            t.column("serverScore", .integer)
            t.column("serverVersion", .integer)
            t.column("changedAt", .datetime).notNull()
            t.column("detectedAt", .datetime).notNull()
        }
    }
}
