import SyncSchema

/// How SQLite keeps the values of a column, from its declared SQL type
/// (<https://sqlite.org/datatype3.html>, "Determination Of Column
/// Affinity"), and whether that keeps a declared column's values as they
/// are: a `TEXT` column keeps `"007"`, a `NUMERIC` one makes it 7.
///
/// ```swift
/// SyncColumnAffinity(declaredType: "VARCHAR(36)").holds(.uuid)   // true
/// SyncColumnAffinity(declaredType: "NUMERIC").holds(.text)       // false
/// ```
enum SyncColumnAffinity: Equatable {
    case integer, text, blob, real, numeric

    init(declaredType: String) {
        let type = declaredType.uppercased()
        if type.contains("INT") {
            self = .integer
        } else if type.contains("CHAR") || type.contains("CLOB") || type.contains("TEXT") {
            self = .text
        } else if type.contains("BLOB") || type.isEmpty {
            self = .blob
        } else if type.contains("REAL") || type.contains("FLOA") || type.contains("DOUB") {
            self = .real
        } else {
            self = .numeric
        }
    }

    /// Whether a column of this affinity keeps every value of `type` as
    /// the engine writes it: text (a `uuid` too) in a text or untyped
    /// column; an integer or a boolean (0 or 1) in a numeric one; a real
    /// in any but a text one.
    func holds(_ type: SyncColumnType) -> Bool {
        switch type {
        case .uuid, .text: self == .text || self == .blob
        case .integer, .boolean: self == .integer || self == .numeric || self == .blob
        case .real: self != .text
        }
    }

    /// The SQL type to give a column of `type`.
    static func sqlType(for type: SyncColumnType) -> String {
        switch type {
        case .uuid, .text: "TEXT"
        case .integer: "INTEGER"
        case .real: "REAL"
        case .boolean: "BOOLEAN"
        }
    }
}
