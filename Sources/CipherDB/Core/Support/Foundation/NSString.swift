import Foundation

/// Stored and decoded as `String` is: TEXT, decoded from text and blobs.
///
/// ```swift
/// try db.execute(sql: "INSERT INTO player (name) VALUES (?)", arguments: [NSString(string: "Arthur")])
/// let name = try NSString.fetchOne(db, sql: "SELECT name FROM player")
/// ```
extension NSString: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue {
        (self as String).databaseValue
    }

    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Self? {
        String.fromDatabaseValue(dbValue).map { self.init(string: $0) }
    }
}
