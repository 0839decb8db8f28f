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

    /// Options for the encoding of `Encodable` records.
    static var databaseEncodingUserInfo: [CodingUserInfoKey: Any] { get }

    /// The JSON encoder of nested `Encodable` values, stored as JSON text.
    static func databaseJSONEncoder(for column: String) -> JSONEncoder

    /// How `Date` properties are encoded. Default: `.deferredToDate`.
    static var databaseDateEncodingStrategy: DatabaseDateEncodingStrategy { get }

    /// How `UUID` properties are encoded. Default: `.deferredToUUID` (16 bytes).
    static var databaseUUIDEncodingStrategy: DatabaseUUIDEncodingStrategy { get }

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
        return encoder
    }

    public static var databaseDateEncodingStrategy: DatabaseDateEncodingStrategy { .deferredToDate }

    public static var databaseUUIDEncodingStrategy: DatabaseUUIDEncodingStrategy { .deferredToUUID }

    public static var databaseColumnEncodingStrategy: DatabaseColumnEncodingStrategy { .useDefaultKeys }
}

extension EncodableRecord {
    /// The column values of the record.
    public var databaseDictionary: [String: DatabaseValue] {
        get throws {
            let container = try persistenceContainer()
            return Dictionary(zip(container.columns, container.values), uniquingKeysWith: { _, last in last })
        }
    }

    /// The columns whose values differ from those of `record`, with the
    /// values of `record`.
    public func databaseChanges(from record: some EncodableRecord) throws -> [String: DatabaseValue] {
        let container = try persistenceContainer()
        let old = try record.persistenceContainer()
        var changes: [String: DatabaseValue] = [:]
        for (column, value) in zip(container.columns, container.values) where old.databaseValue(forColumn: column) != value {
            changes[column] = old.databaseValue(forColumn: column) ?? .null
        }
        return changes
    }

    /// Whether the two records have the same column values.
    public func databaseEquals(_ record: Self) throws -> Bool {
        try databaseChanges(from: record).isEmpty
    }

    /// The filled container.
    func persistenceContainer() throws -> PersistenceContainer {
        var container = PersistenceContainer()
        try encode(to: &container)
        return container
    }
}
