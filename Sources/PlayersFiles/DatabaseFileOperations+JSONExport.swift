import CipherDB
import Foundation
import Players
import PlayersProtocol

extension DatabaseFileOperations {
    /// A snapshot of all players as JSON, encrypted with `destinationKey`
    /// (see ``EncryptedFile``) unless it is `.plaintext`. Written to a
    /// private temporary file, synced, verified (decrypted and decoded,
    /// the same players), then renamed into place.
    public static func exportJSON(
        _ source: AppDatabase,
        to destination: URL,
        destinationKey: DatabaseKeySource?,
        replacing: Bool = false) throws
    {
        try checkDestination(destination, replacing: replacing, protecting: databaseFiles(of: source.reader))
        let payload = try source.snapshotPayload()
        let json = try payload.jsonData(prettyPrinted: true)
        let content = try destinationKey.map { try EncryptedFile.seal(json, key: $0) } ?? json
        try writeVerified(to: destination, contents: content) { temporary in
            let written = try Data(contentsOf: temporary)
            let readBack = try destinationKey.map { try EncryptedFile.open(written, key: $0) } ?? written
            guard (try? PlayersPayload.decode(readBack)) == payload else {
                throw DatabaseFileError("the export does not read back as written: it was deleted")
            }
        }
    }
}
