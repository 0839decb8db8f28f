import Foundation

/// Stored and decoded as `Double` is: a REAL, decoded from integers and
/// reals. On Linux, `CGFloat` comes with Foundation.
///
/// ```swift
/// try db.execute(sql: "INSERT INTO point (x) VALUES (?)", arguments: [CGFloat(1.5)])
/// let x = try CGFloat.fetchOne(db, sql: "SELECT x FROM point")
/// ```
extension CGFloat: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue {
        Double(self).databaseValue
    }

    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> CGFloat? {
        Double.fromDatabaseValue(dbValue).map { CGFloat($0) }
    }
}
