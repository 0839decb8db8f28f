import Foundation
import SyncSchema

extension SyncStoredRow {
    /// A stored row as a store's columns hold it, the same in every store:
    /// the values and the column versions as JSON objects (null for a
    /// tombstone), the date of a delete (null for a live row), the owner
    /// and the partition.
    public struct Columns: Sendable, Equatable {
        public var values: String?
        public var columnVersions: String?
        public var deletedAt: Date?
        public var owner: String?
        public var partition: String?

        public init(values: String?, columnVersions: String?, deletedAt: Date?, owner: String? = nil, partition: String? = nil) {
            self.values = values
            self.columnVersions = columnVersions
            self.deletedAt = deletedAt
            self.owner = owner
            self.partition = partition
        }
    }

    /// The row's columns, as a store writes them.
    public func columns() throws -> Columns {
        switch state {
        case .live(let values, let columnVersions):
            Columns(values: SyncStoredJSON.text(values), columnVersions: SyncStoredJSON.text(columnVersions), deletedAt: nil,
                    owner: owner, partition: partition)
        case .deleted(let date):
            Columns(values: nil, columnVersions: nil, deletedAt: date, owner: owner, partition: partition)
        }
    }

    /// A row read back from a store's columns, its values of the table's
    /// columns and types (``SyncTable/storedValues(_:)``: the rules held
    /// when it was written).
    public init(key: SyncRowKey, version: Int64, columns: Columns, table: SyncTable) throws {
        self.key = key
        self.version = version
        owner = columns.owner
        partition = columns.partition
        if let deletedAt = columns.deletedAt {
            state = .deleted(at: deletedAt)
            return
        }
        guard let valuesText = columns.values, let versionsText = columns.columnVersions else {
            throw SyncChangeError.storedRowDamaged(key)
        }
        let scalars = try SyncStoredJSON.scalars(from: valuesText)
        let values: [String: SyncValue]
        do {
            values = try table.storedValues(scalars)
        } catch {
            throw SyncChangeError.storedRowRefused(error)
        }
        state = .live(values: values, columnVersions: try SyncStoredJSON.integers(from: versionsText))
    }
}
