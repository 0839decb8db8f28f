import CipherDB
import CipherSync
import Foundation
import ServerTestSupport
import SyncEngine
import SyncSchema
import Synchronization
import TestSupport
import Testing

/// The convergence property of the sync engine, on the test declaration's
/// notebooks (server wins) and notes (merged by column), on both server
/// stores: three devices make random adds, edits of either column,
/// deletes (a notebook's with its notes), syncs (some failing before the
/// push, after the server applied it with the answer lost, or during the
/// pull) and settlements of conflicts, in a random order. After every
/// device syncs twice more, every device holds what the server holds (what
/// a new device pulls), with an empty outbox and no broken reference; and
/// every device's last value of each column it changed reached the
/// server, or is in that device's conflicts.
///
/// 8 seeded runs per store in `make test`, 100 in `make check-long`;
/// `NOTES_CONVERGENCE_RUNS` sets another number, `NOTES_CONVERGENCE_SEED`
/// replays one. A failing run names its seed and the command that replays it.
@Suite struct NotesConvergenceTests {
    static let seeds = TestSeeds("NOTES_CONVERGENCE", test: "NotesConvergenceTests", correctness: 8, long: 100)

    @Test(arguments: StoreKind.allCases)
    func everyDeviceConvergesToTheServerAndNoChangeIsLost(_ kind: StoreKind) async throws {
        await Self.seeds.run(label: "\(kind)") { seed in try await NotesConvergenceRun(seed: seed, kind: kind).run() }
    }
}

/// One seeded run of the property.
struct NotesConvergenceRun {
    let seed: UInt64
    let kind: StoreKind

    /// What a device last did to a row, that must end up on the server or
    /// in its conflicts: the last value it gave each column, or a delete.
    enum Intent: Equatable, CustomStringConvertible {
        case values([String: String])
        case deleted

        var description: String {
            switch self {
            case .values(let values): values.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ",")
            case .deleted: "deleted"
            }
        }
    }

    /// What a step does.
    enum Action {
        case addNotebook, addNote, renameNotebook, editNote, deleteNote, deleteNotebook, faultySync, resolve, sync
    }

    /// A row of a device: its table and id.
    struct RowKey: Hashable, CustomStringConvertible {
        var table: String
        var id: String
        var description: String { "\(table) \(id.prefix(8))" }
    }

    func run() async throws -> [String] {
        let collected = Mutex<[String]>([])
        try await withSyncServer(kind) { [seed] url in
            var random = SeededRandom(seed: seed)
            let devices = try (0..<3).map { _ in try NotesDevice() }
            let logs = (0..<3).map { _ in EnginePushLog(schema: .testNotes) }
            var intents: [[RowKey: Intent]] = [[:], [:], [:]]
            var steps: [String] = []
            var failures: [String] = []

            func sync(_ index: Int, fault: TransportFault?) async throws {
                let transport = FaultyTransport(base: fastTransport(), fault: fault, answered: logs[index].record)
                do {
                    let pulled = try await devices[index].sync(url, transport: transport).pulled
                    // The synced rows always match the server's digests:
                    // a repair means the device had diverged.
                    if let repaired = pulled.repaired {
                        failures.append("device \(index)'s synced rows differed from the server's digests (\(repaired)) after \(steps)")
                    }
                } catch is InjectedFault {
                    // The failure this step asked for.
                }
            }
            func word() -> String {
                ["Work", "Home", "Ideas", "Trips", "Plans", "Books"][random.next(below: 6)] + " \(random.next(below: 100))"
            }
            func setIntent(_ index: Int, _ key: RowKey, _ column: String, _ value: String) {
                var values: [String: String] = [:]
                if case .values(let existing) = intents[index][key] { values = existing }
                values[column] = value
                intents[index][key] = .values(values)
            }

            for _ in 0..<30 {
                let index = random.next(below: 3)
                let device = devices[index]
                let notebooks = try device.rows("notebook")
                let notes = try device.rows("note")
                let conflicts = try device.conflicts()
                // A `where` clause binds to the last pattern of a case only:
                // the draw is mapped to an action first, and an action that
                // needs what the device lacks becomes a sync.
                var action = [Action.addNotebook, .addNotebook, .addNote, .addNote, .addNote, .renameNotebook,
                              .editNote, .editNote, .editNote, .deleteNote, .deleteNotebook, .faultySync,
                              .resolve, .sync, .sync, .sync][random.next(below: 16)]
                switch action {
                case .addNote, .renameNotebook, .deleteNotebook: if notebooks.isEmpty { action = .sync }
                case .editNote, .deleteNote: if notes.isEmpty { action = .sync }
                case .resolve: if conflicts.isEmpty { action = .sync }
                default: break
                }
                switch action {
                case .addNotebook:
                    let id = UUID().uuidString, name = word()
                    try device.execute("INSERT INTO notebook (id, name) VALUES (?, ?)", [id, name])
                    intents[index][RowKey(table: "notebook", id: id)] = .values(["name": name])
                    steps.append("device \(index) adds notebook \(id.prefix(8))")
                case .addNote:
                    let id = UUID().uuidString, title = word(), notebook = notebooks[random.next(below: notebooks.count)]
                    try device.execute("INSERT INTO note (id, notebook, title) VALUES (?, ?, ?)", [id, notebook["id"]!, title])
                    intents[index][RowKey(table: "note", id: id)] = .values(["notebook": notebook["id"]!, "title": title])
                    steps.append("device \(index) adds note \(id.prefix(8)) to \(notebook["id"]!.prefix(8))")
                case .renameNotebook:
                    let notebook = notebooks[random.next(below: notebooks.count)], name = word()
                    if notebook["name"] != name {
                        try device.execute("UPDATE notebook SET name = ? WHERE id = ?", [name, notebook["id"]!])
                        setIntent(index, RowKey(table: "notebook", id: notebook["id"]!), "name", name)
                    }
                    steps.append("device \(index) renames notebook \(notebook["id"]!.prefix(8)) \(name)")
                case .editNote:
                    let note = notes[random.next(below: notes.count)], column = random.next(below: 2) == 0 ? "title" : "body"
                    let value = word()
                    if note[column] != value {
                        try device.execute("UPDATE note SET \(column) = ? WHERE id = ?", [value, note["id"]!])
                        setIntent(index, RowKey(table: "note", id: note["id"]!), column, value)
                    }
                    steps.append("device \(index) sets the \(column) of note \(note["id"]!.prefix(8)) to \(value)")
                case .deleteNote:
                    let note = notes[random.next(below: notes.count)]
                    try device.execute("DELETE FROM note WHERE id = ?", [note["id"]!])
                    intents[index][RowKey(table: "note", id: note["id"]!)] = .deleted
                    steps.append("device \(index) deletes note \(note["id"]!.prefix(8))")
                case .deleteNotebook:
                    let notebook = notebooks[random.next(below: notebooks.count)]
                    let id = notebook["id"]!
                    for note in notes where note["notebook"] == id {
                        intents[index][RowKey(table: "note", id: note["id"]!)] = .deleted
                    }
                    try device.execute("DELETE FROM notebook WHERE id = ?", [id])
                    intents[index][RowKey(table: "notebook", id: id)] = .deleted
                    steps.append("device \(index) deletes notebook \(id.prefix(8)) with its notes")
                case .faultySync:
                    let fault = TransportFault.allCases[random.next(below: TransportFault.allCases.count)]
                    try await sync(index, fault: fault)
                    steps.append("device \(index) syncs, failing \(fault)")
                case .resolve:
                    // Keep the local value (pushed by the next sync) or the
                    // server's (the local change dropped, by choice).
                    let conflict = conflicts[random.next(below: conflicts.count)]
                    let key = RowKey(table: conflict.table, id: conflict.rowID.uuidString)
                    let latest = try #require(conflicts.last { $0.table == conflict.table && $0.rowID == conflict.rowID })
                    let keepLocal = random.next(below: 2) == 0
                    do {
                        try await device.dbQueue.write { db in
                            _ = try db.resolveSyncConflicts(table: key.table, rowID: conflict.rowID, keepLocal: keepLocal, schema: device.schema)
                        }
                        intents[index][key] = keepLocal ? Self.localIntent(latest) : nil
                        steps.append("device \(index) keeps the \(keepLocal ? "local" : "server's") value of \(key)")
                    } catch SyncEngineError.referencedRowGone {
                        steps.append("device \(index) cannot keep \(key), whose notebook is gone")
                    }
                case .sync:
                    try await sync(index, fault: nil)
                    steps.append("device \(index) syncs")
                }
            }
            for _ in 0..<2 {
                for index in devices.indices { try await sync(index, fault: nil) }
            }

            // Every device holds what the server holds, and nothing to push.
            let serverView = try NotesDevice()
            _ = try await serverView.sync(url)
            let serverContent = try serverView.content()
            for (index, device) in devices.enumerated() {
                if try device.content() != serverContent {
                    failures.append("device \(index) differs from the server after \(steps)")
                }
                if try device.outboxCount() != 0 {
                    failures.append("device \(index) still has changes to push")
                }
                if try device.foreignKeyViolations() != 0 {
                    failures.append("device \(index) has rows that refer to rows it does not have")
                }
            }
            // Every device's last value of each column it changed reached
            // the server (applied, or answered by an equal server value) or
            // is in its conflicts; a delete reached it, or the row is gone.
            let serverRows = try Set(["notebook", "note"].flatMap { table in
                try serverView.rows(table).map { RowKey(table: table, id: $0["id"]!) }
            })
            for (index, device) in devices.enumerated() {
                let conflicts = try device.conflicts()
                for (key, intent) in intents[index] {
                    let kept = conflicts.filter { $0.table == key.table && $0.rowID.uuidString == key.id }
                    switch intent {
                    case .deleted:
                        if !serverRows.contains(key) || kept.contains(where: { $0.localValues == nil }) { continue }
                        if logs[index].reached(key.id, column: nil, value: nil) { continue }
                        failures.append("device \(index)'s delete of \(key) is neither on the server nor in its conflicts; steps: \(steps)")
                    case .values(let values):
                        for (column, value) in values {
                            if logs[index].reached(key.id, column: column, value: value) { continue }
                            if kept.contains(where: { $0.localValues?[column] == .string(value) }) { continue }
                            failures.append("device \(index)'s \(column) \(value) of \(key) is neither on the server nor in its conflicts; steps: \(steps)")
                        }
                    }
                }
            }
            collected.withLock { $0 = failures }
        }
        return collected.withLock { $0 }
    }

    /// What keeping a conflict's local values makes the device's intent.
    static func localIntent(_ conflict: SyncConflict) -> Intent {
        guard let local = conflict.localValues else { return .deleted }
        var values: [String: String] = [:]
        for (column, scalar) in local {
            if case .string(let text) = scalar { values[column] = text }
        }
        return .values(values)
    }
}

/// What a device's pushes carried and what the server answered, read from
/// the wire: for each row, each change's values that reached the server
/// (applied, or equal to the server row's in the answer to a conflict: a
/// row merged by column takes the columns that no one else changed).
final class EnginePushLog: Sendable {
    struct Outcome {
        /// The values sent that reached the server, as text; nil for a
        /// delete, which reached it when it was applied or the server's
        /// row is deleted too.
        var reached: [String: String]?
        var deleteReached: Bool
    }

    let schema: SyncSchema
    private let outcomes = Mutex<[String: [Outcome]]>([:])

    init(schema: SyncSchema) {
        self.schema = schema
    }

    /// Records a push the server answered (``FaultyTransport/answered``).
    @Sendable func record(_ request: HTTPRequest, _ response: HTTPResponse) {
        guard let body = request.body, let batch = try? SyncChangeBatch.decode(body, schema: schema),
              let results = try? SyncChangeResults.decode(response.body, answering: batch.changes, schema: schema) else { return }
        outcomes.withLock { outcomes in
            for (change, result) in zip(batch.changes, results.results) {
                let server = result.serverRow.map { $0.values.compactMapValues(Self.text) }
                let outcome: Outcome
                if change.operation == .delete {
                    outcome = Outcome(reached: nil, deleteReached: result.status == .applied || result.serverRow == nil)
                } else {
                    let sent = change.row.values.compactMapValues(Self.text)
                    outcome = Outcome(reached: sent.filter { result.status == .applied || server?[$0.key] == $0.value }, deleteReached: false)
                }
                outcomes[change.row.id.uuidString, default: []].append(outcome)
            }
        }
    }

    /// Whether a change of the row carrying `column` = `value` (a delete,
    /// for a nil column) reached the server.
    func reached(_ id: String, column: String?, value: String?) -> Bool {
        outcomes.withLock { outcomes in
            (outcomes[id] ?? []).contains { outcome in
                guard let column else { return outcome.deleteReached }
                return outcome.reached?[column] == value
            }
        }
    }

    private static func text(_ value: SyncValue) -> String? {
        switch value {
        case .text(let text): text
        case .uuid(let uuid): uuid.uuidString
        default: nil
        }
    }
}
