import Foundation

/// Stored as its absolute string.
extension URL: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue {
        absoluteString.databaseValue
    }

    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> URL? {
        String.fromDatabaseValue(dbValue).flatMap { URL(string: $0) }
    }
}
