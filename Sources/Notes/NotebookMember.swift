import CipherDB
import Foundation

/// A notebook shared with a user: on a server that knows its users, the
/// user whose token's `sub` is `member` reads the notebook and its notes,
/// and writes its notes (``NotesSchema``).
public struct NotebookMember: Codable, Equatable, Sendable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "notebook_member"

    public var id: UUID
    public var notebook: UUID
    public var member: String

    public init(id: UUID = UUID(), notebook: UUID, member: String) {
        self.id = id
        self.notebook = notebook
        self.member = member
    }

    public static func databaseUUIDEncodingStrategy(for column: String) -> DatabaseUUIDEncodingStrategy { .uppercaseString }
}
