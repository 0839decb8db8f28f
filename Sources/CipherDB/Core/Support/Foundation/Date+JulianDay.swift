import Foundation

extension Date {
    /// The milliseconds from the start of the Julian period to Foundation's
    /// reference date, 2001-01-01 00:00:00 UTC (Julian day 2,451,910.5).
    private static let referenceDateJulianMilliseconds: Int64 = 211_845_067_200_000

    /// Creates the date of a [Julian day](https://en.wikipedia.org/wiki/Julian_day),
    /// such as the `JULIANDAY` SQL function returns, or nil for a value that
    /// is not finite or too large.
    ///
    /// As in SQLite, the Julian day is first truncated to milliseconds,
    /// and the calendar is the proleptic Gregorian one.
    ///
    /// ```swift
    /// let julianDay = try Double.fetchOne(db, sql: "SELECT julianday('2013-01-01 00:30')")!
    /// let date = Date(julianDay: julianDay)   // 2013-01-01 00:30 UTC, to the millisecond
    /// ```
    public init?(julianDay: Double) {
        guard let milliseconds = Int64(exactly: (julianDay * 86_400_000).rounded(.towardZero)),
              case (let sinceReference, false) = milliseconds
                .subtractingReportingOverflow(Date.referenceDateJulianMilliseconds)
        else { return nil }
        self.init(timeIntervalSinceReferenceDate: Double(sinceReference) / 1000)
    }
}
