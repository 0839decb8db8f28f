import CipherSync
import Foundation
import PlayersProtocol

extension PlayersPayload: SyncMessage {
    /// Decodes a page that a server sent, and checks it
    /// (``PlayersPayload/validate()``). Throws ``SyncPayloadError`` naming
    /// the first bad element by its JSON path.
    public static func decodePage(_ data: Data) throws -> PlayersPayload {
        do throws(PlayersPayloadError) {
            let payload = try decode(data)
            try payload.validate()
            return payload
        } catch {
            throw SyncPayloadError(path: error.path, error.message)
        }
    }

    public var isSnapshot: Bool { kind == .snapshot }
    public var isComplete: Bool { complete }

    public static func position(ofCursor cursor: String) throws(SyncPayloadError) -> Int64? {
        do throws(PlayersPayloadError) {
            return try cursorPosition(cursor)
        } catch {
            throw SyncPayloadError(path: error.path, error.message)
        }
    }

    public func checkVersions(above lower: Int64?, atMost upper: Int64) throws(SyncPayloadError) {
        do throws(PlayersPayloadError) {
            try validateVersions(above: lower, atMost: upper)
        } catch {
            throw SyncPayloadError(path: error.path, error.message)
        }
    }
}
