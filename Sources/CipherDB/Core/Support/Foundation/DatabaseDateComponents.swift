import CSQLCipher
import Foundation

/// Date components stored as SQLite date text in a chosen format: a day
/// without a time, a time without a day, or both.
///
/// ```swift
/// let components = DateComponents(year: 2018, month: 12, day: 31)
/// try db.execute(sql: "INSERT INTO event (day) VALUES (?)",
///                arguments: [DatabaseDateComponents(components, format: .YMD)]) // '2018-12-31'
/// let day = try DatabaseDateComponents.fetchOne(db, sql: "SELECT day FROM event")!
/// day.format                  // .YMD
/// day.dateComponents.year     // 2018
/// day.dateComponents.hour     // nil
/// ```
///
/// Decoding accepts the texts that `Date` accepts, and times alone: see
/// ``fromDatabaseValue(_:)``. The components are the ones the text has,
/// and `timeZone` when it ends with `Z` or a `±HH:MM` offset.
///
/// See <https://www.sqlite.org/lang_datefunc.html>.
public struct DatabaseDateComponents: Sendable {
    /// The SQLite formats of date components.
    ///
    /// ```swift
    /// DatabaseDateComponents(components, format: .YMD_HM)   // '2018-12-31 23:59'
    /// DatabaseDateComponents(components, format: .HMSS)     // '23:59:59.999'
    /// ```
    public enum Format: String, Sendable {
        /// `yyyy-MM-dd`.
        case YMD = "yyyy-MM-dd"

        /// `yyyy-MM-dd HH:mm`, which compares as text with SQLite's
        /// `CURRENT_TIMESTAMP`.
        case YMD_HM = "yyyy-MM-dd HH:mm"

        /// `yyyy-MM-dd HH:mm:ss`, which compares as text with SQLite's
        /// `CURRENT_TIMESTAMP`.
        case YMD_HMS = "yyyy-MM-dd HH:mm:ss"

        /// `yyyy-MM-dd HH:mm:ss.SSS`, which compares as text with SQLite's
        /// `CURRENT_TIMESTAMP`.
        case YMD_HMSS = "yyyy-MM-dd HH:mm:ss.SSS"

        /// `HH:mm`.
        case HM = "HH:mm"

        /// `HH:mm:ss`.
        case HMS = "HH:mm:ss"

        /// `HH:mm:ss.SSS`.
        case HMSS = "HH:mm:ss.SSS"

        /// Whether the format has a year, a month and a day: only then is
        /// the text a date.
        var hasYMDComponents: Bool {
            switch self {
            case .YMD, .YMD_HM, .YMD_HMS, .YMD_HMSS: return true
            case .HM, .HMS, .HMSS: return false
            }
        }
    }

    /// The date components.
    ///
    /// ```swift
    /// let time = DatabaseDateComponents.fromDatabaseValue("12:30".databaseValue)!
    /// time.dateComponents.minute  // 30
    /// ```
    public let dateComponents: DateComponents

    /// The format of the components in the database.
    ///
    /// ```swift
    /// let time = DatabaseDateComponents.fromDatabaseValue("12:30".databaseValue)!
    /// time.format                 // .HM
    /// ```
    public let format: Format

    /// Creates date components stored in the given format.
    ///
    /// The format chooses the components that are stored: a missing year
    /// is stored as 0, a missing month or day as 1, a missing time
    /// component as 0.
    ///
    /// ```swift
    /// let components = DateComponents(hour: 9, minute: 30, second: 15)
    /// DatabaseDateComponents(components, format: .HM).databaseValue   // '09:30'
    /// ```
    public init(_ dateComponents: DateComponents, format: Format) {
        self.dateComponents = dateComponents
        self.format = format
    }

    /// The components of parsed date text.
    init(_ fields: DatabaseDateFormat.Fields) {
        var components = DateComponents()
        if fields.format.hasYMDComponents {
            components.year = fields.year
            components.month = fields.month
            components.day = fields.day
        }
        if fields.format != .YMD {
            components.hour = fields.hour
            components.minute = fields.minute
        }
        switch fields.format {
        case .YMD_HMS, .HMS:
            components.second = fields.second
        case .YMD_HMSS, .HMSS:
            components.second = fields.second
            components.nanosecond = fields.nanosecond
        default:
            break
        }
        if let offset = fields.utcOffset {
            components.timeZone = TimeZone(secondsFromGMT: offset)
        }
        self.init(components, format: fields.format)
    }
}

extension DatabaseDateComponents: DatabaseValueConvertible, StatementColumnConvertible {
    /// Parses the text in place, with no intermediate `String`. Values that
    /// are not text are read as SQLite converts them to text.
    @inline(__always)
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        guard let text = sqlite3_column_text(sqliteStatement, index) else { return nil }
        let bytes = UnsafeBufferPointer(start: text, count: Int(sqlite3_column_bytes(sqliteStatement, index)))
        guard let fields = DatabaseDateFormat.fields(from: bytes) else { return nil }
        self.init(fields)
    }

    /// The components as text, in ``format``.
    ///
    /// Milliseconds are the nanoseconds rounded to the nearest millisecond,
    /// as GRDB does, but never above 999: 999.9 milliseconds are `.999`,
    /// where GRDB writes `.1000`, which reads back as 100 milliseconds.
    ///
    /// ```swift
    /// let components = DateComponents(year: 1973, month: 9, day: 18, hour: 10, minute: 11)
    /// DatabaseDateComponents(components, format: .YMD_HMS).databaseValue  // '1973-09-18 10:11:00'
    /// ```
    public var databaseValue: DatabaseValue {
        text.databaseValue
    }

    /// Parses SQLite date text (or a blob of such text), or returns nil for
    /// any other value.
    ///
    /// The accepted texts are `yyyy-MM-dd`, then optionally a space or a
    /// `T` and a time; or a time alone: `HH:mm`, `HH:mm:ss`, or
    /// `HH:mm:ss.SSS` (one or more decimals, of which the first three
    /// count), each optionally followed by `Z` or a `±HH:MM` offset.
    ///
    /// ```swift
    /// let parsed = DatabaseDateComponents.fromDatabaseValue("2018-04-21T10:30Z".databaseValue)!
    /// parsed.format                       // .YMD_HM
    /// parsed.dateComponents.timeZone      // GMT
    /// ```
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> DatabaseDateComponents? {
        guard var string = String.fromDatabaseValue(dbValue) else { return nil }
        return string.withUTF8 { bytes in
            DatabaseDateFormat.fields(from: bytes).map(DatabaseDateComponents.init)
        }
    }
}

extension DatabaseDateComponents {
    /// The components as text, in ``format``.
    var text: String {
        let components = dateComponents
        let hour = components.hour ?? 0
        let minute = components.minute ?? 0
        let second = components.second ?? 0
        let time: String
        switch format {
        case .YMD:
            time = ""
        case .YMD_HM, .HM:
            time = DatabaseDateFormat.timeString(hour: hour, minute: minute)
        case .YMD_HMS, .HMS:
            time = DatabaseDateFormat.timeString(hour: hour, minute: minute, second: second)
        case .YMD_HMSS, .HMSS:
            let millisecond = min(999, Int((Double(components.nanosecond ?? 0) / 1_000_000).rounded()))
            time = DatabaseDateFormat.timeString(hour: hour, minute: minute, second: second, millisecond: millisecond)
        }
        guard format.hasYMDComponents else { return time }
        let day = DatabaseDateFormat.dayString(
            year: components.year ?? 0, month: components.month ?? 1, day: components.day ?? 1)
        return time.isEmpty ? day : day + " " + time
    }
}
