/// The demo's random changes to a table of players, drawn before they are
/// applied, so that the client's table (``AppDatabase/refreshPlayers()``)
/// and the server's follow one rule: an empty table gets 8 random players;
/// otherwise a random player may be added, an existing one may be
/// deleted, and some of the others get a new random score.
///
/// ```swift
/// let changes = RandomPlayerChanges(existing: try Player.fetchAll(db))
/// for var player in changes.insertions { try player.insert(db) }
/// ```
public struct RandomPlayerChanges<Existing> {
    /// How many players an empty table gets.
    public static var emptyTablePlayerCount: Int { 8 }

    /// New players, with random names and scores.
    public var insertions: [Player]
    /// The existing player to delete, if any.
    public var deletion: Existing?
    /// Existing players (never the deleted one) and their new scores.
    public var scoreChanges: [(player: Existing, score: Int)]

    /// Draws the changes of a table that holds `existing`.
    public init(existing: [Existing]) {
        guard !existing.isEmpty else {
            insertions = (0..<Self.emptyTablePlayerCount).map { _ in Player.newRandom() }
            deletion = nil
            scoreChanges = []
            return
        }
        insertions = Bool.random() ? [Player.newRandom()] : []
        let deleted = Bool.random() ? existing.indices.randomElement() : nil
        deletion = deleted.map { existing[$0] }
        scoreChanges = existing.indices
            .filter { $0 != deleted && Bool.random() }
            .map { (existing[$0], Player.randomScore()) }
    }
}
