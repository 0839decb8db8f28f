import AppFiles
import CipherDB
import CipherSync
import Foundation
import SyncSchema

/// An error that ends a command of an app (`players`, `notes`): one
/// sentence that says what failed and what to do, and the documented exit
/// status. An error of the libraries gets the same status and the same
/// sentence in every app (``init(_:wording:)``), each app adding only what
/// is its own (``Wording``): the name of its database, the options that it
/// has, and its own errors, which it maps before this map. Descriptions
/// never show a passphrase or key.
///
/// ```swift
/// } catch {
///     throw CLIError(error, wording: .init(database: "a notes database", otherServer: { _ in "…" }))
/// }
/// ```
public struct CLIError: Error, CustomStringConvertible {
    public let description: String
    public let exitCode: Int32

    /// 1: the operation failed.
    public static func failure(_ message: String) -> CLIError { CLIError(description: message, exitCode: ExitStatus.failure) }
    /// 2: the command line is wrong.
    public static func usage(_ message: String) -> CLIError { CLIError(description: message, exitCode: ExitStatus.usage) }
    /// 3: the passphrase or key does not open the database.
    public static func wrongKey(_ message: String) -> CLIError { CLIError(description: message, exitCode: ExitStatus.wrongKey) }
    /// 4: a verification failed, or the database file is damaged.
    public static func verificationFailed(_ message: String) -> CLIError {
        CLIError(description: message, exitCode: ExitStatus.verificationFailed)
    }
    /// 5: the server could not be reached, failed, or sent an invalid answer.
    public static func remote(_ message: String) -> CLIError { CLIError(description: message, exitCode: ExitStatus.remote) }
    /// 6: the server holds another database than the one this one synced with.
    public static func otherServer(_ message: String) -> CLIError { CLIError(description: message, exitCode: ExitStatus.otherServer) }
    /// 128 + the signal (130 for Ctrl-C, 143 for SIGTERM), as a shell
    /// reports a command that a signal ended.
    public static func interrupted(by signal: Int32, _ message: String) -> CLIError {
        CLIError(description: message, exitCode: ExitStatus.interrupted(by: signal))
    }

    /// The same error, with every occurrence of `text` replaced: a secret
    /// hidden, a temporary file named for what it stands for.
    public func replacing(_ text: String, with replacement: String) -> CLIError {
        guard !text.isEmpty, description.contains(text) else { return self }
        return CLIError(description: description.replacingOccurrences(of: text, with: replacement), exitCode: exitCode)
    }

    /// The same error, with every occurrence of a secret (a token that a
    /// hostile server could echo in its error message) hidden.
    public func redacting(_ secret: String?) -> CLIError {
        secret.map { replacing($0, with: "<hidden>") } ?? self
    }

    /// The same error, with every occurrence of each secret hidden.
    public func redacting(_ secrets: [String]) -> CLIError {
        secrets.reduce(self) { error, secret in error.redacting(secret) }
    }
}

/// The exit statuses of the apps' command lines, as `players --help`,
/// `notes --help`, Docs/CLI.md and Docs/NotesTutorial.md document them.
public enum ExitStatus {
    public static let success: Int32 = 0
    public static let failure: Int32 = 1
    public static let usage: Int32 = 2
    public static let wrongKey: Int32 = 3
    public static let verificationFailed: Int32 = 4
    public static let remote: Int32 = 5
    /// `sync`: the server holds another database than the one this one
    /// synced with.
    public static let otherServer: Int32 = 6
    /// 130 (SIGINT) or 143 (SIGTERM).
    public static func interrupted(by signal: Int32) -> Int32 { 128 + signal }
}

extension CLIError {
    /// What an app's sentences say that is its own: the rest of each
    /// sentence, and every status, is the map's.
    public struct Wording: Sendable {
        /// What the database is, after "the file is not": `an encrypted
        /// players database`.
        public var database: String
        /// What to do about a damaged database file, when the app has a
        /// way: `'players verify' lists the damage; …`.
        public var damagedFile: String?
        /// The option that raises the most a sync may hold, when the app
        /// has one: `--max-size`.
        public var sizeOption: String?
        /// The option that bounds a sync's time on the network, when the
        /// app has one: `--timeout`.
        public var timeOption: String?
        /// The sentence of a server that holds another database than the
        /// one this one synced with: each app has its own way out (players
        /// names `players sync --allow-other-server`).
        public var otherServer: @Sendable (SyncError) -> String

        public init(
            database: String, damagedFile: String? = nil, sizeOption: String? = nil, timeOption: String? = nil,
            otherServer: @escaping @Sendable (SyncError) -> String
        ) {
            self.database = database
            self.damagedFile = damagedFile
            self.sizeOption = sizeOption
            self.timeOption = timeOption
            self.otherServer = otherServer
        }
    }

    /// The clear sentence and the status of any error that the libraries
    /// throw, in an app's `wording`; an error that is already a
    /// ``CLIError`` is itself.
    public init(_ error: any Error, wording: Wording) {
        let unchanged = "the database was left unchanged"
        switch error {
        case let error as CLIError:
            self = error
        case let error as DatabaseError:
            switch error.resultCode {
            case .SQLITE_NOTADB:
                self = .wrongKey("the passphrase or key is wrong, or the file is not \(wording.database)")
            case .SQLITE_CORRUPT:
                self = .verificationFailed("the database file is damaged (\(error.message ?? "malformed"))"
                    + (wording.damagedFile.map { ": \($0)" } ?? ""))
            case .SQLITE_BUSY, .SQLITE_LOCKED:
                self = .failure("the database is locked by another process: try again when it is done")
            case .SQLITE_FULL:
                self = .failure("the disk is full: free some space and try again (\(unchanged))")
            case .SQLITE_IOERR:
                self = .failure("a disk read or write failed (\(error.message ?? "I/O error")): check that the disk has free space and "
                    + "works, then try again (\(unchanged))")
            case .SQLITE_READONLY, .SQLITE_PERM, .SQLITE_CANTOPEN:
                self = .failure("cannot write the database (\(error.message ?? "permission denied")): check the permissions of its folder")
            default:
                self = .failure("database error: \(error.message ?? "\(error.resultCode)")")
            }
        case let error as DatabaseMigratorError:
            self = .failure(error.message)
        case let error as DatabaseFileError:
            self = .failure(error.description)
        case let error as TransportError:
            self = .remote("\(error.description); \(unchanged)")
        case let error as SyncError where error == .tooLarge:
            let advice = wording.sizeOption.map { "check the URL, or give a larger \($0)" } ?? "check the URL"
            self = .remote("the server sent more than one sync may hold (\(error.detail ?? "")): \(advice); \(unchanged)")
        case let error as SyncError where error == .deadlineExceeded:
            let (limit, advice) = wording.timeOption.map { ($0, "try again later, or give a longer \($0)") } ?? ("deadline", "try again later")
            self = .remote("the sync did not finish within its \(limit) (\(error.detail ?? "")): \(advice); \(unchanged)")
        case let error as SyncError where error == .otherServer:
            self = .otherServer(wording.otherServer(error))
        case let error as SyncError where error == .requestRefused && error.status == 404:
            // A players-server of a release before the sync engine serves
            // /v1/players alone.
            self = .remote("the server has no sync endpoint /v1/sync (HTTP 404): it is a players-server of a release before "
                + "the sync engine, or not a players server; upgrade players-server, or check the URL; \(unchanged)")
        case let error as SyncError where error == .inconsistentServer:
            self = .remote("\(error.description); the server's snapshot was merged")
        case let error as SyncError:
            self = .remote("\(error.description); \(unchanged)")
        case let error as SyncPayloadError:
            self = .remote("\(error.description); check that the URL is a players server of protocol version \(SyncMessages.protocolVersion)")
        default:
            self = .failure("\(error)")
        }
    }
}
