import AppCommandLine
import CipherSync
import Foundation
import Players
import PlayersFiles

extension CLIError {
    /// `players`' sentence and status for any error: its own errors
    /// (``AppDatabaseError``, ``PlayersFileError``), then the apps' one map in the words
    /// of `players` (its options, its commands for a damaged file).
    static func from(_ error: any Error) -> CLIError {
        if let error = error as? AppDatabaseError {
            return error.isWrongKey ? .wrongKey(error.description) : .failure(error.description)
        }
        if let error = error as? PlayersFileError {
            return error.isWrongKey ? .wrongKey(error.description) : .failure(error.description)
        }
        return CLIError(error, wording: playersWording)
    }

    /// What `players`' sentences say that is its own.
    static let playersWording = Wording(
        database: "an encrypted players database",
        damagedFile: "'players verify' lists the damage; restore a backup with 'players restore'",
        sizeOption: "--max-size", timeOption: "--timeout"
    ) { error in
        "\(error.description); if this database should now sync with that server, run 'players sync --allow-other-server' once: "
            + "its local changes are pushed there, and its synced players replaced by that server's"
    }
}
