import Foundation
import SyncSchema

/// A change between the declaration a store served before and the one it
/// is asked to serve that would lock out the devices of the earlier one:
/// their pushes would be refused whole, and their pulls never come after
/// them. A store refuses to serve such a declaration
/// (``SyncStoreError/declarationLocksOut(_:)``); adding a nullable column,
/// or a table, locks no one out (``lockingOut(from:to:)`` finds nothing).
///
/// ```swift
/// let changes = SyncDeclarationChange.lockingOut(from: served, to: schema)
/// // [.requiredColumnAdded(table: "task", column: "due")]
/// ```
public enum SyncDeclarationChange: Equatable, Sendable, CustomStringConvertible {
    /// Devices that do not know the column send whole rows without it.
    case requiredColumnAdded(table: String, column: String)
    /// Devices that know the column send it, and null where it had none.
    case columnMadeRequired(table: String, column: String)
    /// Devices that know the column send it: the server would refuse it.
    case columnRemoved(table: String, column: String)
    /// Devices send the column's values of the earlier type.
    case columnRetyped(table: String, column: String, from: SyncColumnType, to: SyncColumnType)
    /// The rows stored, and the devices' pushes, are sealed where the
    /// table no longer is, or the other way round.
    case endToEndChanged(table: String, isEndToEnd: Bool)

    /// The changes from `earlier` to `later` that lock out the devices of
    /// `earlier`, table by table in `earlier`'s order. A table that
    /// `later` drops is no such change here: the store refuses one that
    /// holds rows (``SyncStoreError/undeclaredTables(_:)``). A server view
    /// (``SyncSchema/serverView``) is compared as its declaration.
    public static func lockingOut(from earlier: SyncSchema, to later: SyncSchema) -> [SyncDeclarationChange] {
        let earlier = earlier.declaration, later = later.declaration
        var changes: [SyncDeclarationChange] = []
        for table in earlier.tables {
            guard let next = later.table(table.name) else { continue }
            if next.isEndToEnd != table.isEndToEnd {
                changes.append(.endToEndChanged(table: table.name, isEndToEnd: next.isEndToEnd))
                continue
            }
            let before = Dictionary(uniqueKeysWithValues: table.columns.map { ($0.name, $0) })
            for column in table.columns {
                guard let now = next.columns.first(where: { $0.name == column.name }) else {
                    changes.append(.columnRemoved(table: table.name, column: column.name))
                    continue
                }
                if now.type != column.type {
                    changes.append(.columnRetyped(table: table.name, column: column.name, from: column.type, to: now.type))
                } else if now.isRequired && !column.isRequired {
                    changes.append(.columnMadeRequired(table: table.name, column: column.name))
                }
            }
            for column in next.columns where before[column.name] == nil && column.isRequired {
                changes.append(.requiredColumnAdded(table: table.name, column: column.name))
            }
        }
        return changes
    }

    public var description: String {
        switch self {
        case .requiredColumnAdded(let table, let column):
            "it adds the required column \(table).\(column), which the devices that do not know it never send: declare it without \"required\""
        case .columnMadeRequired(let table, let column):
            "it makes the column \(table).\(column) required, where those devices may send null: keep it optional"
        case .columnRemoved(let table, let column):
            "it removes the column \(table).\(column), which those devices still send: keep it declared, and stop writing it"
        case .columnRetyped(let table, let column, let from, let to):
            "it changes the column \(table).\(column) from \(from.rawValue) to \(to.rawValue), which those devices still send as \(from.rawValue): "
                + "declare a new column of type \(to.rawValue) instead"
        case .endToEndChanged(let table, let isEndToEnd):
            "it makes the table \(table) \(isEndToEnd ? "end-to-end" : "no longer end-to-end"), where its stored rows and those devices' "
                + "are \(isEndToEnd ? "not sealed" : "sealed"): declare a new table instead"
        }
    }
}
