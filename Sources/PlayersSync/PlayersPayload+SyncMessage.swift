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
            try payload.validateHistory()
            return payload
        } catch {
            throw SyncPayloadError(path: error.path, error.message)
        }
    }

    public var isSnapshot: Bool { kind == .snapshot }
    public var isComplete: Bool { complete }
    public var serverDigest: SyncDigest? { digest.map(SyncDigest.init) }

    public static func position(ofCursor cursor: String) throws(SyncPayloadError) -> SyncCursorPosition? {
        do throws(PlayersPayloadError) {
            let cursor = try PlayersCursor(cursor)
            return SyncCursorPosition(server: cursor.server.uuidString, epoch: cursor.epoch, counter: cursor.counter)
        } catch {
            throw SyncPayloadError(path: error.path, error.message)
        }
    }

    public func sharedCounter(with position: SyncCursorPosition) -> Int64? {
        epochs.flatMap { PlayersEpoch.sharedCounter($0, epoch: position.epoch, counter: position.counter) }
    }

    public func checkVersions(above lower: Int64?, atMost upper: Int64) throws(SyncPayloadError) {
        do throws(PlayersPayloadError) {
            try validateVersions(above: lower, atMost: upper)
        } catch {
            throw SyncPayloadError(path: error.path, error.message)
        }
    }
}
