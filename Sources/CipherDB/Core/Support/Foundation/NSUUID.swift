import Foundation

/// Stored and decoded as `UUID` is: a 16-byte BLOB, decoded from such
/// blobs and from the 36-character text form.
///
/// ```swift
/// try db.execute(sql: "INSERT INTO device (id) VALUES (?)", arguments: [NSUUID()])
/// let id = try NSUUID.fetchOne(db, sql: "SELECT id FROM device")
/// ```
extension NSUUID: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue {
        (self as UUID).databaseValue
    }

    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Self? {
        UUID.fromDatabaseValue(dbValue).flatMap { $0 as? Self }
    }
}
