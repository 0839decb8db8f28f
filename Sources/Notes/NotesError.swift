import Foundation
import SyncSchema

/// Why Notes refuses to do what it was asked, by case; each description is
/// one sentence that says what to do.
public enum NotesError: Error, Equatable, CustomStringConvertible {
    case exists(String)
    case missing(String)
    case wrongKey(String)
    case noNotebook(UUID)
    case noNote(UUID)
    case noConflict(UUID)
    /// A notebook not shared with this user.
    case notShared(UUID, String)
    /// A value the declaration's rules refuse (``NotesSchema``).
    case invalid(SyncRowError)
    /// A line of an import that is refused, by number from 1, and why.
    case badLine(Int, String)

    public var description: String {
        switch self {
        case .exists(let path): "\(path) exists already: nothing was created"
        case .missing(let path): "there is no notes database at \(path): run 'notes init' to create one"
        case .wrongKey(let path): "the key does not open \(path), or it is not a notes database"
        case .noNotebook(let id): "there is no notebook \(id.uuidString): 'notes list' shows them"
        case .noNote(let id): "there is no note \(id.uuidString): 'notes list' shows them"
        case .notShared(let id, let user): "the notebook \(id.uuidString) is not shared with \(user): nothing was changed"
        case .noConflict(let id): "there is no conflict of \(id.uuidString): nothing was changed; 'notes conflicts' lists them"
        case .invalid(let error): error.problemDescription
        case .badLine(let number, let reason): "line \(number): \(reason): nothing was imported"
        }
    }
}
