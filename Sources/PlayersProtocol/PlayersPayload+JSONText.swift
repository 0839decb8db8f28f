import Foundation
import SyncSchema

extension PlayersPayload {
    /// The message as ``jsonData(prettyPrinted:)`` writes it (sorted keys,
    /// slashes not escaped, the absent ones left out), byte for byte,
    /// without `JSONEncoder`: a server writes a page of a hundred players
    /// for every request, and `JSONEncoder` took a quarter of its time.
    /// `PlayersPayloadTextTests` compares the two on seeded random
    /// messages.
    ///
    /// ```swift
    /// let body = ByteBuffer(bytes: page.jsonBytes())
    /// ```
    public func jsonBytes() -> [UInt8] {
        var text = SyncJSONText()
        text.bytes.reserveCapacity(128 + players.count * 96 + tombstones.count * 64)
        text.append("{\"complete\":")
        text.append(complete ? "true" : "false")
        if let cursor {
            text.append(",\"cursor\":")
            text.appendString(cursor)
        }
        if let digest {
            text.append(",\"digest\":{\"checksum\":")
            text.appendString(digest.checksum)
            text.append(",\"players\":")
            text.appendInteger(Int64(digest.players))
            text.append("}")
        }
        if let epochs {
            text.append(",\"epochs\":")
            text.appendEpochs(epochs)
        }
        text.append(",\"kind\":")
        text.appendString(kind.rawValue)
        if let next {
            text.append(",\"next\":")
            text.appendString(next)
        }
        text.append(",\"players\":")
        text.appendArray(players) { text, player in
            text.append("{\"name\":")
            text.appendString(player.name)
            text.append(",\"score\":")
            text.appendInteger(Int64(player.score))
            text.append(",\"uuid\":")
            text.appendString(player.uuid.uuidString)
            if let version = player.version {
                text.append(",\"version\":")
                text.appendInteger(version)
            }
            text.append("}")
        }
        text.append(",\"protocolVersion\":")
        text.appendInteger(Int64(protocolVersion))
        text.append(",\"tombstones\":")
        text.appendArray(tombstones) { text, tombstone in
            text.append("{\"uuid\":")
            text.appendString(tombstone.uuid.uuidString)
            text.append(",\"version\":")
            text.appendInteger(tombstone.version)
            text.append("}")
        }
        text.append("}")
        return text.bytes
    }
}
