import Foundation
import SyncSchema

/// What a batch of pushed changes does to a store, planned in memory from
/// the rows it can touch (``SyncChangeReads``): one answer per change, the
/// rows to write, the answers to keep. Every store applies the same rules
/// and only carries out the plan, in the transaction it read the rows in.
///
/// The changes are taken in order. A change whose mutation id was answered
/// before gets that answer again and changes nothing. Any other is decided
/// on the state the earlier changes left, by its table's conflict policy
/// (``SyncBatchState``), and each row it writes takes the next value of
/// the counter.
///
/// ```swift
/// // In the store's writing transaction, which holds the counter:
/// let plan = try SyncChangePlan(changes, schema: schema, rows: reads.rows,
///                               recorded: answersByMutationID, counter: counter, date: Date())
/// // Write plan.rowsToSave (live rows and tombstones, by key), keep
/// // plan.answersToRecord, apply plan.digestChanges, store plan.counter;
/// // answer plan.results.
/// ```
public struct SyncChangePlan: Sendable {
    /// One answer per change, in the order of the batch.
    public let results: [SyncPushResult]
    /// The answers to the changes whose mutation ids were new.
    public let answersToRecord: [SyncRecordedAnswer]
    /// The rows the batch changed, each once in its last state, in the
    /// order they were first written.
    public let rowsToSave: [SyncStoredRow]
    /// The counter after the batch: the last version it gave, or the one
    /// it started from when it wrote nothing.
    public let counter: Int64
    /// What the batch does to the digest of each table it wrote
    /// (``SyncTableDigest``), in table order: the rows it adds (negative
    /// when it deletes more than it creates) and the XOR of the hashes of
    /// the rows' states that left and came, which a store applies to the
    /// digests it keeps (``SyncKeptDigest/applying(_:to:)``).
    public let digestChanges: [SyncTableDigest]
    /// The same changes for each partition of the rows written
    /// (``SyncStoredRow/partition``), in table then partition order: the
    /// digests a user's reads combine (``SyncPartitionDigest``).
    public let partitionDigestChanges: [SyncPartitionDigest]
    /// The grants the written rows give, each written row's key with its
    /// grant (nil: none, or none any more), for the store's grant index.
    public let grants: [(key: SyncRowKey, grant: SyncGrant?)]
    /// The users who gained or lost a membership (``SyncGrant``): their
    /// deltas from before the batch are answered with a snapshot, which
    /// brings the group's rows or takes them off their devices.
    public let usersWithChangedAccess: Set<String>
    /// Whom the batch may concern: the long-polls it wakes.
    public let changeScope: StoreChangeScope

    /// Plans a batch.
    ///
    /// - Parameters:
    ///   - rows: the stored rows the batch can touch, live or deleted
    ///     (``SyncChangeReads/rows``).
    ///   - recorded: the answers already given to the batch's mutation
    ///     ids, by mutation id.
    ///   - keepsAnswers: whether the answers are to be kept (``SyncWrite/keepsAnswers``).
    ///   - rights: the rights of the user who writes (nil: the server, or a
    ///     client of the shared token), read in the batch's transaction.
    ///   - counter: the counter before the batch.
    ///   - date: when the batch is applied (tombstones and answers).
    public init(
        _ changes: [SyncChange],
        schema: SyncSchema,
        rows: [SyncRowKey: SyncStoredRow],
        recorded: [UUID: SyncRecordedAnswer],
        keepsAnswers: Bool = true,
        rights: SyncRights? = nil,
        counter: Int64,
        date: Date
    ) throws(SyncChangeError) {
        var state = SyncBatchState(schema: schema, rows: rows, rights: rights, counter: counter, date: date)
        var recorded = recorded
        var results: [SyncPushResult] = []
        var answersToRecord: [SyncRecordedAnswer] = []
        for change in changes {
            if let answer = recorded[change.mutationID] {
                results.append(try answer.answer(toRetryOf: change))
                continue
            }
            guard let table = schema.table(change.row.table) else { throw .unknownTable(change.row.table) }
            let result = try state.apply(change, in: table)
            // A refusal is the user's rights at the time, never kept: the
            // change sent again is checked again.
            if result.status == .refused {
                results.append(result)
                continue
            }
            // As if recorded at once: a later change with this mutation id
            // gets this answer, as the store would give it.
            let answer = SyncRecordedAnswer(result, to: change, in: table.name, answeredAt: date)
            recorded[change.mutationID] = answer
            results.append(result)
            if keepsAnswers { answersToRecord.append(answer) }
        }
        self.results = results
        self.answersToRecord = answersToRecord
        self.rowsToSave = state.writtenRows
        self.counter = state.version
        (digestChanges, partitionDigestChanges) = Self.digestChanges(from: rows, to: rowsToSave, schema: schema)
        var grants: [(key: SyncRowKey, grant: SyncGrant?)] = []
        var usersWithChangedAccess: Set<String> = []
        var scope = StoreChangeScope()
        for row in rowsToSave {
            // Where the row was, and where it is.
            for state in [rows[row.key], row].compactMap({ $0 }) {
                if let partition = state.partition { scope.partitions.insert(partition) } else { scope.concernsEveryone = true }
            }
            let before = rows[row.key].flatMap(schema.grant(of:))
            let after = schema.grant(of: row)
            guard before != after else { continue }
            grants.append((row.key, after))
            for grant in [before, after].compactMap({ $0 }) {
                scope.users.insert(grant.user)
                if !grant.isOwner { usersWithChangedAccess.insert(grant.user) }
            }
        }
        self.grants = grants
        self.usersWithChangedAccess = usersWithChangedAccess
        changeScope = scope
    }

    /// Each written row's earlier state taken out of its table's digest
    /// and its partition's, and its last one added to its table's and its
    /// partition's (a row that moves leaves one partition and enters
    /// another; a row of no partition is in none): each state hashed once.
    private static func digestChanges(from before: [SyncRowKey: SyncStoredRow], to after: [SyncStoredRow],
                                      schema: SyncSchema) -> (tables: [SyncTableDigest], partitions: [SyncPartitionDigest]) {
        let hasher = SyncRowHasher()
        var tables: [String: SyncTableDigest] = [:]
        var partitions: [String: [String: SyncTableDigest]] = [:]
        for row in after {
            guard let table = schema.table(row.key.table) else { continue }
            // Every table and partition written has its change, if only of
            // tombstones (none of its live rows).
            if tables[table.name] == nil { tables[table.name] = SyncTableDigest(table: table) }
            for (state, rows) in [(before[row.key], -1), (row, 1)] {
                guard let state else { continue }
                if let partition = state.partition, partitions[table.name]?[partition] == nil {
                    partitions[table.name, default: [:]][partition] = SyncTableDigest(table: table)
                }
                guard let values = state.values else { continue }
                let hash = hasher.hash(table, id: state.key.id, version: state.version, values: values)
                tables[table.name]?.toggle(hash, rows: rows)
                if let partition = state.partition { partitions[table.name]?[partition]?.toggle(hash, rows: rows) }
            }
        }
        return (tables.values.sorted { $0.table < $1.table },
                partitions.keys.sorted().flatMap { table in
                    partitions[table]!.sorted { $0.key < $1.key }.map { SyncPartitionDigest(partition: $0.key, digest: $0.value) }
                })
    }
}
