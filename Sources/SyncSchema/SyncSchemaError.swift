/// A declaration that breaks a rule: one sentence that names the table and
/// column, and says what to change.
public enum SyncSchemaError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Not JSON, or not the shape of a declaration, at a JSON path, and at
    /// the line and column where that element begins in the file.
    case malformed(path: String, at: StrictJSON.Location?, reason: String)
    /// A declaration of a format that this program does not read (``SyncSchema/formats``).
    case unsupportedFormat(Int)
    /// A shared table's `writers`: none, an empty one, or one twice.
    case invalidWriters(table: String)
    /// A table's access rule that the declaration's other tables break.
    case invalidAccess(table: String, String)
    /// An end-to-end table that breaks a rule of such tables
    /// (``SyncTable/isEndToEnd``).
    case invalidEndToEnd(table: String, String)
    case invalidName(String, table: String?)
    case reservedName(String, table: String?)
    case noTables
    case duplicateTable(String)
    case duplicateColumn(table: String, column: String)
    case noColumns(table: String)
    case missingPrimaryKey(table: String, column: String)
    case primaryKeyNotARequiredUUID(table: String, column: String)
    case ruleNotForType(table: String, column: String, rule: String, type: SyncColumnType)
    case missingMaximumLength(table: String, column: String)
    case invalidBound(table: String, column: String, String)
    case setNullOnRequiredColumn(table: String, column: String)
    case unknownReferencedTable(table: String, column: String, referenced: String)
    /// Tables that reference each other in a cycle, the first repeated last.
    case referenceCycle([String])

    public var description: String {
        switch self {
        case .malformed(let path, let location, let reason):
            return "the declaration is not valid at \(path)\(location.map { " (\($0))" } ?? ""): \(reason)."
        case .unsupportedFormat(let format):
            return "the declaration is of format \(format); this program reads formats \(SyncSchema.formats.lowerBound) to \(SyncSchema.formats.upperBound)."
        case .invalidWriters(let table):
            return "table \(table) is shared without its writers: name one or more roles, each once, such as \"writers\": [\"editor\"]."
        case .invalidAccess(let table, let reason):
            return "table \(table)'s access is not valid: \(reason)."
        case .invalidEndToEnd(let table, let reason):
            return "table \(table) cannot be end-to-end: \(reason)."
        case .invalidName(let name, let table):
            return "\(Self.place(name, table)) is not a valid name: use 1 to \(SyncIdentifier.maximumLength) lowercase letters, digits and underscores, not starting with a digit."
        case .reservedName(let name, let table):
            return "\(Self.place(name, table)) has a reserved prefix (sqlite_ or sync_): rename it."
        case .duplicateTable(let table):
            return "table \(table) is declared twice."
        case .duplicateColumn(let table, let column):
            return "column \(table).\(column) is declared twice."
        case .noTables:
            return "the declaration has no table: declare the tables the app syncs."
        case .noColumns(let table):
            return "table \(table) has no column."
        case .missingPrimaryKey(let table, let column):
            return "table \(table) has no column \(column), its primary key."
        case .primaryKeyNotARequiredUUID(let table, let column):
            return "the primary key \(table).\(column) must be a required uuid column without a reference."
        case .ruleNotForType(let table, let column, let rule, let type):
            return "column \(table).\(column) is of type \(type.rawValue), which has no \(rule) rule."
        case .missingMaximumLength(let table, let column):
            return "text column \(table).\(column) has no maximumLength: every text column is bounded."
        case .invalidBound(let table, let column, let reason):
            return "column \(table).\(column): \(reason)."
        case .setNullOnRequiredColumn(let table, let column):
            return "column \(table).\(column) is required, so deleting its parent cannot set it to null: use cascade or restrict."
        case .unknownReferencedTable(let table, let column, let referenced):
            return "column \(table).\(column) references table \(referenced), which is not declared."
        case .referenceCycle(let tables):
            return "tables reference each other in a cycle (\(tables.joined(separator: " → "))): no order of inserts keeps every reference valid."
        }
    }

    private static func place(_ name: String, _ table: String?) -> String {
        table.map { "column \($0).\(name)" } ?? "table \(name)"
    }
}
