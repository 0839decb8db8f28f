import Foundation
import Hummingbird

/// A message of the sync engine as the API answers it: JSON already
/// encoded by the message itself (``SyncSchema/SyncPage/jsonData()``);
/// a page of rows has a strong ETag: a request whose `If-None-Match` is
/// that tag gets `304 Not Modified` with no body.
struct SyncJSONAnswer: ResponseGenerator, Sendable {
    /// The body, copied into a buffer once: an answer that many requests
    /// share (a delta read once for all of them) is sent by each without
    /// another copy.
    var body: ByteBuffer
    var etag: String?
    var status: HTTPResponse.Status

    init(body: Data, etag: String? = nil, status: HTTPResponse.Status = .ok) {
        self.body = ByteBuffer(bytes: body)
        self.etag = etag
        self.status = status
    }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        if let etag, request.headers[.ifNoneMatch] == etag {
            return Response(status: .notModified, headers: [.eTag: etag])
        }
        var headers: HTTPFields = [.contentType: "application/json; charset=utf-8", .contentLength: String(body.readableBytes)]
        if let etag { headers[.eTag] = etag }
        guard status != .noContent else { return Response(status: status) }
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: body))
    }
}
