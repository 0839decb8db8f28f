import CSQLCipher
import Foundation

/// Dates are stored as GRDB stores them: UTC text `yyyy-MM-dd HH:mm:ss.SSS`,
/// which sorts and compares as dates do in SQL.
///
/// They decode from that format and its variants (`yyyy-MM-dd`,
/// `yyyy-MM-dd HH:mm`, a `T` separator, seconds with up to 9 decimals,
/// a trailing `Z` or `±HH:MM` offset), and from numbers, read as Unix
/// timestamps.
///
/// A date outside the years 0000 to 9999, which that text cannot hold
/// (SQLite's date functions stop there too), is stored as its Unix
/// timestamp, a REAL that decodes to the same date; a NaN date as NULL.
/// No date traps, whatever its origin.
///
/// See <https://www.sqlite.org/lang_datefunc.html>.
extension Date: DatabaseValueConvertible, StatementColumnConvertible {
    /// Parses the text in place, with no intermediate `String`.
    @inline(__always)
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        switch sqlite3_column_type(sqliteStatement, index) {
        case SQLITE_INTEGER:
            self.init(timeIntervalSince1970: TimeInterval(sqlite3_column_int64(sqliteStatement, index)))
        case SQLITE_FLOAT:
            self.init(timeIntervalSince1970: sqlite3_column_double(sqliteStatement, index))
        case SQLITE_TEXT:
            guard let text = sqlite3_column_text(sqliteStatement, index) else { return nil }
            let bytes = UnsafeBufferPointer(start: text, count: Int(sqlite3_column_bytes(sqliteStatement, index)))
            guard let date = DatabaseDateFormat.date(from: bytes) else { return nil }
            self = date
        default:
            return nil
        }
    }

    public var databaseValue: DatabaseValue {
        guard let string = DatabaseDateFormat.string(from: self) else {
            return timeIntervalSince1970.isNaN ? .null : timeIntervalSince1970.databaseValue
        }
        return DatabaseValue(storage: .string(string))
    }

    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Date? {
        switch dbValue.storage {
        case .int64(let int64): return Date(timeIntervalSince1970: TimeInterval(int64))
        case .double(let double): return Date(timeIntervalSince1970: double)
        case .string(var string): return string.withUTF8 { DatabaseDateFormat.date(from: $0) }
        default: return nil
        }
    }
}

/// Formats and parses SQLite date strings without `DateFormatter`, which is
/// slow and not thread-safe to share.
enum DatabaseDateFormat {
    /// The first and last instants of years 0000 to 9999, in seconds since 1970.
    static let representableRange: ClosedRange<TimeInterval> = -62_167_219_200...253_402_300_799.999

    /// The text of a date, or nil outside ``representableRange`` (and for
    /// NaN), where the conversion to milliseconds would overflow or the
    /// year would not have four digits.
    static func string(from date: Date) -> String? {
        guard representableRange.contains(date.timeIntervalSince1970) else { return nil }
        // Milliseconds, rounded down, as GRDB does.
        let totalMilliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
        let (days, millisecondsOfDay) = floorDivision(totalMilliseconds, 86_400_000)
        let (year, month, day) = civilDate(fromDaysSinceEpoch: days)
        let hour = millisecondsOfDay / 3_600_000
        let minute = millisecondsOfDay / 60_000 % 60
        let second = millisecondsOfDay / 1000 % 60
        let millisecond = millisecondsOfDay % 1000
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2)) \(pad(hour, 2)):\(pad(minute, 2)):\(pad(second, 2)).\(pad(millisecond, 3))"
    }

    static func date(from bytes: UnsafeBufferPointer<UInt8>) -> Date? {
        var scanner = Scanner(bytes)
        guard let year = scanner.digits(4), scanner.skip("-"),
              let month = scanner.digits(2), scanner.skip("-"),
              let day = scanner.digits(2),
              (1...12).contains(month), (1...31).contains(day)
        else { return nil }
        var seconds = Double(daysSinceEpoch(year: year, month: month, day: day)) * 86_400
        if scanner.isAtEnd {
            return Date(timeIntervalSince1970: seconds)
        }
        guard scanner.skip(" ") || scanner.skip("T"),
              let hour = scanner.digits(2), scanner.skip(":"),
              let minute = scanner.digits(2),
              hour < 24, minute < 60
        else { return nil }
        seconds += Double(hour * 3600 + minute * 60)
        if scanner.skip(":") {
            guard let second = scanner.digits(2), second < 60 else { return nil }
            seconds += Double(second)
            if scanner.skip(".") {
                var fraction = 0.0
                var scale = 0.1
                var count = 0
                while let digit = scanner.digit() {
                    fraction += Double(digit) * scale
                    scale /= 10
                    count += 1
                }
                guard count > 0 else { return nil }
                seconds += fraction
            }
        }
        if scanner.skip("Z") {
            // UTC
        } else if let sign = scanner.sign() {
            guard let offsetHour = scanner.digits(2), scanner.skip(":"), let offsetMinute = scanner.digits(2)
            else { return nil }
            seconds -= Double(sign * (offsetHour * 3600 + offsetMinute * 60))
        }
        guard scanner.isAtEnd else { return nil }
        return Date(timeIntervalSince1970: seconds)
    }

    private struct Scanner {
        let bytes: UnsafeBufferPointer<UInt8>
        var position = 0

        init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

        var isAtEnd: Bool { position == bytes.count }

        mutating func skip(_ character: Unicode.Scalar) -> Bool {
            guard position < bytes.count, bytes[position] == UInt8(ascii: character) else { return false }
            position += 1
            return true
        }

        mutating func digit() -> Int? {
            guard position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) else { return nil }
            defer { position += 1 }
            return Int(bytes[position] - UInt8(ascii: "0"))
        }

        mutating func digits(_ count: Int) -> Int? {
            var value = 0
            for _ in 0..<count {
                guard let digit = digit() else { return nil }
                value = value * 10 + digit
            }
            return value
        }

        mutating func sign() -> Int? {
            if skip("+") { return 1 }
            if skip("-") { return -1 }
            return nil
        }
    }

    private static func pad(_ value: some BinaryInteger, _ width: Int) -> String {
        let string = String(value)
        return string.count >= width ? string : String(repeating: "0", count: width - string.count) + string
    }

    private static func floorDivision(_ value: Int64, _ divisor: Int64) -> (Int64, Int64) {
        let quotient = value / divisor
        let remainder = value % divisor
        return remainder < 0 ? (quotient - 1, remainder + divisor) : (quotient, remainder)
    }

    // Howard Hinnant's days_from_civil and civil_from_days, for the
    // proleptic Gregorian calendar SQLite uses.

    private static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    private static func civilDate(fromDaysSinceEpoch days: Int64) -> (Int64, Int64, Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
