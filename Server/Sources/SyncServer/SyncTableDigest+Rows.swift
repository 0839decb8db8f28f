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

    /// The columns of a digest as a store keeps them: a JSON array, which
    /// a store compares as text with those of a plan's changes.
    public var storedColumns: String {
        // An array of identifiers (SyncIdentifier: ASCII letters, digits,
        // underscores) needs no escaping.
        "[" + columns.map { "\"\($0)\"" }.joined(separator: ",") + "]"
    }
}

extension SyncTableDigest {
    /// A digest that a store keeps (`sync_server_digest`: its columns as
    /// ``storedColumns``, NULL once another declaration's write left it
    /// not true, and its checksum as a signed integer), as the store gives
    /// it to the declaration `schema`: nil for a table that `schema` does
    /// not declare, or whose digest covers other columns than it declares.
    public init?(kept table: String, columns: String?, rows: Int, checksum: Int64, schema: SyncSchema) {
        guard let declared = schema.table(table) else { return nil }
        self.init(table: table, columns: Self.columns(of: declared), rows: rows, checksum: UInt64(bitPattern: checksum))
        guard columns == storedColumns else { return nil }
    }

    /// The checksum as a store keeps it: a signed 64-bit integer, which
    /// both stores' integer columns hold.
    public var storedChecksum: Int64 {
        Int64(bitPattern: checksum)
    }
}
