import CipherDB
import Foundation

/// A notebook: a name, and the notes that belong to it.
public struct Notebook: Codable, Equatable, Sendable, FetchableRecord, PersistableRecord {
    public var id: UUID
    public var name: String

    public init(id: UUID = UUID(), name: String) {
        self.id = id
        self.name = name
    }

    /// The engine stores the UUIDs of synced tables as uppercase text.
    public static func databaseUUIDEncodingStrategy(for column: String) -> DatabaseUUIDEncodingStrategy { .uppercaseString }
}
