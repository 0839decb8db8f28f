import Foundation

/// A deleted player on the server.
public struct ServerTombstone: Codable, Equatable, Sendable {
    public var uuid: UUID
    public var version: Int64
    public var deletedAt: Date

    public init(uuid: UUID, version: Int64, deletedAt: Date) {
        self.uuid = uuid
        self.version = version
        self.deletedAt = deletedAt
    }
}
