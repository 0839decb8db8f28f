import Foundation
import SyncSchema

/// A page that breaks the sync protocol: its description names the first
/// bad element by page and JSON path, such as `page 2, $.players[3].uuid:
/// not a UUID`. Nothing was written. The client makes it for the fields it
/// reads (`kind`, `cursor`, `next`); a ``SyncMessage``'s decoder, for the
/// rest.
public struct SyncPayloadError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The page, from 1, when known.
    public var page: Int?
    /// The JSON path of the bad element: `$` for the whole message.
    public var path: String
    public var message: String

    public init(page: Int? = nil, path: String, _ message: String) {
        self.page = page
        self.path = path
        self.message = message
    }

    /// A message's decoder's error (``SyncSchema/SyncMessageError``), on
    /// `page` when known.
    public init(_ error: SyncMessageError, page: Int? = nil) {
        self.init(page: page, path: error.path, error.message)
    }

    /// The same error, on a page.
    public func on(page: Int) -> SyncPayloadError {
        var error = self
        error.page = page
        return error
    }

    public var description: String {
        let location = page.map { "page \($0), \(path)" } ?? path
        return "the server sent an invalid payload (\(location): \(message)): nothing was written"
    }
}
