import CipherDB
import CipherSync
import Foundation
import Players
import PlayersOnServer
import PlayersShared
import PlayersSync
import ServerTestSupport
import SyncSchema
import Synchronization
import TestSupport
import Testing

/// The convergence property of two-way sync (Docs/Sync.md) for Players
/// (``ConvergenceRun``): three clients adding, editing and deleting
/// players and settling conflicts, one server.
///
/// On both server stores: 10 seeded runs each in `make test`, 100 in
/// `make check-long`;
/// `CONVERGENCE_RUNS` sets another number, `CONVERGENCE_SEED` replays one.
/// A failing run names its seed and the command that replays it.
@Suite struct ConvergenceTests {
    static let seeds = TestSeeds("CONVERGENCE", test: "ConvergenceTests", correctness: 10, long: 100)

    @Test(arguments: StoreKind.allCases)
    func everyClientConvergesToTheServerAndNoChangeIsLost(_ kind: StoreKind) async throws {
        await Self.seeds.run(label: "\(kind)") { seed in
            try await ConvergenceRun<ClientDatabase>(seed: seed, kind: kind, schema: PlayersSchema.schema).run()
        }
    }
}

/// A players database as a device of the property.
extension ClientDatabase: ConvergenceDevice {
    static let faults = TransportFault.allCases.map(ConvergenceFault.transport) + [.insidePullTransaction]

    func randomStep(using random: inout SeededRandom) async throws -> ConvergenceStep? {
        let players = try await appDatabase.reader.read { db in try Player.order(Player.Columns.id).fetchAll(db) }
        let conflicts = try appDatabase.conflicts()
        switch random.next(below: 12) {
        case 0, 1, 2, 3:
            var player = Player(name: Player.randomName(), score: 10 * random.next(below: 101))
            try appDatabase.savePlayer(&player)
            return ConvergenceStep("adds \(player.uuid.uuidString.prefix(8)) \(player.score)",
                                   [(Self.key(player.uuid), .set(Self.intent(player)))])
        case 4, 5, 6, 7:
            guard !players.isEmpty else { return nil }
            let player = players[random.next(below: players.count)]
            let score = 10 * random.next(below: 101)
            let edited = try #require(try appDatabase.updatePlayer(id: player.id!) { $0.score = score })
            // The same score is no change: nothing to push.
            return ConvergenceStep("edits \(player.uuid.uuidString.prefix(8)) \(score)",
                                   score == player.score ? [] : [(Self.key(player.uuid), .set(Self.intent(edited)))])
        case 8, 9:
            guard !players.isEmpty else { return nil }
            let player = players[random.next(below: players.count)]
            try appDatabase.deletePlayers(exactly: [player.id!])
            return ConvergenceStep("deletes \(player.uuid.uuidString.prefix(8))", [(Self.key(player.uuid), .set(.deleted))])
        default:
            // Keep the local value (pushed by the next sync) or the
            // server's (the local change is dropped, by choice).
            guard !conflicts.isEmpty else { return nil }
            let conflict = conflicts[random.next(below: conflicts.count)]
            let keepLocal = random.next(below: 2) == 0
            let latest = try #require(conflicts.last { $0.playerUUID == conflict.playerUUID })
            try appDatabase.resolveConflicts(of: conflict.playerUUID, keepLocal: keepLocal)
            return ConvergenceStep("keeps the \(keepLocal ? "local" : "server's") value of \(conflict.playerUUID.uuidString.prefix(8))",
                                   [(Self.key(conflict.playerUUID), .set(keepLocal ? ConvergenceRun<Self>.localIntent(Self.local(latest)) : nil))])
        }
    }

    func sync(_ url: URL, transport: any HTTPTransport, fault: ConvergenceFault?) async throws -> String? {
        let hook: (@Sendable (Database) throws -> Void)? = if case .insidePullTransaction = fault { { _ in throw InjectedFault() } } else { nil }
        let report = try await appDatabase.syncClient(baseURL: url, transport: transport, beforeCommit: hook).syncPlayers()
        return report.pull.repaired.map { "\($0)" }
    }

    func content() throws -> [String] {
        try players().map { "\($0.uuid.uuidString) \($0.name) \($0.score)" }.sorted()
    }

    func rowKeys() throws -> Set<ConvergenceKey> {
        Set(try players().map { Self.key($0.uuid) })
    }

    func outboxCount() throws -> Int {
        try appDatabase.pendingChangeCount()
    }

    func foreignKeyViolations() throws -> Int { 0 }

    func conflicts() throws -> [(key: ConvergenceKey, local: [String: String]?)] {
        try appDatabase.conflicts().map { (Self.key($0.playerUUID), Self.local($0)) }
    }

    static func key(_ uuid: UUID) -> ConvergenceKey {
        ConvergenceKey(table: PlayersSchema.player.name, id: uuid)
    }

    static func intent(_ player: Player) -> ConvergenceIntent {
        .values(["name": player.name, "score": String(player.score)])
    }

    /// A conflict's local value; nil for a local delete.
    static func local(_ conflict: PlayerConflict) -> [String: String]? {
        guard let name = conflict.localName, let score = conflict.localScore else { return nil }
        return ["name": name, "score": String(score)]
    }
}
