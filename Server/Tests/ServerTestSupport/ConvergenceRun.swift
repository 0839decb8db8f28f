import CipherSync
import Foundation
import SyncSchema
import Synchronization
import TestSupport
import Testing

/// A row of a convergence run: its table and id.
public struct ConvergenceKey: Hashable, Sendable, CustomStringConvertible {
    public var table: String
    public var id: UUID

    public init(table: String, id: UUID) {
        self.table = table
        self.id = id
    }

    public var description: String { "\(table) \(id.uuidString.prefix(8))" }
}

/// What a device last did to a row, which must end up on the server or in
/// that device's conflicts: the last value it gave each column, as text,
/// or a delete.
public enum ConvergenceIntent: Equatable, Sendable, CustomStringConvertible {
    case values([String: String])
    case deleted

    public var description: String {
        switch self {
        case .values(let values): values.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ",")
        case .deleted: "deleted"
        }
    }
}

/// A local step of a device, drawn at random: what it did, and what it
/// makes the device's intents.
public struct ConvergenceStep: Sendable {
    public enum Effect: Sendable {
        /// Columns set: their values join the row's intent.
        case merge([String: String])
        /// The row's intent replaced (nil: none left, as after keeping the
        /// server's value of a conflict).
        case set(ConvergenceIntent?)
    }

    public var description: String
    public var effects: [(key: ConvergenceKey, effect: Effect)]

    public init(_ description: String, _ effects: [(key: ConvergenceKey, effect: Effect)]) {
        self.description = description
        self.effects = effects
    }
}

/// Where a sync of a convergence run fails on purpose.
public enum ConvergenceFault: Sendable, CustomStringConvertible {
    /// In a transfer (``FaultyTransport``).
    case transport(TransportFault)
    /// Inside the pull's transaction, before it commits.
    case insidePullTransaction

    public var description: String {
        switch self {
        case .transport(let fault): "\(fault)"
        case .insidePullTransaction: "inside the pull's transaction"
        }
    }
}

/// A device of an app in a convergence run: the part of the run that is
/// the app's own (its database, its changes, its sync); ``ConvergenceRun``
/// is the rest, written once for every app.
public protocol ConvergenceDevice: Sendable {
    /// A new device of the app, with an empty database.
    init() throws
    /// The faults its syncs can be made to fail by.
    static var faults: [ConvergenceFault] { get }
    /// A random local change, or the settling of a conflict, drawn from
    /// `random`; nil when what it drew needs what the device lacks (the
    /// run syncs instead).
    func randomStep(using random: inout SeededRandom) async throws -> ConvergenceStep?
    /// Pushes, then pulls, through `transport`, failing as `fault` asks
    /// (then it throws ``InjectedFault``); what a repair found, when the
    /// device's synced rows had diverged from the server's digests.
    func sync(_ url: URL, transport: any HTTPTransport, fault: ConvergenceFault?) async throws -> String?
    /// Every row of its tables, as text, to compare devices.
    func content() throws -> [String]
    /// The rows it holds.
    func rowKeys() throws -> Set<ConvergenceKey>
    /// The changes waiting to be pushed.
    func outboxCount() throws -> Int
    /// The rows that refer to a row it does not have.
    func foreignKeyViolations() throws -> Int
    /// The rows of its conflicts and their local values (nil: a local
    /// delete), oldest first.
    func conflicts() throws -> [(key: ConvergenceKey, local: [String: String]?)]
}

/// One seeded run of the convergence property of two-way sync (Docs/Sync.md),
/// for any app: three devices and one server, random local changes, syncs
/// (some failing at a random step: before the push is sent; after the
/// server applied it, the answer lost; during the pull's fetch; inside the
/// pull's transaction) and settlements of conflicts, in a random order.
/// After every device syncs twice more, every device holds what the server
/// holds (what a new device pulls), with an empty outbox, no broken
/// reference and no repair needed; and every device's last value of each
/// column it changed reached the server, or is in its conflicts; a delete
/// reached it, or the row is gone.
///
/// ```swift
/// let failures = try await ConvergenceRun<NotesDevice>(seed: seed, kind: .embedded, schema: .testNotes).run()
/// ```
public struct ConvergenceRun<Device: ConvergenceDevice> {
    public let seed: UInt64
    public let kind: StoreKind
    /// The declaration the server serves and the devices sync.
    public let schema: SyncSchema

    public init(seed: UInt64, kind: StoreKind, schema: SyncSchema) {
        self.seed = seed
        self.kind = kind
        self.schema = schema
    }

    /// The property's failures, each with the steps that led to it.
    public func run() async throws -> [String] {
        let collected = Mutex<[String]>([])
        try await APITestServer.with(kind, schema: schema) { [seed, schema] server in
            let url = URL(string: "http://127.0.0.1:\(server.client.port)")!
            var random = SeededRandom(seed: seed)
            let devices = try (0..<3).map { _ in try Device() }
            let logs = (0..<3).map { _ in PushLog(schema: schema) }
            var intents: [[ConvergenceKey: ConvergenceIntent]] = [[:], [:], [:]]
            var steps: [String] = []
            var failures: [String] = []

            func sync(_ index: Int, fault: ConvergenceFault?) async throws {
                var transportFault: TransportFault?
                if case .transport(let fault) = fault { transportFault = fault }
                let transport = FaultyTransport(base: fastTransport(), fault: transportFault, answered: logs[index].record)
                do {
                    // A repair would hide a merge that went wrong: none may
                    // be needed.
                    if let repaired = try await devices[index].sync(url, transport: transport, fault: fault) {
                        failures.append("device \(index)'s synced rows differed from the server's digests (\(repaired)) after \(steps)")
                    }
                } catch is InjectedFault {
                    // The failure this step asked for.
                }
            }

            for _ in 0..<30 {
                let index = random.next(below: 3)
                let draw = random.next(below: 16)
                if draw == 0 {
                    let fault = Device.faults[random.next(below: Device.faults.count)]
                    try await sync(index, fault: fault)
                    steps.append("device \(index) syncs, failing \(fault)")
                } else if draw > 3, let step = try await devices[index].randomStep(using: &random) {
                    for (key, effect) in step.effects {
                        switch effect {
                        case .set(let intent):
                            intents[index][key] = intent
                        case .merge(let values):
                            var merged: [String: String] = [:]
                            if case .values(let existing) = intents[index][key] { merged = existing }
                            merged.merge(values) { _, new in new }
                            intents[index][key] = .values(merged)
                        }
                    }
                    steps.append("device \(index) \(step.description)")
                } else {
                    try await sync(index, fault: nil)
                    steps.append("device \(index) syncs")
                }
            }
            for _ in 0..<2 {
                for index in devices.indices { try await sync(index, fault: nil) }
            }

            // Every device holds what the server holds, and nothing to push.
            let serverView = try Device()
            _ = try await serverView.sync(url, transport: fastTransport(), fault: nil)
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
            let serverRows = try serverView.rowKeys()
            for (index, device) in devices.enumerated() {
                let conflicts = try device.conflicts()
                for (key, intent) in intents[index] {
                    let kept = conflicts.filter { $0.key == key }
                    switch intent {
                    case .deleted:
                        if !serverRows.contains(key) || kept.contains(where: { $0.local == nil }) { continue }
                        if logs[index].reached(key.id, column: nil, value: nil) { continue }
                        failures.append("device \(index)'s delete of \(key) is neither on the server nor in its conflicts; steps: \(steps)")
                    case .values(let values):
                        for (column, value) in values {
                            if logs[index].reached(key.id, column: column, value: value) { continue }
                            if kept.contains(where: { $0.local?[column] == value }) { continue }
                            failures.append("device \(index)'s \(column) \(value) of \(key) is neither on the server nor in its conflicts; steps: \(steps)")
                        }
                    }
                }
            }
            collected.withLock { $0 = failures }
        }
        return collected.withLock { $0 }
    }

    /// What keeping a conflict's local values makes a device's intent.
    public static func localIntent(_ local: [String: String]?) -> ConvergenceIntent {
        local.map(ConvergenceIntent.values) ?? .deleted
    }
}

/// What a device's pushes carried and what the server answered, read from
/// the wire: for each row, each change's values that reached the server
/// (applied, or equal to the server row's in the answer to a conflict: a
/// row merged by column takes the columns that no one else changed).
final class PushLog: Sendable {
    struct Outcome {
        /// The values sent that reached the server, as text; nil for a
        /// delete, which reached it when it was applied or the server's
        /// row is deleted too.
        var reached: [String: String]?
        var deleteReached: Bool
    }

    let schema: SyncSchema
    private let outcomes = Mutex<[UUID: [Outcome]]>([:])

    init(schema: SyncSchema) {
        self.schema = schema
    }

    /// Records a push the server answered (``FaultyTransport/answered``).
    @Sendable func record(_ request: HTTPRequest, _ response: HTTPResponse) {
        guard let body = request.body, let batch = try? SyncChangeBatch.decode(body, schema: schema) else { return }
        let results: SyncChangeResults
        do {
            results = try SyncChangeResults.decode(response.body, answering: batch.changes, schema: schema)
        } catch {
            // A log that reads nothing would make the property vacuous.
            Issue.record("the server's answer to a push could not be read: \(error)")
            return
        }
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
                outcomes[change.row.id, default: []].append(outcome)
            }
        }
    }

    /// Whether a change of the row carrying `column` = `value` (a delete,
    /// for a nil column) reached the server.
    func reached(_ id: UUID, column: String?, value: String?) -> Bool {
        outcomes.withLock { outcomes in
            (outcomes[id] ?? []).contains { outcome in
                guard let column else { return outcome.deleteReached }
                return outcome.reached?[column] == value
            }
        }
    }

    /// A value as the intents write it.
    static func text(_ value: SyncValue) -> String? {
        switch value {
        case .text(let text): text
        case .uuid(let uuid): uuid.uuidString
        case .integer(let integer): String(integer)
        default: nil
        }
    }
}
