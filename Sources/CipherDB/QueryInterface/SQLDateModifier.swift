/// A modifier of SQLite's date functions, for ``julianDay(_:_:)`` and
/// ``dateTime(_:_:)``: each is given to the function as its text, such as
/// `'1 days'` or `'start of month'`.
///
/// ```swift
/// // DATETIME(date, 'start of month', '1 months', '-1 days'): the last day of the month
/// dateTime(Column("date"), .startOfMonth, .month(1), .day(-1))
/// ```
///
/// See <https://www.sqlite.org/lang_datefunc.html>.
public enum SQLDateModifier: SQLSpecificExpressible, Sendable {
    /// Adds seconds: `'1.5 seconds'`.
    case second(Double)

    /// Adds minutes: `'5 minutes'`.
    case minute(Int)

    /// Adds hours: `'-1 hours'`.
    case hour(Int)

    /// Adds days: `'1 days'`.
    case day(Int)

    /// Adds months: `'1 months'`.
    case month(Int)

    /// Adds years: `'1 years'`.
    case year(Int)

    /// Goes back to the start of the day: `'start of day'`.
    case startOfDay

    /// Goes back to the start of the month: `'start of month'`.
    case startOfMonth

    /// Goes back to the start of the year: `'start of year'`.
    case startOfYear

    /// Goes forward to the next day of the week (0 is Sunday), unless the
    /// date is already one: `'weekday 0'`.
    case weekday(Int)

    /// Reads the value as a Unix timestamp: `'unixepoch'`.
    case unixEpoch

    /// Converts from UTC to local time: `'localtime'`.
    case localTime

    /// Converts from local time to UTC: `'utc'`.
    case utc

    /// The modifier's text, as a value.
    ///
    /// ```swift
    /// SQLDateModifier.day(1).sqlExpression    // '1 days'
    /// ```
    public var sqlExpression: SQLExpression {
        text.sqlExpression
    }

    /// The text SQLite reads.
    private var text: String {
        switch self {
        case .second(let value): return "\(value) seconds"
        case .minute(let value): return "\(value) minutes"
        case .hour(let value): return "\(value) hours"
        case .day(let value): return "\(value) days"
        case .month(let value): return "\(value) months"
        case .year(let value): return "\(value) years"
        case .startOfDay: return "start of day"
        case .startOfMonth: return "start of month"
        case .startOfYear: return "start of year"
        case .weekday(let value): return "weekday \(value)"
        case .unixEpoch: return "unixepoch"
        case .localTime: return "localtime"
        case .utc: return "utc"
        }
    }
}
