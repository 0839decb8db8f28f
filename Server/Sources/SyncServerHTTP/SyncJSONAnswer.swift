import Foundation
import Hummingbird

/// A message of the sync engine as the API answers it: JSON already
/// encoded by the message itself (``SyncSchema/SyncPage/jsonData()``);
/// a page of rows has a strong ETag: a request whose `If-None-Match` is
/// that tag gets `304 Not Modified` with no body.
struct SyncJSONAnswer: ResponseGenerator, Sendable {
    /// The body and the fields, made once: an answer that many requests
    /// share (a delta read once for all of them) is sent by each as it is,
    /// without another copy or check.
    let body: ByteBuffer
    let etag: String?
    let status: HTTPResponse.Status
    private let headers: HTTPFields

    init(body: Data, etag: String? = nil, status: HTTPResponse.Status = .ok) {
        self.body = ByteBuffer(bytes: body)
        self.etag = etag
        self.status = status
        var headers: HTTPFields = [.contentType: "application/json; charset=utf-8", .contentLength: String(body.count)]
        if let etag { headers[.eTag] = etag }
        self.headers = headers
    }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        if let etag, request.headers[.ifNoneMatch] == etag {
            return Response(status: .notModified, headers: [.eTag: etag])
        }
        guard status != .noContent else { return Response(status: status) }
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: body))
    }
}
