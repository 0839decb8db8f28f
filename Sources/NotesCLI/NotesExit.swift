import AppFiles
import CipherDB
import CipherSync
import Foundation
import Notes
import SyncEngine

/// The line and exit status of each error of `notes`.
enum NotesExit {
    static let failure: Int32 = 1
    static let wrongKey: Int32 = 3
    static let remote: Int32 = 5
    static let otherServer: Int32 = 6

    static func line(for error: any Error) -> (line: String, exitCode: Int32) {
        switch error {
        case NotesError.wrongKey:
            return ("\(error)", wrongKey)
        case let error as SyncError where error == .otherServer:
            return ("the server holds another database than the one this database synced with: nothing was merged; "
                    + "sync a new notes database with it", otherServer)
        case let error as NotesError:
            return (error.description, failure)
        case let error as DatabaseFileError:
            return (error.description, failure)
        case let error as SyncError:
            return ("the sync failed: \(error)", remote)
        case let error as TransportError:
            return ("cannot reach the server: \(error)", remote)
        case let error as SyncPayloadError:
            return ("the server sent an invalid answer: \(error)", remote)
        default:
            return ("\(error)", failure)
        }
    }
}
