import Foundation
import Hummingbird
import NIOCore
import NIOFoundationCompat

extension PlayersAPI {
    /// The JSON body of a request, at most `limit` bytes (larger: 413); 400
    /// when it does not arrive whole (the client's failure, not the store's).
    func body(_ request: Request, upTo limit: Int) async throws -> Data {
        guard let contentType = request.headers[.contentType], contentType.lowercased().hasPrefix("application/json") else {
            throw APIError(.unsupportedMediaType, "send the body as application/json")
        }
        do {
            var request = request
            return Data(buffer: try await request.collectBody(upTo: limit))
        } catch is NIOTooManyBytesError {
            throw APIError(.contentTooLarge, "the body is larger than \(limit) bytes")
        } catch {
            throw APIError.badRequest("the body did not arrive whole")
        }
    }

    /// The player uuid that ends the path (`/v1/players/{uuid}`).
    func pathUUID(_ context: PlayersRequestContext) throws -> UUID {
        guard let text = context.parameters.get("uuid"), let uuid = UUID(uuidString: text) else {
            throw APIError.badRequest("the path must end with a player uuid")
        }
        return uuid
    }
}
