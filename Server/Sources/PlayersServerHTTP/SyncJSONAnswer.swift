import Foundation
import Hummingbird

/// A message of the sync engine as the API answers it: JSON already
/// encoded by the message itself (``SyncSchema/SyncPage/jsonData()``).
struct SyncJSONAnswer: ResponseGenerator, Sendable {
    var body: Data

    func response(from request: Request, context: some RequestContext) throws -> Response {
        Response(
            status: .ok,
            headers: [.contentType: "application/json; charset=utf-8", .contentLength: String(body.count)],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
    }
}
