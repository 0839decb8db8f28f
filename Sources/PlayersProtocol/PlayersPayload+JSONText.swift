import Foundation

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
        var text = JSONText()
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
            text.append(",\"epochs\":[")
            for (index, epoch) in epochs.enumerated() {
                if index > 0 { text.append(",") }
                text.append("{\"epoch\":")
                text.appendString(epoch.epoch)
                text.append(",\"start\":")
                text.appendInteger(epoch.start)
                text.append("}")
            }
            text.append("]")
        }
        text.append(",\"kind\":")
        text.appendString(kind.rawValue)
        if let next {
            text.append(",\"next\":")
            text.appendString(next)
        }
        text.append(",\"players\":[")
        for (index, player) in players.enumerated() {
            if index > 0 { text.append(",") }
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
        text.append("],\"protocolVersion\":")
        text.appendInteger(Int64(protocolVersion))
        text.append(",\"tombstones\":[")
        for (index, tombstone) in tombstones.enumerated() {
            if index > 0 { text.append(",") }
            text.append("{\"uuid\":")
            text.appendString(tombstone.uuid.uuidString)
            text.append(",\"version\":")
            text.appendInteger(tombstone.version)
            text.append("}")
        }
        text.append("]}")
        return text.bytes
    }
}

/// JSON written byte by byte as `JSONEncoder` writes it without escaping
/// slashes: `"` and `\` escaped, the control characters as `\b`, `\f`,
/// `\n`, `\r`, `\t` or `\u00XX`, everything else as it is.
private struct JSONText {
    var bytes: [UInt8] = []

    mutating func append(_ literal: StaticString) {
        literal.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    mutating func appendInteger(_ value: Int64) {
        bytes.append(contentsOf: String(value).utf8)
    }

    mutating func appendString(_ string: String) {
        bytes.append(UInt8(ascii: "\""))
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x08: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
            case 0x0C: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
            case 0x0A: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case 0..<0x20:
                let digits = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                                          digits[Int(byte >> 4)], digits[Int(byte & 0xF)]])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
