import Foundation

/// Date components decode from a string in one of the formats of
/// ``DatabaseDateComponents/fromDatabaseValue(_:)``.
///
/// ```swift
/// struct Event: Decodable { var day: DatabaseDateComponents }
/// let event = try JSONDecoder().decode(Event.self, from: Data(#"{"day":"2018-12-31"}"#.utf8))
/// event.day.format    // .YMD
/// ```
extension DatabaseDateComponents: Decodable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let string = try container.decode(String.self)
        guard let components = DatabaseDateComponents.fromDatabaseValue(string.databaseValue) else {
            throw DecodingError.dataCorruptedError(
                in: container,
                debugDescription: "Not a date or a time in an SQLite format")
        }
        self = components
    }
}

/// Date components encode as the string they are stored as.
///
/// ```swift
/// struct Event: Encodable { var day: DatabaseDateComponents }
/// let day = DatabaseDateComponents(DateComponents(year: 2018, month: 12, day: 31), format: .YMD)
/// try JSONEncoder().encode(Event(day: day))   // {"day":"2018-12-31"}
/// ```
extension DatabaseDateComponents: Encodable {
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }
}
