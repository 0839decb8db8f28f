import CipherDB
import Foundation

/// A note of a notebook: a title and an optional body.
public struct Note: Codable, Equatable, Sendable, FetchableRecord, PersistableRecord {
    public var id: UUID
    public var notebook: UUID
    public var title: String
    public var body: String?

    public init(id: UUID = UUID(), notebook: UUID, title: String, body: String? = nil) {
        self.id = id
        self.notebook = notebook
        self.title = title
        self.body = body
    }

    /// The engine stores the UUIDs of synced tables as uppercase text.
    public static func databaseUUIDEncodingStrategy(for column: String) -> DatabaseUUIDEncodingStrategy { .uppercaseString }
}
