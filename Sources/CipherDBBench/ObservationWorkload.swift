import CipherDB
import CSQLCipher
import Foundation
import Players

/// The latency of observation: commits that each change one player, each
/// followed by a wait for the observer of all players to see it, on a
/// WAL database pool as the application uses. The baseline commits the
/// same change and fetches the players again on a second raw connection.
struct ObservationWorkload {
    let folder: URL
    let playerCount: Int
    let commitCount: Int

    func run(_ harness: inout Harness, mode: EncryptionMode) async throws {
        let name = "observation: \(commitCount) commits, each seen by an observer of \(playerCount) players"
        guard harness.includes(name) else { return }
        let fixtures = try PlayersFixtures(folder: folder, mode: mode, name: "observation", journalMode: .wal)
        let path = try fixtures.makeFilled(with: PlayersFixtures.makePlayers(count: playerCount), name: "observation")
        let dbPool = try DatabasePool(path: path, configuration: fixtures.configuration)
        let observedScores = ObservedScores()

        let observation = ValueObservation.tracking { db in try Player.fetchAll(db) }
        let cancellable = observation.start(
            in: dbPool, scheduling: .async(onQueue: DispatchQueue(label: "cipherdb-bench.observation")),
            onError: { error in observedScores.fail(error) },
            onChange: { players in observedScores.receive(players.first { $0.id == 1 }?.score) })
        defer { cancellable.cancel() }

        let writer = try fixtures.rawConnection(path: path)
        try writer.execute("PRAGMA synchronous = NORMAL") // as CipherDB's pools in WAL mode
        let reader = try fixtures.rawConnection(path: path)
        try await harness.measure(name, mode: mode, subject: {
            for _ in 0..<commitCount {
                let score = try dbPool.write { db -> Int in
                    try db.execute(sql: "UPDATE player SET score = score + 1 WHERE id = 1")
                    return try Int.fetchOne(db, sql: "SELECT score FROM player WHERE id = 1") ?? 0
                }
                try observedScores.wait(for: score)
            }
        }, baseline: {
            let update = try writer.prepare("UPDATE player SET score = score + 1 WHERE id = 1")
            let select = try reader.prepare("SELECT * FROM player")
            defer { sqlite3_finalize(update); sqlite3_finalize(select) }
            for _ in 0..<commitCount {
                try writer.run(update)
                var players: [Player] = []
                while sqlite3_step(select) == SQLITE_ROW { players.append(PlayersFixtures.rawPlayer(select)) }
                sqlite3_reset(select)
                try PlayersFixtures.check(players.count, playerCount)
            }
        })
    }
}

/// The score of player 1 in the observer's last value, and a wait for a
/// given one.
///
/// `@unchecked Sendable`: every property is read and written with
/// `condition` locked.
private final class ObservedScores: @unchecked Sendable {
    private let condition = NSCondition()
    private var score: Int?
    private var error: (any Error)?

    func receive(_ score: Int?) {
        condition.lock()
        self.score = score
        condition.broadcast()
        condition.unlock()
    }

    func fail(_ error: any Error) {
        condition.lock()
        self.error = error
        condition.broadcast()
        condition.unlock()
    }

    /// Waits until the observer has seen `expected`, for 10 seconds at most.
    func wait(for expected: Int) throws {
        let deadline = Date(timeIntervalSinceNow: 10)
        condition.lock()
        defer { condition.unlock() }
        while score != expected {
            if let error { throw error }
            guard condition.wait(until: deadline) else {
                throw BenchError("the observer did not see a commit within 10 seconds")
            }
        }
    }
}
