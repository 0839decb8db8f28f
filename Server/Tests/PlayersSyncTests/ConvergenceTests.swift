import CipherDB
import CipherSync
import Foundation
import Players
import PlayersProtocol
import PlayersServerStore
import PlayersSync
import ServerTestSupport
import SyncSchema
import Synchronization
import TestSupport
import Testing

/// The convergence property of two-way sync (Docs/Sync.md): three clients
/// and one server, random adds, edits, deletes, syncs and resolutions of
/// conflicts in a random order, with a failure injected at a random step of some syncs (before
/// the push is sent; after the server applied it, the answer lost; during
/// the pull's fetch; inside the pull's transaction). After every client
/// syncs twice more, every client holds the server's players, and every
/// client's last change of each player is on the server or in that
/// client's conflicts.
///
/// On both server stores: 10 seeded runs each in `make test`, 100 in
/// `make check-long`;
/// `CONVERGENCE_RUNS` sets another number, `CONVERGENCE_SEED` replays one.
/// A failing run names its seed and the command that replays it.
@Suite struct ConvergenceTests {
    static let seeds = TestSeeds("CONVERGENCE", test: "ConvergenceTests", correctness: 10, long: 100)

    @Test(arguments: StoreKind.allCases)
    func everyClientConvergesToTheServerAndNoChangeIsLost(_ kind: StoreKind) async throws {
        await Self.seeds.run(label: "\(kind)") { seed in try await ConvergenceRun(seed: seed, kind: kind).run() }
    }
}

/// One seeded run of the property.
struct ConvergenceRun {
    let seed: UInt64
    let kind: StoreKind

    /// What a client last did to a player, that must end up on the server
    /// or in its conflicts.
    enum Intent: Equatable, CustomStringConvertible {
        case value(name: String, score: Int)
        case deleted

        var description: String {
            switch self {
            case .value(let name, let score): return "\(name), \(score)"
            case .deleted: return "deleted"
            }
        }
    }

    /// Where a sync fails on purpose: in a transfer, or inside the
    /// pull's transaction.
    enum Fault {
        case transport(TransportFault)
        case insidePullTransaction

        static let allCases = TransportFault.allCases.map(Fault.transport) + [.insidePullTransaction]
    }

    func run() async throws -> [String] {
        let collected = Mutex<[String]>([])
        try await APITestServer.with(kind) { [seed] server in
            let url = URL(string: "http://127.0.0.1:\(server.client.port)")!
            var random = SeededRandom(seed: seed)
            var failures: [String] = []
            let clients = try (0..<3).map { _ in try ClientDatabase() }
            let logs = (0..<3).map { _ in PushLog() }
            var intents: [[UUID: Intent]] = [[:], [:], [:]]
            var steps: [String] = []

            func sync(_ index: Int, fault: Fault?) async throws {
                var transportFault: TransportFault?
                var hook: (@Sendable (Database) throws -> Void)?
                switch fault {
                case .transport(let fault): transportFault = fault
                case .insidePullTransaction: hook = { _ in throw InjectedFault() }
                case nil: break
                }
                let transport = FaultyTransport(base: fastTransport(), fault: transportFault, answered: logs[index].record)
                let client = clients[index].appDatabase.syncClient(baseURL: url, transport: transport, beforeCommit: hook)
                do {
                    // A repair would hide a merge that went wrong: none may
                    // be needed.
                    let report = try await client.syncPlayers()
                    if let repaired = report.pull.repaired {
                        failures.append("client \(index) needed a repair: \(repaired)")
                    }
                } catch is InjectedFault {
                    // The failure this step asked for.
                }
            }

            for _ in 0..<30 {
                let index = random.next(below: 3)
                let appDatabase = clients[index].appDatabase
                let players = try await appDatabase.reader.read { db in try Player.order(Player.Columns.id).fetchAll(db) }
                // A `where` clause binds to the last pattern of a case only:
                // the draw is mapped to an action first.
                let draw = random.next(below: 12)
                let conflicts = try appDatabase.conflicts()
                let action = players.isEmpty && (3...6).contains(draw) ? 0 : conflicts.isEmpty && draw >= 10 ? 9 : draw
                switch action {
                case 0, 1, 2:
                    var player = Player(name: Player.randomName(), score: 10 * random.next(below: 101))
                    try appDatabase.savePlayer(&player)
                    intents[index][player.uuid] = .value(name: player.name, score: player.score)
                    steps.append("client \(index) adds \(player.uuid.uuidString.prefix(8)) \(player.score)")
                case 3, 4, 5:
                    let player = players[random.next(below: players.count)]
                    let score = 10 * random.next(below: 101)
                    let edited = try #require(try appDatabase.updatePlayer(id: player.id!) { $0.score = score })
                    // The same score is no change: nothing to push.
                    if score != player.score {
                        intents[index][player.uuid] = .value(name: edited.name, score: edited.score)
                    }
                    steps.append("client \(index) edits \(player.uuid.uuidString.prefix(8)) \(score)")
                case 6:
                    let player = players[random.next(below: players.count)]
                    try appDatabase.deletePlayers(exactly: [player.id!])
                    intents[index][player.uuid] = .deleted
                    steps.append("client \(index) deletes \(player.uuid.uuidString.prefix(8))")
                case 7:
                    let fault = Fault.allCases[random.next(below: Fault.allCases.count)]
                    try await sync(index, fault: fault)
                    steps.append("client \(index) syncs, failing \(fault)")
                case 10, 11:
                    // Keep the local value (pushed by the next sync) or
                    // the server's (the local change is dropped, by choice).
                    let conflict = conflicts[random.next(below: conflicts.count)]
                    let keepLocal = draw == 10
                    let latest = try #require(conflicts.last { $0.playerUUID == conflict.playerUUID })
                    try appDatabase.resolveConflicts(of: conflict.playerUUID, keepLocal: keepLocal)
                    intents[index][conflict.playerUUID] = keepLocal ? Self.localIntent(latest) : nil
                    steps.append("client \(index) keeps the \(keepLocal ? "local" : "server's") value of \(conflict.playerUUID.uuidString.prefix(8))")
                default:
                    try await sync(index, fault: nil)
                    steps.append("client \(index) syncs")
                }
            }
            for _ in 0..<2 {
                for index in clients.indices { try await sync(index, fault: nil) }
            }

            // Every client holds the server's players.
            let serverPlayers = try await server.store.allPlayers().sorted { $0.uuid.uuidString < $1.uuid.uuidString }
            let server = serverPlayers.map { Intent.value(name: $0.name, score: $0.score) }
            let serverUUIDs = serverPlayers.map(\.uuid)
            for (index, client) in clients.enumerated() {
                let players = try client.players().sorted { $0.uuid.uuidString < $1.uuid.uuidString }
                if players.map(\.uuid) != serverUUIDs || players.map({ Intent.value(name: $0.name, score: $0.score) }) != server {
                    failures.append("client \(index) differs from the server after \(steps)")
                }
                if try client.appDatabase.pendingChangeCount() != 0 {
                    failures.append("client \(index) still has changes to push")
                }
            }
            // Every client's last change of each player is on the server
            // (applied, or answered by an equal server value) or in its
            // conflicts, or is the deletion of a player it never sent.
            for (index, client) in clients.enumerated() {
                let conflicts = try client.appDatabase.conflicts()
                for (uuid, intent) in intents[index] {
                    let pushed = logs[index].outcomes(of: uuid)
                    if pushed.contains(where: { $0.intent == intent && $0.reachedServer }) { continue }
                    if conflicts.contains(where: { $0.playerUUID == uuid && Self.localIntent($0) == intent }) { continue }
                    if intent == .deleted && pushed.isEmpty { continue }
                    failures.append("client \(index)'s last change of \(uuid.uuidString.prefix(8)) (\(intent)) is neither on the server nor in its conflicts; pushed: \(pushed); steps: \(steps)")
                }
            }
            collected.withLock { $0 = failures }
        }
        return collected.withLock { $0 }
    }

    static func localIntent(_ conflict: PlayerConflict) -> Intent {
        guard let name = conflict.localName, let score = conflict.localScore else { return .deleted }
        return .value(name: name, score: score)
    }
}

// MARK: - Test parts

/// What a client's pushes carried and what the server answered, read from
/// the wire: each change with its outcome.
final class PushLog: Sendable {
    struct Outcome: CustomStringConvertible {
        var intent: ConvergenceRun.Intent
        /// Applied, or a conflict whose server value equals the change.
        var reachedServer: Bool

        var description: String { "\(intent) \(reachedServer ? "reached the server" : "lost")" }
    }

    private let outcomes = Mutex<[UUID: [Outcome]]>([:])

    /// Records a push the server answered (``FaultyTransport/answered``).
    @Sendable func record(_ request: HTTPRequest, _ response: HTTPResponse) {
        guard let body = request.body, let batch = try? SyncChangeBatch.decode(body, schema: PlayersSchema.schema) else { return }
        let results: SyncChangeResults
        do {
            results = try SyncChangeResults.decode(response.body, answering: batch.changes, schema: PlayersSchema.schema)
        } catch {
            // A log that reads nothing would make the property vacuous.
            Issue.record("the server's answer to a push could not be read: \(error)")
            return
        }
        outcomes.withLock { outcomes in
            for (change, result) in zip(batch.changes, results.results) {
                let intent: ConvergenceRun.Intent = change.operation == .delete ? .deleted : Self.intent(change.row)
                let server: ConvergenceRun.Intent = result.serverRow.map(Self.intent) ?? .deleted
                outcomes[change.row.id, default: []].append(
                    Outcome(intent: intent, reachedServer: result.status == .applied || server == intent))
            }
        }
    }

    /// A player's row as the value a client meant.
    static func intent(_ row: SyncRow) -> ConvergenceRun.Intent {
        guard case .text(let name)? = row.values["name"], case .integer(let score)? = row.values["score"] else {
            return .value(name: "", score: -1)
        }
        return .value(name: name, score: Int(score))
    }

    func outcomes(of uuid: UUID) -> [Outcome] {
        outcomes.withLock { $0[uuid] ?? [] }
    }
}
