import Foundation

/// Stored as an INTEGER or a REAL, as the number was made: integers and
/// booleans as integers, floats and doubles as reals. An `NSDecimalNumber`
/// is stored as an integer when it is a whole number in the range of
/// `Int64`, and as a real otherwise.
///
/// Decodes from integers and reals, and from text as `Decimal` does (an
/// `NSDecimalNumber`, with no loss of precision). `NSDecimalNumber`
/// decodes as an `NSDecimalNumber` from all three.
///
/// ```swift
/// try db.execute(sql: "INSERT INTO item (price) VALUES (?)", arguments: [NSDecimalNumber(string: "9.5")])
/// let price = try NSDecimalNumber.fetchOne(db, sql: "SELECT price FROM item")
/// ```
///
/// As with `UInt64`, an unsigned number above `Int64.max` is stored as a
/// real (GRDB stops the program).
extension NSNumber: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue {
        if let decimal = self as? NSDecimalNumber {
            return decimal.decimalValue.exactInt64.map { $0.databaseValue } ?? doubleValue.databaseValue
        }
        switch objCType.pointee {
        case CChar(UInt8(ascii: "c")), CChar(UInt8(ascii: "s")), CChar(UInt8(ascii: "i")),
             CChar(UInt8(ascii: "l")), CChar(UInt8(ascii: "q")):
            return int64Value.databaseValue
        case CChar(UInt8(ascii: "C")), CChar(UInt8(ascii: "S")), CChar(UInt8(ascii: "I")),
             CChar(UInt8(ascii: "L")), CChar(UInt8(ascii: "Q")):
            return uint64Value.databaseValue
        case CChar(UInt8(ascii: "B")):
            return boolValue.databaseValue
        default:
            // "f", "d", and any type Foundation may add: a double loses the
            // least.
            return doubleValue.databaseValue
        }
    }

    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Self? {
        let number: NSNumber
        switch dbValue.storage {
        case .int64(let int64):
            number = self is NSDecimalNumber.Type ? NSDecimalNumber(value: int64) : NSNumber(value: int64)
        case .double(let double):
            number = self is NSDecimalNumber.Type ? NSDecimalNumber(value: double) : NSNumber(value: double)
        case .string:
            guard let decimal = Decimal.fromDatabaseValue(dbValue) else { return nil }
            number = NSDecimalNumber(decimal: decimal)
        case .null, .blob:
            return nil
        }
        return number as? Self
    }
}

extension Decimal {
    /// The value as an `Int64`, if it is a whole number in its range.
    fileprivate var exactInt64: Int64? {
        guard self >= Decimal(Int64.min), self <= Decimal(Int64.max) else { return nil }
        let int64 = NSDecimalNumber(decimal: self).int64Value
        return Decimal(int64) == self ? int64 : nil
    }
}
