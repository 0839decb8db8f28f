import AppCommandLine
import Foundation
import Notes

extension CLIError {
    /// `notes`' sentence and status for any error: Notes' own errors
    /// (``NotesError``), then the apps' one map in the words of `notes`.
    static func from(_ error: any Error) -> CLIError {
        switch error {
        case NotesError.wrongKey: return .wrongKey("\(error)")
        case let error as NotesError: return .failure(error.description)
        default: return CLIError(error, wording: notesWording)
        }
    }

    /// What `notes`' sentences say that is its own: it has no option for
    /// a sync's size or time, and no command to verify or restore a file.
    static let notesWording = Wording(database: "a notes database") { _ in
        "the server holds another database than the one this database synced with: nothing was merged; sync a new notes database with it"
    }
}
