import Foundation

/// Stored and decoded as `Date` is: UTC text `yyyy-MM-dd HH:mm:ss.SSS`.
///
/// ```swift
/// try db.execute(sql: "INSERT INTO event (date) VALUES (?)", arguments: [NSDate()])
/// let date = try NSDate.fetchOne(db, sql: "SELECT date FROM event")
/// ```
extension NSDate: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue {
        (self as Date).databaseValue
    }

    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Self? {
        Date.fromDatabaseValue(dbValue).map { self.init(timeIntervalSinceReferenceDate: $0.timeIntervalSinceReferenceDate) }
    }
}
