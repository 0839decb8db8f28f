import Foundation

/// An error of a file operation that any app shares (backups, copies,
/// exports of the database file, secret files, the sync's folder), by case, for callers that tell them apart; each
/// description is one sentence, safe to show (never a key or passphrase).
///
/// ```swift
/// catch DatabaseFileError.inUse(let database) { … }   // another process holds it: try again later
/// ```
public enum DatabaseFileError: Error, Equatable, CustomStringConvertible, Sendable {
    /// A call on a file that failed: `reason` is the system's (strerror).
    case system(FileCall, path: String, reason: String)

    // Destinations and sources.
    case missingFolder(String)
    /// A destination that is a file the command reads.
    case destinationIsInput(destination: String, input: String)
    case destinationExists(String)
    /// A private file to create that exists: it was left alone.
    case fileExists(String)
    case keyFileExists(String)
    case inUse(database: String)
    case emptyStandardInput

    // Secret files (a passphrase, a key, a token).
    case secretReadableByOthers(kind: String, path: String)
    case secretUnreadable(kind: String, path: String)
    case secretEmpty(kind: String, path: String)
    case tokenNotText(String)
    case keyFileMalformed(String)

    // Verified copies.
    case copyFailedIntegrityCheck(String)
    case copyRowsDiffer
    case copyNotEncrypted

    /// A call on a file, named in ``system(_:path:reason:)``'s sentence.
    public enum FileCall: Equatable, Sendable {
        case create, createDatabase, write, writeStream, read, readExport, readSecret(kind: String), openToSync, sync, moveCopy,
             keepPrevious, createSyncFolder, lockSyncFolder
    }

    public var description: String {
        switch self {
        case .system(let call, let path, let reason):
            switch call {
            case .create: "cannot create \(path): \(reason)"
            case .createDatabase: "cannot create the database \(path): \(reason)"
            case .write: "cannot write \(path): \(reason)"
            case .writeStream: "cannot write to \(path) (\(reason)): check where it goes"
            case .read: "cannot read \(path): \(reason)"
            case .readExport: "cannot read the export \(path): \(reason)"
            case .readSecret(let kind): "cannot read the \(kind) file \(path): \(reason)"
            case .openToSync: "cannot open \(path) to sync it: \(reason)"
            case .sync: "cannot sync \(path) to disk: \(reason)"
            case .moveCopy: "cannot move the copy to \(path): \(reason)"
            case .keepPrevious: "cannot keep the current database as \(path) (\(reason)): nothing was restored"
            case .createSyncFolder: "cannot create a folder for the sync in \(path): \(reason)"
            case .lockSyncFolder: "cannot lock the sync's folder in \(path): \(reason)"
            }
        case .missingFolder(let folder): "the folder \(folder) does not exist: create it first"
        case .destinationIsInput(let destination, let input):
            "\(destination) is \(input), which this command reads: choose another destination (nothing was written)"
        case .destinationExists(let path): "\(path) already exists: choose another name, or replace it explicitly"
        case .fileExists(let path): "\(path) already exists: it was left as it is"
        case .keyFileExists(let path): "a key file already exists at \(path): it was left as it is"
        case .inUse(let database): "another process is using \(database): close it and try again (nothing was changed)"
        case .emptyStandardInput: "standard input is empty: pipe or redirect the file into the command"
        case .secretReadableByOthers(let kind, let path):
            "the \(kind) file \(path) can be read by other users: run 'chmod 600 \(path)' and try again"
        case .secretUnreadable(let kind, let path): "cannot read the \(kind) file \(path): check its permissions"
        case .secretEmpty(let kind, let path): "the \(kind) file \(path) is empty: write the \(kind) in it"
        case .tokenNotText(let path): "the token file \(path) is not UTF-8 text: write the token in it as text"
        case .keyFileMalformed(let path): "the key file \(path) must hold 64 hexadecimal digits (a 256-bit key)"
        case .copyFailedIntegrityCheck(let problem): "the copy failed its integrity check (\(problem)): it was deleted"
        case .copyRowsDiffer: "the copy does not hold the same rows as the original: it was deleted"
        case .copyNotEncrypted: "the copy is not encrypted: it was deleted"
        }
    }
}

extension DatabaseFileError {
    /// The error of a failed call on `path`, with the reason in `errno`.
    public static func system(_ call: FileCall, path: String) -> DatabaseFileError {
        .system(call, path: path, reason: String(cString: strerror(errno)))
    }
}
