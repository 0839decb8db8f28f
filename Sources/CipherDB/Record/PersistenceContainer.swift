/// The column values of a record, in the order they were set: what
/// `EncodableRecord.encode(to:)` fills, and what inserts and updates write.
///
/// ```swift
/// func encode(to container: inout PersistenceContainer) {
///     container["id"] = id
///     container["name"] = name
/// }
/// ```
public struct PersistenceContainer: Sendable {
    /// Column names, in the order they were first set.
    private(set) var columns: [String] = []
    /// The values of `columns`, at the same indexes.
    private(set) var values: [DatabaseValue] = []
    /// The `caseFoldedSignature` of `columns`, at the same indexes:
    /// setting a column compares integers before it compares names.
    private var signatures: [UInt64] = []

    public init() {}

    /// The values of a record.
    init(_ record: some EncodableRecord) throws {
        try record.encode(to: &self)
    }

    private static let typicalColumnCount = 16

    /// Whether no column was set.
    public var isEmpty: Bool { columns.isEmpty }

    /// The index of a column, case-insensitively, as SQLite matches them.
    func index(of column: String) -> Int? {
        index(of: column, signature: column.caseFoldedSignature)
    }

    private func index(of column: String, signature: UInt64) -> Int? {
        signatures.indices.first { signatures[$0] == signature && columns[$0].isEqualIgnoringCase(column) }
    }

    /// The value of a column, or nil if it was not set.
    func databaseValue(forColumn column: String) -> DatabaseValue? {
        index(of: column).map { values[$0] }
    }

    /// The value of a column. Setting a column again replaces its value.
    public subscript(_ column: String) -> (any DatabaseValueConvertible)? {
        get { databaseValue(forColumn: column)?.storageValue }
        set { setValue(newValue?.databaseValue ?? .null, forColumn: column) }
    }

    /// The value of a column.
    public subscript(_ column: some ColumnExpression) -> (any DatabaseValueConvertible)? {
        get { self[column.name] }
        set { self[column.name] = newValue }
    }

    mutating func setValue(_ dbValue: DatabaseValue, forColumn column: String) {
        let signature = column.caseFoldedSignature
        if let index = index(of: column, signature: signature) {
            values[index] = dbValue
        } else {
            if columns.isEmpty {
                // Most records fit: one allocation per array, not five.
                columns.reserveCapacity(Self.typicalColumnCount)
                values.reserveCapacity(Self.typicalColumnCount)
                signatures.reserveCapacity(Self.typicalColumnCount)
            }
            columns.append(column)
            values.append(dbValue)
            signatures.append(signature)
        }
    }
}

// MARK: - Changes

extension PersistenceContainer {
    /// The columns whose values differ from those of `old`, with their
    /// values in `old` (NULL for a column `old` does not have).
    func changes(from old: PersistenceContainer) -> [String: DatabaseValue] {
        var changes: [String: DatabaseValue] = [:]
        for (column, value) in zip(columns, values) {
            let oldValue = old.databaseValue(forColumn: column) ?? .null
            if oldValue != value {
                changes[column] = oldValue
            }
        }
        return changes
    }
}

// MARK: - Collection

extension PersistenceContainer: RandomAccessCollection {
    public typealias Index = Int

    public var startIndex: Int { 0 }
    public var endIndex: Int { columns.count }

    /// The column and its value at `position`, in the order columns were
    /// first set.
    public subscript(position: Int) -> (String, DatabaseValue) {
        (columns[position], values[position])
    }
}
