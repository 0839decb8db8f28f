import Foundation

/// How `Decodable` records decode `Date` properties.
public enum DatabaseDateDecodingStrategy: @unchecked Sendable {
    // @unchecked: `DateFormatter` is not Sendable, but formatters given
    // here are only read, and are thread-safe for reading on Linux and
    // Apple platforms since iOS 7 / macOS 10.9.

    /// The formats of ``Date``'s own database conversion (default).
    case deferredToDate
    /// A number of seconds since 2001-01-01 00:00:00 UTC.
    case timeIntervalSinceReferenceDate
    /// A number of seconds since 1970-01-01 00:00:00 UTC.
    case timeIntervalSince1970
    /// A number of milliseconds since 1970-01-01 00:00:00 UTC.
    case millisecondsSince1970
    /// ISO 8601 text.
    case iso8601
    /// Text in the format of the formatter.
    case formatted(DateFormatter)
    /// A custom conversion.
    case custom(@Sendable (DatabaseValue) -> Date?)

    func decode(_ dbValue: DatabaseValue) -> Date? {
        switch self {
        case .deferredToDate:
            return Date.fromDatabaseValue(dbValue)
        case .timeIntervalSinceReferenceDate:
            return Double.fromDatabaseValue(dbValue).map { Date(timeIntervalSinceReferenceDate: $0) }
        case .timeIntervalSince1970:
            return Double.fromDatabaseValue(dbValue).map { Date(timeIntervalSince1970: $0) }
        case .millisecondsSince1970:
            return Double.fromDatabaseValue(dbValue).map { Date(timeIntervalSince1970: $0 / 1000) }
        case .iso8601:
            return String.fromDatabaseValue(dbValue).flatMap { ISO8601DateFormatter().date(from: $0) }
        case .formatted(let formatter):
            return String.fromDatabaseValue(dbValue).flatMap { formatter.date(from: $0) }
        case .custom(let decode):
            return decode(dbValue)
        }
    }
}

/// How `Encodable` records encode `Date` properties.
public enum DatabaseDateEncodingStrategy: @unchecked Sendable {
    // @unchecked: see DatabaseDateDecodingStrategy.

    /// ``Date``'s own database conversion: UTC text `yyyy-MM-dd HH:mm:ss.SSS` (default).
    case deferredToDate
    /// A number of seconds since 2001-01-01 00:00:00 UTC.
    case timeIntervalSinceReferenceDate
    /// A number of seconds since 1970-01-01 00:00:00 UTC.
    case timeIntervalSince1970
    /// A whole number of seconds since 1970-01-01 00:00:00 UTC.
    case secondsSince1970
    /// A whole number of milliseconds since 1970-01-01 00:00:00 UTC.
    case millisecondsSince1970
    /// ISO 8601 text.
    case iso8601
    /// Text in the format of the formatter.
    case formatted(DateFormatter)
    /// A custom conversion.
    case custom(@Sendable (Date) -> (any DatabaseValueConvertible)?)

    func encode(_ date: Date) -> DatabaseValue {
        switch self {
        case .deferredToDate:
            return date.databaseValue
        case .timeIntervalSinceReferenceDate:
            return date.timeIntervalSinceReferenceDate.databaseValue
        case .timeIntervalSince1970:
            return date.timeIntervalSince1970.databaseValue
        case .secondsSince1970:
            return Int64(date.timeIntervalSince1970.rounded(.down)).databaseValue
        case .millisecondsSince1970:
            return Int64((date.timeIntervalSince1970 * 1000).rounded(.down)).databaseValue
        case .iso8601:
            return ISO8601DateFormatter().string(from: date).databaseValue
        case .formatted(let formatter):
            return formatter.string(from: date).databaseValue
        case .custom(let encode):
            return encode(date)?.databaseValue ?? .null
        }
    }
}

/// How `Encodable` records encode `UUID` properties.
public enum DatabaseUUIDEncodingStrategy: Sendable {
    /// A 16-byte blob (default).
    case deferredToUUID
    /// Uppercase text: `E621E1F8-C36C-495A-93FC-0C247A3E6E5F`.
    case uppercaseString
    /// Lowercase text: `e621e1f8-c36c-495a-93fc-0c247a3e6e5f`.
    case lowercaseString

    func encode(_ uuid: UUID) -> DatabaseValue {
        switch self {
        case .deferredToUUID: return uuid.databaseValue
        case .uppercaseString: return uuid.text(uppercase: true).databaseValue
        case .lowercaseString: return uuid.text(uppercase: false).databaseValue
        }
    }
}

/// How coding keys map to column names when decoding.
public enum DatabaseColumnDecodingStrategy: Sendable {
    /// Keys are column names (default).
    case useDefaultKeys
    /// `score_count` columns decode `scoreCount` keys.
    case convertFromSnakeCase
    /// A custom mapping from column name to coding key.
    case custom(@Sendable (String) -> any CodingKey)

    /// The index of the column that decodes `key`, if any.
    func columnIndex(for key: some CodingKey, in row: Row) -> Int? {
        switch self {
        case .useDefaultKeys:
            return row.index(forColumn: key.stringValue)
        case .convertFromSnakeCase:
            return row.index(forColumn: snakeCased(key.stringValue))
        case .custom(let codingKey):
            return row.columnNames.firstIndex { codingKey($0).stringValue == key.stringValue }
        }
    }
}

/// How coding keys map to column names when encoding.
public enum DatabaseColumnEncodingStrategy: Sendable {
    /// Keys are column names (default).
    case useDefaultKeys
    /// `scoreCount` keys encode `score_count` columns.
    case convertToSnakeCase
    /// A custom mapping from coding key to column name.
    case custom(@Sendable (any CodingKey) -> String)

    func column(for key: some CodingKey) -> String {
        switch self {
        case .useDefaultKeys: return key.stringValue
        case .convertToSnakeCase: return snakeCased(key.stringValue)
        case .custom(let column): return column(key)
        }
    }
}

/// `scoreCount` → `score_count`, `userID` → `user_id`,
/// `userIDNumber` → `user_id_number`: an underscore starts each word, a word
/// starting at a capital that follows a lowercase letter or a digit, or at
/// the last capital of an acronym followed by a lowercase letter.
func snakeCased(_ key: String) -> String {
    let characters = Array(key)
    var result = ""
    for (index, character) in characters.enumerated() {
        if character.isUppercase && index > 0 {
            let previous = characters[index - 1]
            let nextIsLowercase = index + 1 < characters.count && characters[index + 1].isLowercase
            if previous.isLowercase || previous.isNumber || (previous.isUppercase && nextIsLowercase) {
                result.append("_")
            }
        }
        result += character.lowercased()
    }
    return result
}
