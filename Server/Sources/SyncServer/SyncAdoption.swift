import Foundation
import SyncSchema

/// Taking in an app's earlier store of its rows (``SyncAdoptedHistory``)
/// when the engine's store first opens a database that holds one: the
/// algorithm, written once, that every store carries out in one
/// transaction, synchronous or not, a step at a time, with reads and
/// writes of its own (as it reads for a write, ``SyncChangeReads``).
///
/// The store's own rows and answers, if it has any (a server of other
/// tables ran on the database before), move after the adopted counter:
/// its own history is then gone, and its clients, whose cursors name it,
/// are told of another server and take a snapshot. The adopted identity
/// and epochs become the store's, and its counter and floor the adopted
/// ones (with its own changes after them); its digests are forgotten, to
/// be made anew from the rows when it opens (``SyncMissingDigests``);
/// then the earlier store's rows and answers are saved, a chunk at a time,
/// and its tables dropped.
///
/// ```swift
/// // In the store's opening transaction:
/// guard let adopted = try earlier.history(schema) else { return }   // none: nothing to take in
/// var adoption = SyncAdoption(adopted, own: try counter())
/// while let step = adoption.nextStep() {
///     switch step {
///     case .moveOwnVersions(let offset): …   // every row's and answer's version + offset
///     case .setCounter(let counter): …
///     case .setHistory(let server, let epochs, let isRestored): …
///     case .forgetDigests: …
///     case .takeChunk(let position):
///         let chunk = try earlier.chunk(position)
///         // save chunk.rows, record chunk.answers
///         adoption.took(chunk)
///     case .dropEarlierStore: try earlier.drop()
///     }
/// }
/// ```
public struct SyncAdoption: Sendable {
    public enum Step: Sendable, Equatable {
        /// Adds `offset` to the version of every row and answer the store
        /// has (its own, of before the adoption), each row's version
        /// unique at every step.
        case moveOwnVersions(by: Int64)
        /// Sets the counter and its floor.
        case setCounter(SyncCounter)
        /// Makes `server` the database's identity and `epochs` (oldest
        /// first) its history's, in place of the store's own; a restored
        /// database (`isRestored`) begins a new epoch when the store
        /// opens, as the store's own restored databases do.
        case setHistory(server: UUID, epochs: [SyncEpoch], isRestored: Bool)
        /// Deletes the digests the store keeps.
        case forgetDigests
        /// Reads the earlier store's chunk at `after` (its first when nil),
        /// saves its rows and records its answers, then hands it to
        /// ``SyncAdoption/took(_:)``.
        case takeChunk(after: SyncAdoptedChunk.Position?)
        /// Drops the earlier store's tables.
        case dropEarlierStore
    }

    /// The steps to come, in order. A ``Step/takeChunk(after:)`` stays
    /// first until its chunk is taken.
    private var steps: [Step]

    /// The adoption of `adopted` by a store whose counter is `own`.
    public init(_ adopted: SyncAdoptedHistory, own: SyncCounter) {
        let offset = adopted.counter.value
        // The store's own floor moves with its rows, if it purged any
        // (a floor of 0 purged nothing, and would refuse every adopted
        // cursor once moved).
        let floor = max(adopted.counter.floor, own.floor > 0 ? own.floor + offset : 0)
        steps = [
            .setCounter(SyncCounter(value: own.value + offset, floor: floor)),
            .setHistory(server: adopted.server, epochs: adopted.epochs, isRestored: adopted.isRestored),
            .forgetDigests,
            .takeChunk(after: nil),
        ]
        if own.value > 0 { steps.insert(.moveOwnVersions(by: offset), at: 0) }
    }

    /// What to do next; nil once the earlier store is taken in.
    public mutating func nextStep() -> Step? {
        guard let step = steps.first else { return nil }
        if case .takeChunk = step { return step }
        steps.removeFirst()
        return step
    }

    /// The chunk of the last ``Step/takeChunk(after:)``, once its rows are
    /// saved and its answers recorded.
    public mutating func took(_ chunk: SyncAdoptedChunk) {
        guard case .takeChunk = steps.first else { preconditionFailure("no chunk was asked for") }
        steps[0] = chunk.next.map { .takeChunk(after: $0) } ?? .dropEarlierStore
    }
}
