import Foundation

/// A new player of the demo, with a random name and score and a new
/// identity: what `players randomize` inserts on a device and
/// `players-server --seed` and its refresh insert on the server, drawn by
/// one rule.
///
/// ```swift
/// let random = RandomPlayer.draw()
/// let change = SyncChange(mutationID: UUID(), operation: .upsert,
///                         row: try PlayersSchema.player.row(id: random.uuid, values: ["name": .text(random.name), "score": .integer(Int64(random.score))]),
///                         baseVersion: nil)
/// ```
public struct RandomPlayer: Equatable, Sendable {
    public var uuid: UUID
    public var name: String
    public var score: Int

    private static let names = [
        "Arthur", "Anita", "Barbara", "Bernard", "Craig", "Chiara", "David",
        "Dean", "Éric", "Elena", "Fatima", "Frederik", "Gilbert", "Georgette",
        "Henriette", "Hassan", "Ignacio", "Irene", "Julie", "Jack", "Karl",
        "Kristel", "Louis", "Liz", "Masashi", "Mary", "Noam", "Nicole",
        "Ophelie", "Oleg", "Pascal", "Patricia", "Quentin", "Quinn", "Raoul",
        "Rachel", "Stephan", "Susie", "Tristan", "Tatiana", "Ursule", "Urbain",
        "Victor", "Violette", "Wilfried", "Wilhelmina", "Yvon", "Yann",
        "Zazie", "Zoé",
    ]

    /// A new player with a random name and a random score.
    public static func draw() -> RandomPlayer {
        var generator = SystemRandomNumberGenerator()
        return draw(using: &generator)
    }

    /// A new player with a random name and a random score, drawn from
    /// `generator` (a seeded one replays the same names and scores; the
    /// identity is always new).
    public static func draw(using generator: inout some RandomNumberGenerator) -> RandomPlayer {
        RandomPlayer(uuid: UUID(), name: name(using: &generator), score: score(using: &generator))
    }

    /// A random name, drawn from `generator`.
    public static func name(using generator: inout some RandomNumberGenerator) -> String {
        names.randomElement(using: &generator)!
    }

    /// A random score, a multiple of 10 from 0 to 1000, drawn from
    /// `generator`.
    public static func score(using generator: inout some RandomNumberGenerator) -> Int {
        10 * Int.random(in: 0...100, using: &generator)
    }
}
