import CipherDB
import Foundation
import Players
import PlayersShared

extension DatabaseFileOperations {
    /// A snapshot of all players as JSON (``jsonExport(_:destinationKey:progress:)``),
    /// written to a private temporary file, synced, read back (the same
    /// bytes), then renamed into place.
    public static func exportJSON(
        _ source: AppDatabase,
        to destination: URL,
        destinationKey: DatabaseKeySource?,
        replacing: Bool = false,
        progress: Progress? = nil) throws
    {
        try checkDestination(destination, replacing: replacing, protecting: databaseFiles(of: source.reader))
        // Writing and syncing the file: the last 5%.
        let content = try jsonExport(source, destinationKey: destinationKey) { progress?($0 * 0.95) }
        try writeVerified(to: destination, contents: content) { temporary in
            guard try Data(contentsOf: temporary) == content else {
                throw PlayersFileError.exportDoesNotReadBack
            }
        }
        progress?(1)
    }

    /// A snapshot of all players as JSON, encrypted with `destinationKey`
    /// (see ``EncryptedFile``) unless it is `.plaintext`: what
    /// ``exportJSON(_:to:destinationKey:replacing:progress:)`` writes, and
    /// `players export --format json -` prints. Checked before it is
    /// returned: decrypted and decoded, it holds the same players.
    ///
    /// `progress` follows the players: read (the first 30%), then encoded
    /// (up to 60%); encrypting (5%) and decoding them back take the rest.
    public static func jsonExport(_ source: AppDatabase, destinationKey: DatabaseKeySource?, progress: Progress? = nil) throws -> Data {
        let payload = try source.snapshotPayload { read, total in
            progress?(0.3 * Double(read) / Double(max(total, 1)))
        }
        let json = try prettyJSON(payload) { progress?(0.3 + 0.3 * $0) }
        let content = try destinationKey.map { try EncryptedFile.seal(json, key: $0) } ?? json
        progress?(0.65)
        let readBack = try destinationKey.map { try EncryptedFile.open(content, key: $0) } ?? content
        guard (try? PlayersPayload.decode(readBack)) == payload else {
            throw PlayersFileError.exportDoesNotDecode
        }
        progress?(1)
        return content
    }

    /// The JSON of `payload`, pretty-printed, byte for byte what
    /// `payload.jsonData(prettyPrinted: true)` makes, but with its players
    /// encoded a thousand at a time, so that `progress` (from 0 to 1)
    /// follows them: the rest of the message is encoded once without
    /// players, and they are put into its empty array.
    static func prettyJSON(_ payload: PlayersPayload, progress: (Double) -> Void) throws -> Data {
        var withoutPlayers = payload
        withoutPlayers.players = []
        let skeleton = try withoutPlayers.jsonData(prettyPrinted: true)
        guard !payload.players.isEmpty,
              let arrayStart = skeleton.range(of: Data(#""players" : ["#.utf8))?.upperBound,
              let arrayEnd = skeleton[arrayStart...].firstIndex(of: UInt8(ascii: "]")) else {
            return try payload.jsonData(prettyPrinted: true)
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        var json = Data(skeleton[..<arrayStart])
        let newline = UInt8(ascii: "\n")
        for start in stride(from: 0, to: payload.players.count, by: 1000) {
            let end = min(start + 1000, payload.players.count)
            // "[\n  {\n    …\n  },\n  {\n…\n  }\n]": the players one level
            // deeper in the message, two more spaces on each line.
            let chunk = try encoder.encode(Array(payload.players[start..<end])).dropFirst(2).dropLast(2)
            json.append(contentsOf: start == 0 ? [newline] : [UInt8(ascii: ","), newline])
            json.append(contentsOf: "  ".utf8)
            chunk.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) in
                var offset = 0
                while offset < bytes.count {
                    // memchr: a line at a time, not a byte at a time.
                    let rest = UnsafeRawBufferPointer(rebasing: bytes[offset...])
                    let found: UnsafeMutableRawPointer? = memchr(rest.baseAddress!, Int32(newline), rest.count)
                    let lineLength = found.map { rest.baseAddress!.distance(to: UnsafeRawPointer($0)) + 1 } ?? rest.count
                    json.append(contentsOf: UnsafeRawBufferPointer(rebasing: rest[..<lineLength]))
                    if found != nil { json.append(contentsOf: "  ".utf8) }
                    offset += lineLength
                }
            }
            progress(Double(end) / Double(payload.players.count))
        }
        json.append(newline)
        json.append(contentsOf: "  ".utf8)
        json.append(skeleton[arrayEnd...])
        return json
    }
}
