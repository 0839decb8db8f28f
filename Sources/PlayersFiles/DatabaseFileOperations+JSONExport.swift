import CipherDB
import Foundation
import Players
import PlayersProtocol

extension DatabaseFileOperations {
    /// A snapshot of all players as JSON (``jsonExport(_:destinationKey:)``),
    /// written to a private temporary file, synced, read back (the same
    /// bytes), then renamed into place.
    public static func exportJSON(
        _ source: AppDatabase,
        to destination: URL,
        destinationKey: DatabaseKeySource?,
        replacing: Bool = false) throws
    {
        try checkDestination(destination, replacing: replacing, protecting: databaseFiles(of: source.reader))
        let content = try jsonExport(source, destinationKey: destinationKey)
        try writeVerified(to: destination, contents: content) { temporary in
            guard try Data(contentsOf: temporary) == content else {
                throw DatabaseFileError("the export does not read back as written: it was deleted")
            }
        }
    }

    /// A snapshot of all players as JSON, encrypted with `destinationKey`
    /// (see ``EncryptedFile``) unless it is `.plaintext`: what
    /// ``exportJSON(_:to:destinationKey:replacing:)`` writes, and
    /// `players export --format json -` prints. Checked before it is
    /// returned: decrypted and decoded, it holds the same players.
    public static func jsonExport(_ source: AppDatabase, destinationKey: DatabaseKeySource?) throws -> Data {
        let payload = try source.snapshotPayload()
        let json = try payload.jsonData(prettyPrinted: true)
        let content = try destinationKey.map { try EncryptedFile.seal(json, key: $0) } ?? json
        let readBack = try destinationKey.map { try EncryptedFile.open(content, key: $0) } ?? content
        guard (try? PlayersPayload.decode(readBack)) == payload else {
            throw DatabaseFileError("the export does not decode back to the players it holds: nothing was written")
        }
        return content
    }
}
