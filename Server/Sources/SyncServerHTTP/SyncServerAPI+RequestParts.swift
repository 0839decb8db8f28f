import Foundation
import Hummingbird
import NIOCore
import NIOFoundationCompat

extension SyncServerAPI {
    /// The JSON body of a request, at most `limit` bytes (larger: 413),
    /// declared `application/json` in UTF-8 (415 otherwise); 400 when it
    /// is not UTF-8 (UTF-16 included), or does not arrive whole (the
    /// client's failure, not the store's).
    func body(_ request: Request, upTo limit: Int) async throws -> Data {
        guard request.declaresJSONBody else {
            throw APIError(.unsupportedMediaType, "send the body as application/json (in UTF-8)")
        }
        let data: Data
        do {
            var request = request
            data = Data(buffer: try await request.collectBody(upTo: limit))
        } catch is NIOTooManyBytesError {
            throw APIError(.contentTooLarge, "the body is larger than \(limit) bytes")
        } catch {
            throw APIError.badRequest("the body did not arrive whole")
        }
        guard data.isUTF8JSONText else {
            throw APIError.badRequest("the body must be valid UTF-8")
        }
        return data
    }
}
