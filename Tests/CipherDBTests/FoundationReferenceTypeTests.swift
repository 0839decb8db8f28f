import CipherDB
import Foundation
import Testing

/// `NSData`, `NSDate`, `NSNumber`, `NSDecimalNumber`, `NSNull`, `NSString`,
/// `NSURL`, `NSUUID` and `CGFloat`, stored as their Swift counterparts.
@Suite struct FoundationReferenceTypeTests {
    /// The value stored in an encrypted database, and read back both by
    /// fetching and by conversion of the database value.
    func roundTrip<T: DatabaseValueConvertible>(_ value: T, _ kind: DatabaseKind) throws -> (stored: DatabaseValue, fetched: T?, converted: T?) {
        let fixture = try DatabaseFixture(kind)
        return try fixture.writer.write { (db) throws in
            try db.execute(sql: "CREATE TABLE t (value)")
            try db.execute(sql: "INSERT INTO t (value) VALUES (?)", arguments: [value])
            let stored = try DatabaseValue.fetchOne(db, sql: "SELECT value FROM t")!
            return (stored, try T.fetchOne(db, sql: "SELECT value FROM t"), T.fromDatabaseValue(stored))
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func nsDataIsStoredAsData(_ kind: DatabaseKind) throws {
        let data = Data("bar".utf8)
        let result = try roundTrip(NSData(data: data), kind)
        #expect(result.stored == data.databaseValue)
        #expect(result.fetched == NSData(data: data))
        #expect(result.converted == NSData(data: data))
        #expect(NSMutableData.fromDatabaseValue("foo".databaseValue) == NSMutableData(data: Data("foo".utf8)))
        #expect(NSData.fromDatabaseValue(1.databaseValue) == nil)
    }

    @Test(arguments: DatabaseKind.allCases)
    func nsDateIsStoredAsDate(_ kind: DatabaseKind) throws {
        let date = Date(timeIntervalSince1970: 1_700_000_000.5)
        let result = try roundTrip(NSDate(timeIntervalSince1970: date.timeIntervalSince1970), kind)
        #expect(result.stored == "2023-11-14 22:13:20.500".databaseValue)
        #expect(result.fetched.map { $0 as Date } == date)
        #expect(result.converted.map { $0 as Date } == date)
        #expect(NSDate.fromDatabaseValue("12:00".databaseValue) == nil)
    }

    @Test(arguments: DatabaseKind.allCases)
    func nsStringIsStoredAsString(_ kind: DatabaseKind) throws {
        let result = try roundTrip(NSString(string: "'fooéı👨👨🏿🇫🇷🇨🇮'"), kind)
        #expect(result.stored == "'fooéı👨👨🏿🇫🇷🇨🇮'".databaseValue)
        #expect(result.fetched == "'fooéı👨👨🏿🇫🇷🇨🇮'")
        #expect(result.converted == "'fooéı👨👨🏿🇫🇷🇨🇮'")
        #expect(NSMutableString.fromDatabaseValue(Data("bar".utf8).databaseValue) == "bar")
        #expect(NSString.fromDatabaseValue(1.databaseValue) == nil)
    }

    @Test(arguments: DatabaseKind.allCases)
    func nsURLIsStoredAsItsAbsoluteString(_ kind: DatabaseKind) throws {
        let url = NSURL(string: "https://example.com/a?b=c")!
        let result = try roundTrip(url, kind)
        #expect(result.stored == "https://example.com/a?b=c".databaseValue)
        #expect(result.fetched == url)
        #expect(result.converted == url)
        #expect(NSURL.fromDatabaseValue(1.databaseValue) == nil)
    }

    @Test(arguments: DatabaseKind.allCases)
    func nsUUIDIsStoredAsUUID(_ kind: DatabaseKind) throws {
        let uuid = UUID(uuidString: "56E7D8D3-E9E4-48B6-968E-8D102833AF00")!
        let result = try roundTrip(uuid as NSUUID, kind)
        #expect(result.stored == uuid.databaseValue)
        #expect(result.fetched == uuid as NSUUID)
        #expect(result.converted == uuid as NSUUID)
        #expect(NSUUID.fromDatabaseValue("56e7d8d3-e9e4-48b6-968e-8d102833af00".databaseValue) == uuid as NSUUID)
        #expect(NSUUID.fromDatabaseValue(Data("abcdefghijklmno".utf8).databaseValue) == nil)
    }

    @Test func nsNullIsNullAndNothingDecodesAsNSNull() throws {
        #expect(NSNull().databaseValue.isNull)
        for value: DatabaseValue in [.null, 1.databaseValue, "foo".databaseValue, Data().databaseValue] {
            #expect(NSNull.fromDatabaseValue(value) == nil)
        }
        let fixture = try DatabaseFixture(.queue)
        let isNull = try fixture.writer.read { (db) throws in
            try Bool.fetchOne(db, sql: "SELECT ? IS NULL", arguments: [NSNull()])
        }
        #expect(isNull == true)
    }

    @Test(arguments: DatabaseKind.allCases)
    func cgFloatIsStoredAsDouble(_ kind: DatabaseKind) throws {
        let result = try roundTrip(CGFloat(1.5), kind)
        #expect(result.stored == 1.5.databaseValue)
        #expect(result.fetched == 1.5)
        #expect(result.converted == 1.5)
        #expect(CGFloat.fromDatabaseValue(2.databaseValue) == 2)
        #expect(CGFloat.fromDatabaseValue("1.5".databaseValue) == nil)
    }

    @Test func nsNumbersOfIntegersAndBooleansAreStoredAsIntegers() {
        let numbers = [NSNumber(value: Int8.min), NSNumber(value: UInt8.max), NSNumber(value: Int32.min),
                       NSNumber(value: UInt32.max), NSNumber(value: Int64.min), NSNumber(value: UInt64(Int64.max)),
                       NSNumber(value: true)]
        let expected: [Int64] = [Int64(Int8.min), Int64(UInt8.max), Int64(Int32.min), Int64(UInt32.max), .min, .max, 1]
        #expect(numbers.map(\.databaseValue) == expected.map(\.databaseValue))
    }

    @Test func nsNumbersOfFloatsAreStoredAsReals() {
        #expect(NSNumber(value: Float(3)).databaseValue.storage == .double(3))
        #expect(NSNumber(value: 10.5).databaseValue.storage == .double(10.5))
    }

    @Test func unsignedNSNumbersAboveInt64MaxAreStoredAsReals() {
        #expect(NSNumber(value: UInt64.max).databaseValue.storage == .double(Double(UInt64.max)))
    }

    @Test func nsDecimalNumbersAreIntegersWhenWholeAndInRange() {
        func isInteger(_ string: String) -> Bool {
            if case .int64 = NSDecimalNumber(string: string).databaseValue.storage { return true }
            return false
        }
        #expect(isInteger("9223372036854775807"))
        #expect(isInteger("-9223372036854775808"))
        #expect(isInteger("1.0"))
        #expect(!isInteger("9223372036854775808"))
        #expect(!isInteger("-9223372036854775809"))
        #expect(!isInteger("1.5"))
        #expect(NSDecimalNumber(string: "1.5").databaseValue.storage == .double(1.5))
    }

    @Test(arguments: DatabaseKind.allCases)
    func nsDecimalNumbersDecodeAsDecimalNumbers(_ kind: DatabaseKind) throws {
        let fixture = try DatabaseFixture(kind)
        try fixture.writer.read { (db) throws in
            for (value, expected) in [(1.databaseValue, "1"), (0.25.databaseValue, "0.25"),
                                      ("18446744073709551615".databaseValue, "18446744073709551615")] {
                let number = NSDecimalNumber(string: expected)
                #expect(try NSDecimalNumber.fetchOne(db, sql: "SELECT ?", arguments: [value]) == number)
                #expect(NSDecimalNumber.fromDatabaseValue(value) == number)
            }
        }
        #expect(NSDecimalNumber.fromDatabaseValue("foo".databaseValue) == nil)
        #expect(NSDecimalNumber.fromDatabaseValue(Data("1".utf8).databaseValue) == nil)
    }

    @Test func nsNumbersDecodeFromNumbersAndFromTextAsDecimalNumbers() {
        #expect(NSNumber.fromDatabaseValue(1.databaseValue) == NSNumber(value: 1))
        #expect(NSNumber.fromDatabaseValue(10.5.databaseValue) == NSNumber(value: 10.5))
        let decimal = NSNumber.fromDatabaseValue("0.25".databaseValue)
        #expect(decimal is NSDecimalNumber)
        #expect(decimal == NSDecimalNumber(string: "0.25"))
        #expect(NSNumber.fromDatabaseValue(.null) == nil)
    }
}
