import Foundation

/// Stored and decoded as `URL` is: its absolute string.
///
/// ```swift
/// try db.execute(sql: "INSERT INTO link (url) VALUES (?)", arguments: [NSURL(string: "https://example.com")!])
/// let url = try NSURL.fetchOne(db, sql: "SELECT url FROM link")
/// ```
extension NSURL: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue {
        absoluteString.databaseValue
    }

    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Self? {
        URL.fromDatabaseValue(dbValue).flatMap { $0 as? Self }
    }
}
