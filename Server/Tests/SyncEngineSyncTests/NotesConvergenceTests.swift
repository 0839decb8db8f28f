import CipherDB
import CipherSync
import Foundation
import ServerTestSupport
import SyncEngine
import SyncSchema
import Synchronization
import TestSupport
import Testing

/// The convergence property of two-way sync (``ConvergenceRun``) for the
/// test declaration's notebooks (server wins) and notes (merged by
/// column), on both server stores: three devices adding, editing either
/// column, deleting (a notebook with its notes) and settling conflicts,
/// with no broken reference at the end.
///
/// 8 seeded runs per store in `make test`, 100 in `make check-long`;
/// `NOTES_CONVERGENCE_RUNS` sets another number, `NOTES_CONVERGENCE_SEED`
/// replays one. A failing run names its seed and the command that replays it.
@Suite struct NotesConvergenceTests {
    static let seeds = TestSeeds("NOTES_CONVERGENCE", test: "NotesConvergenceTests", correctness: 8, long: 100)

    @Test(arguments: StoreKind.allCases)
    func everyDeviceConvergesToTheServerAndNoChangeIsLost(_ kind: StoreKind) async throws {
        await Self.seeds.run(label: "\(kind)") { seed in
            try await ConvergenceRun<NotesDevice>(seed: seed, kind: kind, schema: .testNotes).run()
        }
    }
}

/// A device of the test declaration as a device of the property.
extension NotesDevice: ConvergenceDevice {
    static let faults = TransportFault.allCases.map(ConvergenceFault.transport)

    convenience init() throws {
        try self.init(schema: .testNotes)
    }

    func randomStep(using random: inout SeededRandom) async throws -> ConvergenceStep? {
        let notebooks = try rows("notebook")
        let notes = try rows("note")
        let conflicts = try syncConflicts()
        func word() -> String {
            ["Work", "Home", "Ideas", "Trips", "Plans", "Books"][random.next(below: 6)] + " \(random.next(below: 100))"
        }
        func key(_ table: String, _ id: String) throws -> ConvergenceKey {
            ConvergenceKey(table: table, id: try #require(UUID(uuidString: id)))
        }
        switch random.next(below: 12) {
        case 0, 1:
            let id = UUID().uuidString, name = word()
            try execute("INSERT INTO notebook (id, name) VALUES (?, ?)", [id, name])
            return ConvergenceStep("adds notebook \(id.prefix(8))", [(try key("notebook", id), .set(.values(["name": name])))])
        case 2, 3, 4:
            guard !notebooks.isEmpty else { return nil }
            let id = UUID().uuidString, title = word(), notebook = notebooks[random.next(below: notebooks.count)]
            try execute("INSERT INTO note (id, notebook, title) VALUES (?, ?, ?)", [id, notebook["id"]!, title])
            return ConvergenceStep("adds note \(id.prefix(8)) to \(notebook["id"]!.prefix(8))",
                                   [(try key("note", id), .set(.values(["notebook": notebook["id"]!, "title": title])))])
        case 5:
            guard !notebooks.isEmpty else { return nil }
            let notebook = notebooks[random.next(below: notebooks.count)], name = word()
            guard notebook["name"] != name else { return ConvergenceStep("renames notebook \(notebook["id"]!.prefix(8)) as it was", []) }
            try execute("UPDATE notebook SET name = ? WHERE id = ?", [name, notebook["id"]!])
            return ConvergenceStep("renames notebook \(notebook["id"]!.prefix(8)) \(name)",
                                   [(try key("notebook", notebook["id"]!), .merge(["name": name]))])
        case 6, 7, 8:
            guard !notes.isEmpty else { return nil }
            let note = notes[random.next(below: notes.count)], column = random.next(below: 2) == 0 ? "title" : "body"
            let value = word()
            guard note[column] != value else { return ConvergenceStep("sets the \(column) of note \(note["id"]!.prefix(8)) as it was", []) }
            try execute("UPDATE note SET \(column) = ? WHERE id = ?", [value, note["id"]!])
            return ConvergenceStep("sets the \(column) of note \(note["id"]!.prefix(8)) to \(value)",
                                   [(try key("note", note["id"]!), .merge([column: value]))])
        case 9:
            guard !notes.isEmpty else { return nil }
            let note = notes[random.next(below: notes.count)]
            try execute("DELETE FROM note WHERE id = ?", [note["id"]!])
            return ConvergenceStep("deletes note \(note["id"]!.prefix(8))", [(try key("note", note["id"]!), .set(.deleted))])
        case 10:
            guard !notebooks.isEmpty else { return nil }
            let id = notebooks[random.next(below: notebooks.count)]["id"]!
            let deleted = try notes.filter { $0["notebook"] == id }.map { (key: try key("note", $0["id"]!), effect: ConvergenceStep.Effect.set(.deleted)) }
            try execute("DELETE FROM notebook WHERE id = ?", [id])
            return ConvergenceStep("deletes notebook \(id.prefix(8)) with its notes", deleted + [(try key("notebook", id), .set(.deleted))])
        default:
            // Keep the local value (pushed by the next sync) or the
            // server's (the local change dropped, by choice).
            guard !conflicts.isEmpty else { return nil }
            let conflict = conflicts[random.next(below: conflicts.count)]
            let key = ConvergenceKey(table: conflict.table, id: conflict.rowID)
            let latest = try #require(conflicts.last { $0.table == conflict.table && $0.rowID == conflict.rowID })
            let keepLocal = random.next(below: 2) == 0
            do {
                try await dbQueue.write { [schema] db in
                    _ = try db.resolveSyncConflicts(table: key.table, rowID: conflict.rowID, keepLocal: keepLocal, schema: schema)
                }
            } catch SyncEngineError.referencedRowGone {
                return ConvergenceStep("cannot keep \(key), whose notebook is gone", [])
            }
            // Keeping a notebook's local delete deletes its notes here too,
            // as a delete of it does.
            let cascaded = keepLocal && latest.localValues == nil && key.table == "notebook"
                ? try notes.filter { $0["notebook"] == conflict.rowID.uuidString }.map { note in
                    (key: ConvergenceKey(table: "note", id: try #require(UUID(uuidString: note["id"]!))), effect: ConvergenceStep.Effect.set(.deleted))
                }
                : []
            return ConvergenceStep("keeps the \(keepLocal ? "local" : "server's") value of \(key)",
                                   cascaded + [(key, .set(keepLocal ? ConvergenceRun<NotesDevice>.localIntent(Self.local(latest)) : nil))])
        }
    }

    func sync(_ url: URL, transport: any HTTPTransport, fault: ConvergenceFault?) async throws -> String? {
        try await sync(url, transport: transport).pulled.repaired.map { "\($0)" }
    }

    func content() throws -> [String] {
        try content(columnsOf: nil)
    }

    func rowKeys() throws -> Set<ConvergenceKey> {
        try Set(["notebook", "note"].flatMap { table in
            try rows(table).map { ConvergenceKey(table: table, id: try #require(UUID(uuidString: $0["id"]!))) }
        })
    }

    func conflicts() throws -> [(key: ConvergenceKey, local: [String: String]?)] {
        try syncConflicts().map { (ConvergenceKey(table: $0.table, id: $0.rowID), Self.local($0)) }
    }

    /// A conflict's local values as text; nil for a local delete.
    static func local(_ conflict: SyncConflict) -> [String: String]? {
        conflict.localValues.map { local in
            local.compactMapValues { scalar in
                if case .string(let text) = scalar { text } else { nil }
            }
        }
    }
}
