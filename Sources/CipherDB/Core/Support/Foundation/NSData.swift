import Foundation

/// Stored and decoded as `Data` is: a BLOB, decoded from blobs and text.
///
/// ```swift
/// try db.execute(sql: "INSERT INTO file (content) VALUES (?)", arguments: [NSData(data: content)])
/// let content = try NSData.fetchOne(db, sql: "SELECT content FROM file")
/// ```
extension NSData: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue {
        (self as Data).databaseValue
    }

    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Self? {
        Data.fromDatabaseValue(dbValue).flatMap { $0 as? Self }
    }
}
