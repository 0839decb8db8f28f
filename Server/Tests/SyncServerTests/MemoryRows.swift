import Foundation
import SyncSchema
import ServerTestSupport
import SyncServer

/// The stored state of a store, in memory, and what a store does with a
/// batch (the reads that ``SyncChangeReads`` asks for, the plan, its
/// writes), a purge (``SyncPurge``), a delta's read (``SyncCounter``),
/// the digests made anew when it opens (``SyncMissingDigests``), and an
/// earlier store taken in (``SyncAdoption``). The rules under test are
/// SyncServer's; the real stores carry them out the same way (their own
/// tests).
struct MemoryRows {
    var schema: SyncSchema
    var rows: [SyncRowKey: SyncStoredRow] = [:]
    var answers: [UUID: SyncRecordedAnswer] = [:]
    var counter: Int64 = 0
    var floor: Int64 = 0
    /// The identity, epochs and restored mark that an adoption set.
    var history: (server: UUID, epochs: [SyncEpoch], isRestored: Bool)?
    /// The requests of the last batch, in order.
    var requests: [SyncChangeReads.Request] = []
    /// The last batch's plan.
    var lastPlan: SyncChangePlan?

    init(schema: SyncSchema = .testNotes) {
        self.schema = schema
    }

    mutating func apply(_ changes: [SyncChange], by user: SyncUser? = nil,
                        at date: Date = Date(timeIntervalSince1970: 1_000)) throws -> [SyncPushResult] {
        var reads = SyncChangeReads(changes, schema: schema)
        requests = []
        while let request = reads.nextRequest() {
            requests.append(request)
            switch request {
            case .rows(let keys):
                reads.receive(keys.compactMap { rows[$0] })
            case .children(let parents):
                let parentKeys = Set(parents)
                reads.receive(rows.values.filter { row in
                    row.references(in: schema.table(row.key.table)!).contains { parentKeys.contains($0.parent) }
                })
            }
        }
        let plan = try SyncChangePlan(changes, schema: schema, rows: reads.rows,
                                      recorded: answers.filter { id, _ in changes.contains { $0.mutationID == id } },
                                      rights: user.map { SyncRights(user: $0, grants: rows.values.compactMap(schema.grant(of:))) },
                                      counter: counter, date: date)
        lastPlan = plan
        for row in plan.rowsToSave { rows[row.key] = row }
        for answer in plan.answersToRecord { answers[answer.mutationID] = answer }
        counter = plan.counter
        return plan.results
    }

    /// Applies one change, and returns its answer.
    mutating func apply(_ change: SyncChange) throws -> SyncPushResult {
        try apply([change])[0]
    }

    /// Forgets the tombstones and answers older than `retention` at `now`.
    mutating func purge(olderThan retention: TimeInterval, now: Date) {
        let purge = SyncPurge(olderThan: retention, now: now)
        let purged = rows.values.filter { row in
            if case .deleted(let date) = row.state { return date < purge.limit }
            return false
        }
        if let raised = purge.raisedFloor(from: floor, newestPurged: purged.map(\.version).max()) { floor = raised }
        for row in purged { rows[row.key] = nil }
        answers = answers.filter { $0.value.answeredAt >= purge.limit }
    }

    /// The rows changed after `version`, in version order; nil when a
    /// delta cannot answer it.
    func changes(after version: Int64) -> [SyncStoredRow]? {
        guard SyncCounter(value: counter, floor: floor).answersDelta(after: version) else { return nil }
        return rows.values.filter { $0.version > version }.sorted { $0.version < $1.version }
    }

    /// The digests made anew, as a store makes them when it opens while
    /// it keeps `kept`, and the requests of the rule, in order.
    func makeMissingDigests(kept: [SyncTableDigest],
                            chunkSize: Int) -> (saved: [SyncTableDigest], requests: [SyncMissingDigests.Request]) {
        var missing = SyncMissingDigests(schema: schema, kept: kept, chunkSize: chunkSize)
        var saved: [SyncTableDigest] = [], requests: [SyncMissingDigests.Request] = []
        while let request = missing.nextRequest() {
            requests.append(request)
            switch request {
            case .liveRows(let table, let after, let limit):
                let live = rows.values.filter { $0.key.table == table && $0.isLive && $0.key.id.uuidString > after?.uuidString ?? "" }
                missing.receive(Array(live.sorted { $0.key.id.uuidString < $1.key.id.uuidString }.prefix(limit)))
            case .save(let digest, _):
                saved.append(digest)
            }
        }
        return (saved, requests)
    }

    /// Takes in an earlier store of `adopted`'s history whose records are
    /// `chunks` (the one at `Position(part: 0, after: "i")` is `chunks[i]`,
    /// the first at nil); the steps taken, in order.
    mutating func adopt(_ adopted: SyncAdoptedHistory, chunks: [SyncAdoptedChunk]) -> [SyncAdoption.Step] {
        var adoption = SyncAdoption(adopted, own: SyncCounter(value: counter, floor: floor))
        var steps: [SyncAdoption.Step] = []
        while let step = adoption.nextStep() {
            steps.append(step)
            switch step {
            case .moveOwnVersions(let offset):
                rows = rows.mapValues { SyncStoredRow(key: $0.key, version: $0.version + offset, state: $0.state) }
                answers = answers.mapValues { answer in
                    var moved = answer
                    moved.result.version = answer.result.version.map { $0 + offset }
                    return moved
                }
            case .setCounter(let adoptedCounter):
                (counter, floor) = (adoptedCounter.value, adoptedCounter.floor)
            case .setHistory(let server, let epochs, let isRestored):
                history = (server, epochs, isRestored)
            case .forgetDigests:
                break
            case .takeChunk(let position):
                let chunk = chunks[position.flatMap { $0.after.flatMap(Int.init) } ?? 0]
                for row in chunk.rows { rows[row.key] = row }
                for answer in chunk.answers { answers[answer.mutationID] = answer }
                adoption.took(chunk)
            case .dropEarlierStore:
                break
            }
        }
        return steps
    }

    func row(_ table: String, _ id: UUID) -> SyncStoredRow? {
        rows[SyncRowKey(table: table, id: id)]
    }

    func values(_ table: String, _ id: UUID) -> [String: SyncValue]? {
        row(table, id)?.values
    }

    // MARK: - Changes

    func upsert(_ table: String, _ id: UUID, _ values: [String: SyncValue], base: Int64? = nil, mutationID: UUID = UUID()) throws -> SyncChange {
        let table = schema.table(table)!
        let row = try table.row(id: id, values: values, carrying: .changed)
        return SyncChange(mutationID: mutationID, operation: .upsert, row: row, baseVersion: base)
    }

    func delete(_ table: String, _ id: UUID, base: Int64?, mutationID: UUID = UUID()) throws -> SyncChange {
        let row = try schema.table(table)!.row(id: id, values: [:], carrying: .changed)
        return SyncChange(mutationID: mutationID, operation: .delete, row: row, baseVersion: base)
    }
}
