import CipherDB
import Foundation
import SyncEngine
import SyncSchema

/// A local change of a player that lost to the server's: the server's
/// state won (so that every client converges), and the local value is
/// kept in the sync engine's conflict log (``SyncEngine/SyncConflict``)
/// until `players conflicts resolve` turns it into a new change or drops
/// it (Docs/Sync.md).
///
/// ```swift
/// for conflict in try appDatabase.conflicts() {
///     print(conflict.localScore ?? "deleted", conflict.serverScore ?? "deleted")
/// }
/// ```
public struct PlayerConflict: Equatable, Sendable {
    public var id: Int64
    public var playerUUID: UUID
    /// The local value that lost; nil name and score: the local change
    /// deleted the player.
    public var localName: String?
    public var localScore: Int?
    /// The server's value that won; nil name and score: the server deleted
    /// the player.
    public var serverName: String?
    public var serverScore: Int?
    public var serverVersion: Int64?
    /// When the local change was made.
    public var changedAt: Date
    /// When the sync found the conflict.
    public var detectedAt: Date
    /// Why the server refused the change (``SyncEngine/SyncConflict/refusal``);
    /// nil for a change that lost to another.
    public var refusal: String?

    /// The conflict of a player that the engine logged. The log keeps the
    /// local values that differed from the server's: the others were the
    /// server's.
    public init(_ conflict: SyncConflict) {
        id = conflict.id
        playerUUID = conflict.rowID
        func name(_ values: [String: SyncJSONScalar]?) -> String? {
            if case .string(let name)? = values?["name"] { return name }
            return nil
        }
        func score(_ values: [String: SyncJSONScalar]?) -> Int? {
            if case .integer(let score)? = values?["score"] { return Int(exactly: score) }
            return nil
        }
        serverName = name(conflict.serverValues)
        serverScore = score(conflict.serverValues)
        if conflict.localValues != nil {
            localName = name(conflict.localValues) ?? serverName
            localScore = score(conflict.localValues) ?? serverScore
        }
        serverVersion = conflict.serverVersion
        changedAt = conflict.changedAt
        detectedAt = conflict.detectedAt
        refusal = conflict.refusal
    }

    /// Whether the local change deleted the player.
    public var localIsDeletion: Bool { localName == nil }
    /// Whether the server deleted the player.
    public var serverIsDeletion: Bool { serverName == nil }
}
