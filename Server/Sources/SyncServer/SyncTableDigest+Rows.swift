import Foundation
import SyncSchema

extension SyncTableDigest {
    /// Adds a stored row, if it is alive, to the digest of its table.
    public mutating func add(_ row: SyncStoredRow, in table: SyncTable, hasher: SyncRowHasher) {
        guard let values = row.values else { return }
        toggle(hasher.hash(table, id: row.key.id, version: row.version, values: values))
    }

    /// Takes a stored row, if it is alive, out of the digest of its table.
    public mutating func remove(_ row: SyncStoredRow, in table: SyncTable, hasher: SyncRowHasher) {
        guard let values = row.values else { return }
        toggle(hasher.hash(table, id: row.key.id, version: row.version, values: values), rows: -1)
    }

    /// Applies a change of a digest (``SyncChangePlan/digestChanges``: the
    /// rows it adds, negative when it takes some out, and the XOR of the
    /// hashes that left and came) to the stored digest of the same
    /// columns.
    public mutating func apply(_ change: SyncTableDigest) {
        toggle(change.checksum, rows: change.rows)
    }

    /// The columns of a digest as a store keeps them: a JSON array, which
    /// a store compares as text with those of a plan's changes.
    public var storedColumns: String {
        // An array of identifiers (SyncIdentifier: ASCII letters, digits,
        // underscores) needs no escaping.
        "[" + columns.map { "\"\($0)\"" }.joined(separator: ",") + "]"
    }
}
