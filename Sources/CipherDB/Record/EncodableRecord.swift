import Foundation

/// A type that can be encoded into database columns.
///
/// ```swift
/// struct Player: Encodable, EncodableRecord { // encode(to:) comes for free
///     var id: Int64?
///     var name: String
/// }
/// ```
public protocol EncodableRecord {
    /// Writes the column values of the record into the container.
    func encode(to container: inout PersistenceContainer) throws

    /// Options for the encoding of `Encodable` records, given to their
    /// `encode(to:)` methods and to the default JSON encoder.
    static var databaseEncodingUserInfo: [CodingUserInfoKey: Any] { get }

    /// The JSON encoder of the nested `Encodable` values of a column,
    /// stored as JSON text.
    static func databaseJSONEncoder(for column: String) -> JSONEncoder

    /// How `Data` properties are encoded. Default: `.deferredToData` (a blob).
    ///
    /// ```swift
    /// static func databaseDataEncodingStrategy(for column: String) -> DatabaseDataEncodingStrategy {
    ///     .text
    /// }
    /// ```
    static func databaseDataEncodingStrategy(for column: String) -> DatabaseDataEncodingStrategy

    /// How `Date` properties are encoded. Default: `.deferredToDate`.
    ///
    /// ```swift
    /// static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy {
    ///     .timeIntervalSince1970
    /// }
    /// ```
    static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy

    /// How `UUID` properties are encoded. Default: `.deferredToUUID` (16 bytes).
    ///
    /// ```swift
    /// static func databaseUUIDEncodingStrategy(for column: String) -> DatabaseUUIDEncodingStrategy {
    ///     .uppercaseString
    /// }
    /// ```
    static func databaseUUIDEncodingStrategy(for column: String) -> DatabaseUUIDEncodingStrategy

    /// How coding keys map to column names. Default: unchanged.
    static var databaseColumnEncodingStrategy: DatabaseColumnEncodingStrategy { get }
}

extension EncodableRecord {
    public static var databaseEncodingUserInfo: [CodingUserInfoKey: Any] { [:] }

    public static func databaseJSONEncoder(for column: String) -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dataEncodingStrategy = .base64
        encoder.dateEncodingStrategy = .millisecondsSince1970
        encoder.nonConformingFloatEncodingStrategy = .throw
        // Stable JSON, so that unchanged values compare equal.
        encoder.outputFormatting = .sortedKeys
        encoder.userInfo = sendableUserInfo(databaseEncodingUserInfo)
        return encoder
    }

    public static func databaseDataEncodingStrategy(for column: String) -> DatabaseDataEncodingStrategy { .deferredToData }

    public static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy { .deferredToDate }

    public static func databaseUUIDEncodingStrategy(for column: String) -> DatabaseUUIDEncodingStrategy { .deferredToUUID }

    public static var databaseColumnEncodingStrategy: DatabaseColumnEncodingStrategy { .useDefaultKeys }
}

// MARK: - Comparing records

extension EncodableRecord {
    /// The column values of the record.
    ///
    /// ```swift
    /// let values = try player.databaseDictionary // ["id": 1, "name": "Arthur", …]
    /// ```
    public var databaseDictionary: [String: DatabaseValue] {
        get throws {
            let container = try PersistenceContainer(self)
            return Dictionary(zip(container.columns, container.values), uniquingKeysWith: { _, last in last })
        }
    }

    /// Whether the two records have the same column values; false if one
    /// of them fails to encode.
    public func databaseEquals(_ record: Self) -> Bool {
        do {
            return try PersistenceContainer(self).changes(from: PersistenceContainer(record)).isEmpty
        } catch {
            return false
        }
    }

    /// The columns whose values differ from those of `record`, with the
    /// values of `record` (NULL for a column `record` does not have).
    ///
    /// ```swift
    /// let changes = try newPlayer.databaseChanges(from: oldPlayer) // ["score": 100]
    /// ```
    public func databaseChanges(from record: some EncodableRecord) throws -> [String: DatabaseValue] {
        try PersistenceContainer(self).changes(from: PersistenceContainer(record))
    }

    /// Modifies the record, and returns the columns that changed, with
    /// their old values.
    ///
    /// ```swift
    /// let changes = try player.databaseChanges { $0.score = 1000 } // ["score": 100]
    /// ```
    public mutating func databaseChanges(modify: (inout Self) throws -> Void) throws -> [String: DatabaseValue] {
        let old = try PersistenceContainer(self)
        try modify(&self)
        return try PersistenceContainer(self).changes(from: old)
    }
}
