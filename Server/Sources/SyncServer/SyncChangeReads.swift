import Foundation
import SyncSchema

/// The rows a batch of changes can touch, which a store reads before it
/// plans the batch (``SyncChangePlan``): the rule of what to read, written
/// once, that every store follows in its transaction, synchronous or not.
///
/// First the rows the changes name and the rows their references name;
/// then the live children of the rows the batch deletes, and theirs for
/// as long as deletes cascade.
///
/// ```swift
/// var reads = SyncChangeReads(changes, schema: schema)
/// while let request = reads.nextRequest() {
///     switch request {
///     case .rows(let keys): reads.receive(try store.rows(keys))              // live or deleted
///     case .children(let parents): reads.receive(try store.children(of: parents))  // live only
///     }
/// }
/// let plan = try SyncChangePlan(changes, schema: schema, rows: reads.rows, recorded: …, counter: …, date: Date())
/// ```
public struct SyncChangeReads: Sendable {
    public enum Request: Sendable, Equatable {
        /// The rows of these keys, live or deleted, those that exist.
        case rows([SyncRowKey])
        /// The live rows that reference any of these rows, by any column.
        case children(of: [SyncRowKey])
    }

    /// The rows read so far, by key.
    public private(set) var rows: [SyncRowKey: SyncStoredRow] = [:]
    private let schema: SyncSchema
    private var pending: Request?
    /// The rows whose children were asked for, or are to be.
    private var expanded: Set<SyncRowKey> = []
    private var deleted: [SyncRowKey]

    public init(_ changes: [SyncChange], schema: SyncSchema) {
        self.schema = schema
        var keys: [SyncRowKey] = []
        var seen: Set<SyncRowKey> = []
        for change in changes {
            let key = SyncRowKey(table: change.row.table, id: change.row.id)
            if seen.insert(key).inserted { keys.append(key) }
            guard change.operation == .upsert, let table = schema.table(change.row.table) else { continue }
            for reference in SyncStoredRow.references(of: change.row.values, in: table) where seen.insert(reference.parent).inserted {
                keys.append(reference.parent)
            }
        }
        deleted = changes.filter { $0.operation == .delete }.map { SyncRowKey(table: $0.row.table, id: $0.row.id) }
        pending = keys.isEmpty ? nil : .rows(keys)
    }

    /// What to read next; nil once everything is read.
    public mutating func nextRequest() -> Request? {
        if let pending { return pending }
        // The deleted rows that are alive, whose children were not asked for.
        let parents = deleted.filter { rows[$0]?.isLive == true && expanded.insert($0).inserted }
        deleted = []
        guard !parents.isEmpty else { return nil }
        pending = .children(of: parents)
        return pending
    }

    /// The rows that answer the last request.
    public mutating func receive(_ received: [SyncStoredRow]) {
        let request = pending
        pending = nil
        for row in received { rows[row.key] = row }
        guard case .children(let parents) = request else { return }
        // Children that a cascade deletes with their parent: theirs are
        // read next.
        let parentSet = Set(parents)
        deleted = received.filter { row in
            guard let table = schema.table(row.key.table) else { return false }
            return row.references(in: table).contains { parentSet.contains($0.parent) && $0.onDelete == .cascade }
        }.map(\.key)
    }
}
