import Foundation

/// An error of Players' own file operations (its encrypted JSON exports,
/// the restore of a backup), by case, for callers that tell them apart;
/// each description is one sentence, safe to show (never a key or
/// passphrase). The file operations that every app shares throw
/// ``DatabaseFileError``.
///
/// ```swift
/// catch let error as PlayersFileError where error.isWrongKey { … }   // players: exit code 3
/// ```
public enum PlayersFileError: Error, Equatable, CustomStringConvertible, Sendable {
    // Encrypted exports.
    case exportNeedsPassphrase
    case exportNeedsKeyFile
    case keyDerivationFailed(String)
    case rawKeyLength
    /// The key is wrong, or the file is not an export, or was modified.
    case exportUnreadable
    case encryptionFailed(String)
    case decryptionFailed(String)
    case exportDoesNotReadBack
    /// The export, decrypted again, does not decode to the players it was
    /// written from.
    case exportDoesNotDecode

    // Restores.
    case noBackup(String)
    case backupIsTheDatabase(String)
    /// The backup does not open with the key given (a wrong key).
    case backupUnreadable(String)
    /// The restored database has no `player` table.
    case backupWithoutPlayers
    /// A database from elsewhere holds schema entries that Players'
    /// migrations never create (named in `unknown`).
    case notPlayersSchema(path: String, unknown: [String])
    case restoreFailedPreviousPutBack(String)
    case restoreFailedPreviousKept(String, previous: String)

    /// Whether the key given does not open a file (exit code 3 of `players`).
    public var isWrongKey: Bool {
        if case .backupUnreadable = self { return true }
        return false
    }

    public var description: String {
        switch self {
        case .exportNeedsPassphrase: "the file was encrypted with a passphrase, not a raw key: give the passphrase instead"
        case .exportNeedsKeyFile: "the file was encrypted with a raw key, not a passphrase: give the key file instead"
        case .keyDerivationFailed(let reason): "cannot derive the file's key: \(reason)"
        case .rawKeyLength: "a raw key must be 32 bytes long"
        case .exportUnreadable:
            "the key is wrong, or the file is not an encrypted players export, or it was modified: give the key it was exported with"
        case .encryptionFailed(let reason): "cannot encrypt the file: \(reason)"
        case .decryptionFailed(let reason): "cannot decrypt the file: \(reason)"
        case .exportDoesNotReadBack: "the export does not read back as written: it was deleted"
        case .exportDoesNotDecode: "the export does not decode back to the players it holds: nothing was written"
        case .noBackup(let path): "there is no backup at \(path)"
        case .backupIsTheDatabase(let path): "\(path) is the database itself, not a backup of it: nothing was restored"
        case .backupUnreadable(let path):
            "\(path) does not open with the given key, or is not a players database: nothing was restored; "
                + "give the key it was made with (--from-key-file or --from-passphrase-file)"
        case .backupWithoutPlayers: "the backup holds no players table"
        case .notPlayersSchema(let path, let unknown):
            "\(path) is not a players database: it holds \(unknown.prefix(3).joined(separator: ", "))\(unknown.count > 3 ? "…" : ""), "
                + "which the players schema does not have (it was not used)"
        case .restoreFailedPreviousPutBack(let error): "the restore failed and the previous database was put back: \(error)"
        case .restoreFailedPreviousKept(let error, let previous):
            "the restore failed (\(error)), and the previous database could not be put back: it is in \(previous)"
        }
    }
}
