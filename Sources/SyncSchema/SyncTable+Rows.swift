import Foundation

extension SyncTable {
    /// What a row carries: every column its sender knows (a row created
    /// or sent whole), or only the columns a change touched.
    public enum RowColumns: Sendable {
        /// Every required column, and the optional ones the sender knows.
        case whole
        /// Any of the table's columns: those a change of a table merged
        /// by column touched.
        case changed
    }

    /// A row of this table: each value checked by its column
    /// (``SyncColumn/validated(_:)``, the one check of a value, and stored
    /// as it returns it: trimmed text, for a trimmed column), or the first
    /// thing wrong with it. The columns are checked in the order of the
    /// declaration, so the error is the same whatever the order of the
    /// values.
    ///
    /// ```swift
    /// let row = try notebook.row(id: UUID(), values: ["name": .text("  Work ")])
    /// row.values["name"]   // .text("Work")
    /// ```
    public func row(id: UUID, values: [String: SyncValue], carrying columns: RowColumns = .whole) throws(SyncRowError) -> SyncRow {
        if values[primaryKey] != nil { throw .primaryKeyAmongValues(table: name, column: primaryKey) }
        if let unknown = values.keys.filter({ column($0) == nil }).min() {
            throw .unknownColumn(table: name, column: unknown)
        }
        return SyncRow(table: name, id: id, values: try checkedValues(carrying: columns) { values[$0.name] })
    }

    /// Each value column's value, as `value` gives it (nil: the row does
    /// not carry it), checked by its column in the declaration's order
    /// (``SyncColumn/validated(_:)``): the one rule of
    /// ``row(id:values:carrying:)`` and ``row(fromServer:)``.
    func checkedValues(
        carrying columns: RowColumns, _ value: (SyncColumn) -> SyncValue?
    ) throws(SyncRowError) -> [String: SyncValue] {
        let valueColumns = valueColumns
        var checked: [String: SyncValue] = [:]
        checked.reserveCapacity(valueColumns.count)
        for column in valueColumns {
            guard let value = value(column) else {
                if columns == .whole, column.isRequired { throw .missingColumn(table: name, column: column.name) }
                continue
            }
            do {
                checked[column.name] = try column.validated(value)
            } catch {
                throw .invalidValue(table: name, error)
            }
        }
        return checked
    }
}
