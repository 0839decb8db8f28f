/// The demo's random changes to a table of players, drawn before they are
/// applied, so that the client's table (`AppDatabase.refreshPlayers()`)
/// and the server's follow one rule: an empty table gets 8 random players;
/// otherwise a random player may be added, an existing one may be
/// deleted, and some of the others get a new random score.
///
/// ```swift
/// let changes = RandomPlayerChanges(existing: try Player.fetchAll(db))
/// for random in changes.insertions { var player = Player(random); try player.insert(db) }
/// ```
public struct RandomPlayerChanges<Existing> {
    /// How many players an empty table gets.
    public static var emptyTablePlayerCount: Int { 8 }

    /// New players, with random names and scores.
    public var insertions: [RandomPlayer]
    /// The existing player to delete, if any.
    public var deletion: Existing?
    /// Existing players (never the deleted one) and their new scores.
    public var scoreChanges: [(player: Existing, score: Int)]

    /// Draws the changes of a table that holds `existing`.
    public init(existing: [Existing]) {
        var generator = SystemRandomNumberGenerator()
        self.init(existing: existing, using: &generator)
    }

    /// Draws the changes of a table that holds `existing` from
    /// `generator` (a seeded one replays the same changes).
    public init(existing: [Existing], using generator: inout some RandomNumberGenerator) {
        guard !existing.isEmpty else {
            insertions = (0..<Self.emptyTablePlayerCount).map { _ in RandomPlayer.draw(using: &generator) }
            deletion = nil
            scoreChanges = []
            return
        }
        insertions = Bool.random(using: &generator) ? [RandomPlayer.draw(using: &generator)] : []
        let deleted = Bool.random(using: &generator) ? existing.indices.randomElement(using: &generator) : nil
        deletion = deleted.map { existing[$0] }
        var scoreChanges: [(player: Existing, score: Int)] = []
        for index in existing.indices where index != deleted && Bool.random(using: &generator) {
            scoreChanges.append((existing[index], RandomPlayer.score(using: &generator)))
        }
        self.scoreChanges = scoreChanges
    }
}
