import AppCommandLine
import Foundation
import Notes
import SyncEndToEnd
import SyncEngine

extension CLIError {
    /// `notes`' sentence and status for any error: Notes' own errors
    /// (``NotesError``), then the apps' one map in the words of `notes`.
    static func from(_ error: any Error) -> CLIError {
        switch error {
        case NotesError.wrongKey: return .wrongKey("\(error)")
        case let error as NotesError: return .failure(error.description)
        case SyncEndToEndError.noIdentity:
            return .failure("this notes database keeps no identity, which its end-to-end notebooks and notes need (a database of "
                + "the release before them): export it ('notes export'), make a new one with 'notes init --recovery-key-file FILE', "
                + "and import it there ('notes import')")
        case let error as SyncEndToEndError: return .failure(error.description)
        case SyncEngineError.rowBreaksDeclaration(let table, let id, _):
            let fix = switch table {
            case "notebook": "'notes notebook rename \(id.uuidString) NAME' or 'notes notebook delete \(id.uuidString)'"
            case "notebook_member": "'notes notebook unshare NOTEBOOK --with USER' (the share \(id.uuidString))"
            default: "'notes note edit \(id.uuidString) --title …' or 'notes note delete \(id.uuidString)'"
            }
            return .failure("\(error): \(fix)")
        default: return CLIError(error, wording: notesWording)
        }
    }

    /// What `notes`' sentences say that is its own: it has no option for
    /// a sync's size or time, and no command to verify or restore a file.
    static let notesWording = Wording(database: "a notes database") { error in
        "\(error.description); if this database should now sync with that server, run 'notes sync --allow-other-server' once: "
            + "its local changes are pushed there, and its synced rows replaced by that server's"
    }
}
