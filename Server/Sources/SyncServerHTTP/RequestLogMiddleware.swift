import Foundation
import Hummingbird
import Logging
import SyncServer

/// The outermost middleware: gives each request its id (an incoming
/// `X-Request-ID` if it is short and safe, else Hummingbird's own), echoed
/// in the response's `X-Request-ID` and carried by every line the request
/// logs; logs one line per request (method, path, route, status, duration
/// in milliseconds, never a header, a query or a body); counts it in ``ServerMetrics``,
/// and counts it in progress until then.
///
/// Errors become responses here, so that they carry the id too. The
/// handlers turn every mistake of a client into an `HTTPResponseError`,
/// so any other error is a store's (the database failed): it is logged,
/// counted, and answered 503 with `Retry-After` when the store's database
/// cannot be reached now (``StoreFailure``), else 500 with the id to look
/// for in the log.
struct RequestLogMiddleware<Context: RequestContext>: RouterMiddleware {
    let metrics: ServerMetrics

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        metrics.requestStarted()
        defer { metrics.requestEnded() }
        let requestID = Self.acceptedID(request.headers[.requestID]) ?? context.id
        var context = context
        context.logger[metadataKey: "hb.request.id"] = nil
        context.logger[metadataKey: "request_id"] = .string(requestID)
        var response: Response
        do {
            response = try await next(request, context)
        } catch let error as any HTTPResponseError {
            response = try error.response(from: request, context: context)
        } catch let error as CancellationError {
            throw error
        } catch let error as any StoreFailure where error.isUnavailable {
            metrics.storeCallFailed()
            context.logger.error("store unavailable", metadata: ["error": "\(error)"])
            response = try APIError.storeUnavailable.response(from: request, context: context)
        } catch {
            metrics.storeCallFailed()
            context.logger.error("store error", metadata: ["error": "\(error)"])
            response = try APIError(.internalServerError, "the server could not answer: its log tells why, under the request id \(requestID)")
                .response(from: request, context: context)
        }
        response.headers[.requestID] = requestID
        // Whatever answers a HEAD (a route's GET, an error), no body.
        if request.method == .head { response = response.createHeadResponse() }
        let duration = ContinuousClock.now - start
        // Hummingbird's name for a path that no route matched.
        let route = context.endpointPath.flatMap { $0 == "NotFound" ? nil : $0 } ?? "unmatched"
        metrics.requestAnswered(route: route, method: request.method, status: response.status, duration: duration)
        context.logger.info("request", metadata: [
            "method": .string(request.method.rawValue),
            "path": .string(request.uri.path),
            "route": .string(route),
            "status": .stringConvertible(response.status.code),
            // Numbers, which the JSON log writes as numbers.
            "duration_ms": .stringConvertible(((duration / .milliseconds(1)) * 10).rounded() / 10),
        ])
        return response
    }

    /// `header` if it is a safe request id: 1 to 128 characters of
    /// `A-Z a-z 0-9 . _ -`, nothing that could forge a log line.
    static func acceptedID(_ header: String?) -> String? {
        guard let header, (1...128).contains(header.utf8.count),
              header.utf8.allSatisfy({ $0.isASCIIAlphanumeric || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-") })
        else { return nil }
        return header
    }
}

extension HTTPFields.Element.Name {
    /// `X-Request-ID`: the id of a request, sent by a proxy or a client,
    /// echoed in the response.
    static let requestID = Self("X-Request-ID")!
}

private extension UInt8 {
    var isASCIIAlphanumeric: Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(self) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(self)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self)
    }
}
