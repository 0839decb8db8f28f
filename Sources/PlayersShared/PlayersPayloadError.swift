import Foundation
import SyncSchema

/// A message that breaks the players protocol: the sync protocol's error,
/// naming the first bad element by its JSON path.
public typealias PlayersPayloadError = SyncMessageError

extension SyncMessageError {
    /// A message of another protocol version than this program reads.
    static func unsupportedVersion(_ version: Int) -> SyncMessageError {
        unsupportedVersion(version, reads: PlayersPayload.currentProtocolVersion)
    }

    /// Decodes a message of the players protocol (``decoding(_:from:protocolVersion:)``).
    static func decoding<Message: Decodable>(_ type: Message.Type, from data: Data) throws(SyncMessageError) -> Message {
        try decoding(type, from: data, protocolVersion: PlayersPayload.currentProtocolVersion)
    }
}
