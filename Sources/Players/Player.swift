import CipherDB
import Foundation
import PlayersShared

/// A player of the demo application: a name and a score.
///
/// ```swift
/// var player = Player(name: "Arthur", score: 100)
/// try appDatabase.savePlayer(&player) // player.id is set
/// ```
public struct Player: Codable, Equatable, Hashable, Identifiable, Sendable {
    /// The local id, nil until the player is inserted.
    public var id: Int64?
    /// The identity of the player shared by the server and every client,
    /// made where the player is created.
    public var uuid: UUID
    public var name: String
    public var score: Int

    public init(id: Int64? = nil, uuid: UUID = UUID(), name: String, score: Int) {
        self.id = id
        self.uuid = uuid
        self.name = name
        self.score = score
    }
}

extension Player: FetchableRecord, MutablePersistableRecord {
    /// The columns of the `player` table, for requests.
    public enum Columns {
        public static let id = Column(CodingKeys.id)
        public static let uuid = Column(CodingKeys.uuid)
        public static let name = Column(CodingKeys.name)
        public static let score = Column(CodingKeys.score)
    }

    /// The server's version of the player (its change counter at the last
    /// synced change), which the sync engine keeps in `sync_row`; NULL
    /// for a player created here and never synced. For requests that show
    /// it:
    ///
    /// ```swift
    /// let rows = try Row.fetchAll(db, Player.select(Player.Columns.uuid, Player.versionExpression))
    /// ```
    public static let versionExpression = SQL(
        sql: "(SELECT version FROM sync_row WHERE sync_row.table_name = 'player' AND sync_row.row_id = player.uuid)")

    /// UUIDs are stored as their uppercase text, readable in the shell and
    /// in JSON alike.
    public static func databaseUUIDEncodingStrategy(for column: String) -> DatabaseUUIDEncodingStrategy {
        .uppercaseString
    }

    /// Stores the id of the inserted row.
    public mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}

// MARK: - Random players

extension Player {
    /// A new player with a random name and a random score
    /// (``PlayersShared/RandomPlayer``, the server's rule too).
    public static func newRandom() -> Player {
        var generator = SystemRandomNumberGenerator()
        return newRandom(using: &generator)
    }

    /// A new player with a random name and a random score, drawn from
    /// `generator` (a seeded one replays the same players).
    public static func newRandom(using generator: inout some RandomNumberGenerator) -> Player {
        Player(RandomPlayer.draw(using: &generator))
    }

    /// The player a ``PlayersShared/RandomPlayer`` draws, not inserted yet.
    public init(_ random: RandomPlayer) {
        self.init(uuid: random.uuid, name: random.name, score: random.score)
    }

    /// A random name.
    public static func randomName() -> String {
        var generator = SystemRandomNumberGenerator()
        return RandomPlayer.name(using: &generator)
    }

    /// A random score, a multiple of 10 from 0 to 1000.
    public static func randomScore() -> Int {
        var generator = SystemRandomNumberGenerator()
        return RandomPlayer.score(using: &generator)
    }
}
