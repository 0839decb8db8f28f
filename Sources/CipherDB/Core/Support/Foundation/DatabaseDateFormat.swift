import Foundation

/// Formats and parses SQLite date strings without `DateFormatter`, which is
/// slow and not thread-safe to share. `Date`, `NSDate` and
/// ``DatabaseDateComponents`` all go through it.
///
/// The accepted texts are GRDB's: `yyyy-MM-dd`, optionally followed by a
/// space or a `T` and a time; or a time alone. A time is `HH:mm`,
/// `HH:mm:ss` or `HH:mm:ss.SSS` (one or more decimals, of which the first
/// three count), optionally followed by `Z` or a `±HH:mm` offset.
///
/// See <https://www.sqlite.org/lang_datefunc.html>.
enum DatabaseDateFormat {
    /// The first and last instants of years 0000 to 9999, in seconds since 1970.
    static let representableRange: ClosedRange<TimeInterval> = -62_167_219_200...253_402_300_799.999

    /// The seconds from 1970-01-01 to 2001-01-01, Foundation's reference date.
    private static let referenceDateSince1970: Int64 = 978_307_200

    /// What a date string says, field by field, as written: the ranges of
    /// the fields are not checked. `format` tells which fields the text has.
    struct Fields {
        var format: DatabaseDateComponents.Format
        var year = 0
        var month = 0
        var day = 0
        var hour = 0
        var minute = 0
        var second = 0
        var nanosecond = 0
        /// Seconds east of UTC, nil when the text has no offset.
        var utcOffset: Int?
    }

    // MARK: - Formatting

    /// The text of a date, or nil outside ``representableRange`` (and for
    /// NaN), where the conversion to milliseconds would overflow or the
    /// year would not have four digits.
    static func string(from date: Date) -> String? {
        guard representableRange.contains(date.timeIntervalSince1970) else { return nil }
        // Milliseconds, rounded down as GRDB does, but a date less than the
        // spacing of doubles below a millisecond counts as it: the double
        // of a date decoded from its text (`…:01.425`) may lie that much
        // below it, and must give that text back, or a date fetched and
        // saved again would lose a millisecond. From the reference date, as
        // Foundation stores dates, with the whole seconds apart: the
        // fraction is then exact.
        let interval = date.timeIntervalSinceReferenceDate
        let seconds = interval.rounded(.down)
        let milliseconds = Int64(((interval - seconds + interval.ulp) * 1000).rounded(.down))
        let totalMilliseconds = (Int64(seconds) + referenceDateSince1970) * 1000 + milliseconds
        let (days, millisecondsOfDay) = floorDivision(totalMilliseconds, 86_400_000)
        let (year, month, day) = civilDate(fromDaysSinceEpoch: days)
        return dayString(year: Int(year), month: Int(month), day: Int(day)) + " " + timeString(
            hour: Int(millisecondsOfDay / 3_600_000),
            minute: Int(millisecondsOfDay / 60_000 % 60),
            second: Int(millisecondsOfDay / 1000 % 60),
            millisecond: Int(millisecondsOfDay % 1000))
    }

    /// `yyyy-MM-dd`, each field zero-padded as `%04d-%02d-%02d` does.
    static func dayString(year: Int, month: Int, day: Int) -> String {
        "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))"
    }

    /// `HH:mm`, `HH:mm:ss` when `second` is given, and `HH:mm:ss.SSS`
    /// when `millisecond` is given too.
    static func timeString(hour: Int, minute: Int, second: Int? = nil, millisecond: Int? = nil) -> String {
        var string = "\(pad(hour, 2)):\(pad(minute, 2))"
        if let second {
            string += ":\(pad(second, 2))"
            if let millisecond {
                string += ".\(pad(millisecond, 3))"
            }
        }
        return string
    }

    // MARK: - Parsing

    /// The date a text denotes, in UTC unless it has an offset, or nil for
    /// a text that is not a date (a time alone is not), or whose fields are
    /// out of range (month 13, hour 24, …).
    ///
    /// The result is the `Date` nearest to the instant of the text, as
    /// Foundation's calendar gives: `12:00:00.004` is 4,000,000 nanoseconds
    /// past noon, give or take the 10 that a `Date` can not tell apart.
    static func date(from bytes: UnsafeBufferPointer<UInt8>) -> Date? {
        guard let fields = fields(from: bytes),
              fields.format.hasYMDComponents,
              (1...12).contains(fields.month), (1...31).contains(fields.day),
              fields.hour < 24, fields.minute < 60, fields.second < 60
        else { return nil }
        let days = Int64(daysSinceEpoch(year: fields.year, month: fields.month, day: fields.day))
        let seconds = days * 86_400
            + Int64(fields.hour * 3600 + fields.minute * 60 + fields.second - (fields.utcOffset ?? 0))
        // From the reference date, as Foundation stores dates: the whole
        // seconds are exact, and the fraction is rounded once.
        return Date(timeIntervalSinceReferenceDate: Double(seconds - referenceDateSince1970)
                    + Double(fields.nanosecond) / 1e9)
    }

    /// The fields of a date or time text, or nil if it is not one.
    static func fields(from bytes: UnsafeBufferPointer<UInt8>) -> Fields? {
        var scanner = Scanner(bytes)
        var fields: Fields
        if bytes.count > 4 && bytes[4] == UInt8(ascii: "-") {
            guard let year = scanner.digits(4), scanner.skip("-"),
                  let month = scanner.digits(2), scanner.skip("-"),
                  let day = scanner.digits(2)
            else { return nil }
            if scanner.isAtEnd {
                return Fields(format: .YMD, year: year, month: month, day: day)
            }
            guard scanner.skip(" ") || scanner.skip("T"), let time = scanTime(&scanner) else { return nil }
            fields = time
            fields.year = year
            fields.month = month
            fields.day = day
            switch time.format {
            case .HM: fields.format = .YMD_HM
            case .HMS: fields.format = .YMD_HMS
            default: fields.format = .YMD_HMSS
            }
        } else {
            guard let time = scanTime(&scanner) else { return nil }
            fields = time
        }
        guard scanner.isAtEnd else { return nil }
        return fields
    }

    /// `HH:mm[:ss[.S…]][Z|±HH:mm]`, with the format of the time.
    private static func scanTime(_ scanner: inout Scanner) -> Fields? {
        guard let hour = scanner.digits(2), scanner.skip(":"), let minute = scanner.digits(2) else { return nil }
        var fields = Fields(format: .HM, hour: hour, minute: minute)
        if scanner.skip(":") {
            guard let second = scanner.digits(2) else { return nil }
            fields.second = second
            fields.format = .HMS
            if scanner.skip(".") {
                // Milliseconds: the first three decimals count, as in GRDB
                // (https://github.com/groue/GRDB.swift/pull/362).
                guard let first = scanner.digit() else { return nil }
                var milliseconds = first * 100
                var scale = 10
                while let digit = scanner.digit() {
                    milliseconds += digit * scale
                    scale /= 10
                }
                fields.nanosecond = milliseconds * 1_000_000
                fields.format = .HMSS
            }
        }
        if scanner.skip("Z") {
            fields.utcOffset = 0
        } else if let sign = scanner.sign() {
            guard let offsetHour = scanner.digits(2), scanner.skip(":"), let offsetMinute = scanner.digits(2)
            else { return nil }
            fields.utcOffset = sign * (offsetHour * 3600 + offsetMinute * 60)
        }
        return fields
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

    // MARK: - Arithmetic

    /// Zero-padded to `width` characters, the sign included, as `%0*d` does.
    private static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(value.magnitude)
        let sign = value < 0 ? "-" : ""
        let zeros = max(0, width - sign.count - digits.count)
        return sign + String(repeating: "0", count: zeros) + digits
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
