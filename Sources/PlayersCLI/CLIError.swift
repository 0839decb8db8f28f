import CipherDB
import CipherSync
import Foundation
import Players
import PlayersShared
import SyncSchema

/// An error that ends the command: one sentence that says what failed and
/// what to do, and the documented exit code. Descriptions never show a
/// passphrase or key.
struct CLIError: Error, CustomStringConvertible {
    let description: String
    let exitCode: Int32

    /// 1: the operation failed.
    static func failure(_ message: String) -> CLIError { CLIError(description: message, exitCode: ExitStatus.failure) }
    /// 2: the command line is wrong.
    static func usage(_ message: String) -> CLIError { CLIError(description: message, exitCode: ExitStatus.usage) }
    /// 3: the passphrase or key does not open the database.
    static func wrongKey(_ message: String) -> CLIError { CLIError(description: message, exitCode: ExitStatus.wrongKey) }
    /// 4: a verification failed.
    static func verificationFailed(_ message: String) -> CLIError { CLIError(description: message, exitCode: ExitStatus.verificationFailed) }
    /// 5: the server could not be reached, failed, or sent an invalid answer.
    static func remote(_ message: String) -> CLIError { CLIError(description: message, exitCode: ExitStatus.remote) }
    /// 128 + the signal (130 for Ctrl-C, 143 for SIGTERM), as a shell
    /// reports a command that a signal ended.
    static func interrupted(by signal: Int32, _ message: String) -> CLIError {
        CLIError(description: message, exitCode: ExitStatus.interrupted(by: signal))
    }

    /// The same error, with every occurrence of a secret (a token that a
    /// hostile server could echo in its error message) hidden.
    func redacting(_ secret: String?) -> CLIError {
        guard let secret, !secret.isEmpty, description.contains(secret) else { return self }
        return CLIError(description: description.replacingOccurrences(of: secret, with: "<hidden>"), exitCode: exitCode)
    }

    /// The clear sentence for any error thrown by the libraries.
    static func from(_ error: any Error) -> CLIError {
        switch error {
        case let error as CLIError:
            return error
        case let error as AppDatabaseError:
            return error.isWrongKey ? .wrongKey(error.description) : .failure(error.description)
        case let error as DatabaseError:
            switch error.resultCode {
            case .SQLITE_NOTADB:
                return .wrongKey("the passphrase or key is wrong, or the file is not an encrypted players database")
            case .SQLITE_CORRUPT:
                return .verificationFailed("the database file is damaged (\(error.message ?? "malformed")): 'players verify' lists the damage; restore a backup with 'players restore'")
            case .SQLITE_BUSY, .SQLITE_LOCKED:
                return .failure("the database is locked by another process: try again when it is done")
            case .SQLITE_FULL:
                return .failure("the disk is full: free some space and try again (the database was left unchanged)")
            case .SQLITE_IOERR:
                return .failure("a disk read or write failed (\(error.message ?? "I/O error")): check that the disk has free space and works, then try again (the database was left unchanged)")
            case .SQLITE_READONLY, .SQLITE_PERM, .SQLITE_CANTOPEN:
                return .failure("cannot write the database (\(error.message ?? "permission denied")): check the permissions of its folder")
            default:
                return .failure("database error: \(error.message ?? "\(error.resultCode)")")
            }
        case let error as DatabaseMigratorError:
            return .failure(error.message)
        case let error as DatabaseFileError:
            return error.isWrongKey ? .wrongKey(error.description) : .failure(error.description)
        case let error as TransportError:
            return .remote("\(error.description); the database was left unchanged")
        case let error as SyncError where error == .tooLarge:
            return .remote("the server sent more than one sync may hold (\(error.detail ?? "")): check the URL, or give a larger --max-size; the database was left unchanged")
        case let error as SyncError where error == .otherServer:
            return CLIError(description: "\(error.description); if this database should now sync with that server, run "
                + "'players sync --allow-other-server' once: its local changes are pushed there, and its synced players "
                + "replaced by that server's", exitCode: ExitStatus.otherServer)
        case let error as SyncError where error == .requestRefused && error.status == 404:
            // A players-server of a release before the sync engine serves
            // /v1/players alone.
            return .remote("the server has no sync endpoint /v1/sync (HTTP 404): it is a players-server of a release before "
                + "the sync engine, or not a players server; upgrade players-server, or check the URL; the database was left unchanged")
        case let error as SyncError where error == .inconsistentServer:
            return .remote("\(error.description); the server's snapshot was merged")
        case let error as SyncError where error == .deadlineExceeded:
            return .remote("the sync did not finish within its --timeout (\(error.detail ?? "")): try again later, or give a longer --timeout; the database was left unchanged")
        case let error as SyncError:
            return .remote("\(error.description); the database was left unchanged")
        case let error as SyncPayloadError:
            return .remote("\(error.description); check that the URL is a players server of protocol version \(SyncMessages.protocolVersion)")
        default:
            return .failure("\(error)")
        }
    }
}

/// The exit codes of `players`, documented in `players --help` and Docs/CLI.md.
enum ExitStatus {
    static let success: Int32 = 0
    static let failure: Int32 = 1
    static let usage: Int32 = 2
    static let wrongKey: Int32 = 3
    static let verificationFailed: Int32 = 4
    static let remote: Int32 = 5
    /// `sync`: the server holds another database than the one this one
    /// synced with.
    static let otherServer: Int32 = 6
    /// 130 (SIGINT) or 143 (SIGTERM).
    static func interrupted(by signal: Int32) -> Int32 { 128 + signal }
}
