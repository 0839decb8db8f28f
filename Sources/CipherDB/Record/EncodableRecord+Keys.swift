import Foundation

/// Primary keys of type `Data`, `Date` or `UUID` (or their optionals),
/// which a record may store with an encoding strategy of its own
/// (`databaseUUIDEncodingStrategy`…). `filter(id:)`, `deleteOne(_:id:)`
/// and the other key methods compare the primary key column with what the
/// record stores: a record that stores its UUIDs as strings is found by a
/// string, not by the 16 bytes a UUID gives by default. The nil keys are
/// left out: they identify no row.
enum StrategyEncodedKeys: Sendable {
    case data([Data])
    case date([Date])
    case uuid([UUID])

    /// The keys, or nil when they are of another type, which no strategy
    /// encodes.
    init?<Keys: Collection>(_ keys: Keys) where Keys.Element: DatabaseValueConvertible {
        switch Keys.Element.self {
        case is Data.Type, is Data?.Type: self = .data(keys.compactMap { $0 as? Data })
        case is Date.Type, is Date?.Type: self = .date(keys.compactMap { $0 as? Date })
        case is UUID.Type, is UUID?.Type: self = .uuid(keys.compactMap { $0 as? UUID })
        default: return nil
        }
    }

    var isEmpty: Bool {
        switch self {
        case .data(let keys): keys.isEmpty
        case .date(let keys): keys.isEmpty
        case .uuid(let keys): keys.isEmpty
        }
    }

    /// The keys as `recordType` stores them in `column`.
    func databaseValues(for recordType: any EncodableRecord.Type, column: String) throws -> [DatabaseValue] {
        switch self {
        case .data(let keys):
            let strategy = recordType.databaseDataEncodingStrategy(for: column)
            return try keys.map { try strategy.encode($0) }
        case .date(let keys):
            let strategy = recordType.databaseDateEncodingStrategy(for: column)
            return keys.map { strategy.encode($0) }
        case .uuid(let keys):
            let strategy = recordType.databaseUUIDEncodingStrategy(for: column)
            return keys.map { strategy.encode($0) }
        }
    }
}
