import Foundation

/// How `Decodable` records decode `Data` properties, column by column
/// (see ``FetchableRecord/databaseDataDecodingStrategy(for:)``).
public enum DatabaseDataDecodingStrategy: Sendable {
    /// The conversion of ``Data``: blobs, and the bytes of text (default).
    case deferredToData
    /// A custom conversion.
    case custom(@Sendable (DatabaseValue) -> Data?)

    /// The data of a non-NULL value, or nil if the value does not convert.
    func decode(_ dbValue: DatabaseValue) -> Data? {
        switch self {
        case .deferredToData: return Data.fromDatabaseValue(dbValue)
        case .custom(let decode): return decode(dbValue)
        }
    }
}

/// How `Encodable` records encode `Data` properties, column by column
/// (see ``EncodableRecord/databaseDataEncodingStrategy(for:)``).
public enum DatabaseDataEncodingStrategy: Sendable {
    /// A blob (default).
    case deferredToData
    /// UTF-8 text; data that is not UTF-8 fails to encode.
    case text
    /// A custom conversion.
    case custom(@Sendable (Data) -> (any DatabaseValueConvertible)?)

    func encode(_ data: Data) throws -> DatabaseValue {
        switch self {
        case .deferredToData:
            return data.databaseValue
        case .text:
            guard let string = String(data: data, encoding: .utf8) else {
                throw EncodingError.invalidValue(data, EncodingError.Context(
                    codingPath: [], debugDescription: "Non-UTF8 data can't be encoded as text in the database"))
            }
            return string.databaseValue
        case .custom(let encode):
            return encode(data)?.databaseValue ?? .null
        }
    }
}

/// How `Decodable` records decode `Date` properties, column by column
/// (see ``FetchableRecord/databaseDateDecodingStrategy(for:)``).
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
    /// ISO 8601 text with a time zone: `2001-01-01T00:00:00Z`.
    case iso8601
    /// Text in the format of the formatter.
    case formatted(DateFormatter)
    /// A custom conversion.
    case custom(@Sendable (DatabaseValue) -> Date?)

    /// The date of a value, or nil if the value does not convert.
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
            return String.fromDatabaseValue(dbValue).flatMap { iso8601Formatter.date(from: $0) }
        case .formatted(let formatter):
            return String.fromDatabaseValue(dbValue).flatMap { formatter.date(from: $0) }
        case .custom(let decode):
            return decode(dbValue)
        }
    }
}

/// How `Encodable` records encode `Date` properties, column by column
/// (see ``EncodableRecord/databaseDateEncodingStrategy(for:)``).
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
    /// ISO 8601 text with a time zone: `2001-01-01T00:00:00Z`.
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
            return Self.wholeNumber(date.timeIntervalSince1970.rounded(.down))
        case .millisecondsSince1970:
            return Self.wholeNumber((date.timeIntervalSince1970 * 1000).rounded(.down))
        case .iso8601:
            return iso8601Formatter.string(from: date).databaseValue
        case .formatted(let formatter):
            return formatter.string(from: date).databaseValue
        case .custom(let encode):
            return encode(date)?.databaseValue ?? .null
        }
    }
}

extension DatabaseDateEncodingStrategy {
    /// An integer, or a REAL when the number does not fit in an Int64 (a
    /// date far from 1970): converting it would trap.
    static func wholeNumber(_ value: Double) -> DatabaseValue {
        Int64(exactly: value)?.databaseValue ?? value.databaseValue
    }
}

/// Shared: a formatter is costly to create. `ISO8601DateFormatter` is
/// thread-safe for formatting and parsing once configured.
nonisolated(unsafe) private let iso8601Formatter: ISO8601DateFormatter = {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = .withInternetDateTime
    return formatter
}()

/// How `Encodable` records encode `UUID` properties, column by column
/// (see ``EncodableRecord/databaseUUIDEncodingStrategy(for:)``).
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

    /// The key that the column decodes, if `Key` has it.
    func key<Key: CodingKey>(forColumn column: String) -> Key? {
        switch self {
        case .useDefaultKeys: return Key(stringValue: column)
        case .convertFromSnakeCase: return Key(stringValue: camelCased(column))
        case .custom(let codingKey): return Key(stringValue: codingKey(column).stringValue)
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

/// `score_count` → `scoreCount`, `_id` → `_id`: each underscore between
/// words is removed and the next word capitalized; leading and trailing
/// underscores are kept.
func camelCased(_ column: String) -> String {
    guard let first = column.firstIndex(where: { $0 != "_" }) else { return column }
    let last = column.lastIndex(where: { $0 != "_" })!
    let words = column[first...last].split(separator: "_", omittingEmptySubsequences: true)
    guard words.count > 1 else { return column }
    let body = words[0].lowercased() + words.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst().lowercased() }.joined()
    return String(column[..<first]) + body + String(column[column.index(after: last)...])
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

// MARK: - User info

/// The user info of records, for a JSON coder, which wants `Sendable`
/// values.
///
/// GRDB's API gives user info as `[CodingUserInfoKey: Any]`, and Swift
/// cannot prove an `Any` `Sendable`. The JSON coders that receive them are
/// made for the encoding or decoding of one column, on the current
/// thread, and never shared: the values do not cross threads. `any
/// Sendable` is laid out as `Any` (a marker protocol adds no witness
/// table), so each value is read back as it is.
func sendableUserInfo(_ userInfo: [CodingUserInfoKey: Any]) -> [CodingUserInfoKey: any Sendable] {
    userInfo.mapValues { value in
        withUnsafePointer(to: value) { UnsafeRawPointer($0).load(as: (any Sendable).self) }
    }
}
