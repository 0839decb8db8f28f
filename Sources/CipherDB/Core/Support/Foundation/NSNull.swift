import Foundation

/// Stored as NULL. Nothing decodes as `NSNull`, not even NULL, as in GRDB:
/// decode an optional to read NULL.
///
/// ```swift
/// try db.execute(sql: "INSERT INTO player (score) VALUES (?)", arguments: [NSNull()])
/// NSNull.fromDatabaseValue(.null)     // nil
/// ```
extension NSNull: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue {
        .null
    }

    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Self? {
        nil
    }
}
