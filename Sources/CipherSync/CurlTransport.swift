import CCurl
import Dispatch
import Foundation
import Synchronization

/// An ``HTTPTransport`` over libcurl, hardened by default (see
/// ``TransportConfiguration``).
///
/// Each request runs the blocking `curl_easy_perform` on a thread of its
/// own, off Swift's cooperative pool and Dispatch's global one.
/// Cancelling the task aborts the transfer from libcurl's progress
/// callback (within about a second, the longest libcurl waits between two
/// calls of it).
///
/// ```swift
/// var configuration = TransportConfiguration()
/// configuration.timeout = 30
/// let transport = CurlTransport(configuration: configuration)
/// let response = try await transport.send(HTTPRequest(url: URL(string: "http://127.0.0.1:8080/healthz")!))
/// ```
///
/// See <https://curl.se/libcurl/c/curl_easy_setopt.html>.
public struct CurlTransport: HTTPTransport {
    public let configuration: TransportConfiguration

    public init(configuration: TransportConfiguration = TransportConfiguration()) {
        self.configuration = configuration
    }

    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        guard let scheme = request.url.scheme?.lowercased(), scheme == "http" || scheme == "https",
              request.url.host?.isEmpty == false else {
            throw TransportError.invalidURL.with(detail: request.url.scheme.map { "\($0):" })
        }
        try Task.checkCancellation()
        let cancellation = CancellationFlag()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                // A thread of its own: a transfer blocks its thread as long as
                // it lasts (a long-poll, a stalled server), and Dispatch's
                // global pool has as many threads as cores, which the app's
                // database queues need meanwhile.
                let thread = Thread {
                    continuation.resume(with: Result {
                        try CurlTransfer(request: request, configuration: configuration, cancellation: cancellation).perform()
                    })
                }
                thread.qualityOfService = .userInitiated
                thread.start()
            }
        } onCancel: {
            cancellation.cancel()
        }
    }
}

/// Set when the task that started a transfer is cancelled; read by
/// libcurl's progress callback on the transfer's thread.
final class CancellationFlag: Sendable {
    private let isSet = Atomic<Bool>(false)

    func cancel() { isSet.store(true, ordering: .relaxed) }
    var isCancelled: Bool { isSet.load(ordering: .relaxed) }
}

/// One transfer: an easy handle and what its callbacks collect. Lives on
/// the thread that performs it, from creation to the end of `perform()`.
private final class CurlTransfer {
    /// libcurl is loaded, and `curl_global_init` runs, once per process,
    /// before the first handle (Swift initializes a static constant exactly
    /// once, thread-safely).
    private static let globalInitResult = ccurl_global_init_default()

    let request: HTTPRequest
    let configuration: TransportConfiguration
    let cancellation: CancellationFlag
    var body = Data()
    var headers: [String: String] = [:]
    var bodyTooLarge = false

    init(request: HTTPRequest, configuration: TransportConfiguration, cancellation: CancellationFlag) {
        self.request = request
        self.configuration = configuration
        self.cancellation = cancellation
    }

    func perform() throws -> HTTPResponse {
        if let reason = ccurl_load_error() {
            throw TransportError.libcurlUnavailable.with(detail: String(cString: reason))
        }
        guard Self.globalInitResult == CURLE_OK else {
            throw TransportError.transferFailed.with(detail: "curl_global_init: \(Self.message(Self.globalInitResult))")
        }
        guard let handle = ccurl_easy_init() else {
            throw TransportError.transferFailed.with(detail: "curl_easy_init returned NULL")
        }
        defer { ccurl_easy_cleanup(handle) }
        let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE))
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
        defer { errorBuffer.deallocate() }
        var headerList: UnsafeMutablePointer<curl_slist>?
        defer { ccurl_slist_free_all(headerList) }

        try configure(handle, errorBuffer: errorBuffer, headerList: &headerList)
        let result = withExtendedLifetime(self) { ccurl_easy_perform(handle) }
        guard result == CURLE_OK else {
            throw error(for: result, errorBuffer: errorBuffer)
        }

        var status = 0
        try check(ccurl_easy_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status), "CURLINFO_RESPONSE_CODE")
        var effectiveURL: UnsafeMutablePointer<CChar>?
        try check(ccurl_easy_getinfo_string(handle, CURLINFO_EFFECTIVE_URL, &effectiveURL), "CURLINFO_EFFECTIVE_URL")
        var downloaded: curl_off_t = 0
        try check(ccurl_easy_getinfo_off_t(handle, CURLINFO_SIZE_DOWNLOAD_T, &downloaded), "CURLINFO_SIZE_DOWNLOAD_T")
        let url = effectiveURL.flatMap { URL(string: String(cString: $0)) } ?? request.url
        return HTTPResponse(status: status, headers: headers, body: body, url: url, bytesReceived: Int(downloaded))
    }

    // MARK: - Options

    private func configure(_ handle: UnsafeMutableRawPointer, errorBuffer: UnsafeMutablePointer<CChar>,
                           headerList: inout UnsafeMutablePointer<curl_slist>?) throws {
        let isHTTPS = request.url.scheme?.lowercased() == "https"
        try set(handle, CURLOPT_ERRORBUFFER, pointer: errorBuffer)
        try set(handle, CURLOPT_URL, request.url.absoluteString)
        // No signals: libcurl runs on many threads of this process.
        try set(handle, CURLOPT_NOSIGNAL, 1)
        try set(handle, CURLOPT_PROTOCOLS_STR, "http,https")
        // Redirects stay on http(s), and never leave https for http.
        try set(handle, CURLOPT_REDIR_PROTOCOLS_STR, isHTTPS ? "https" : "http,https")
        try set(handle, CURLOPT_FOLLOWLOCATION, 1)
        try set(handle, CURLOPT_MAXREDIRS, configuration.maximumRedirects)
        try set(handle, CURLOPT_CONNECTTIMEOUT_MS, Self.milliseconds(configuration.connectTimeout))
        // A long-poll's hold comes before both limits.
        let hold = max(0, request.serverHold)
        try set(handle, CURLOPT_TIMEOUT_MS, Self.milliseconds(configuration.timeout + hold))
        try set(handle, CURLOPT_LOW_SPEED_LIMIT, configuration.lowSpeedLimit)
        try set(handle, CURLOPT_LOW_SPEED_TIME, max(1, Int((configuration.lowSpeedTime + hold).rounded(.up))))
        // Refuses early a body announced larger than the limit; the write
        // callback enforces it on the decompressed bytes.
        try check(ccurl_easy_setopt_off_t(handle, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(configuration.maximumBodySize)),
                  "CURLOPT_MAXFILESIZE_LARGE")
        try set(handle, CURLOPT_ACCEPT_ENCODING, "gzip")
        try set(handle, CURLOPT_SSL_VERIFYPEER, 1)
        try set(handle, CURLOPT_SSL_VERIFYHOST, 2)
        if let caCertificatePath = configuration.caCertificatePath {
            try set(handle, CURLOPT_CAINFO, caCertificatePath)
        }
        if let token = try configuration.bearerTokenSource?() ?? configuration.bearerToken {
            // libcurl sends it to the request's host only, not to another
            // host a redirect leads to.
            try set(handle, CURLOPT_HTTPAUTH, ccurl_auth_bearer())
            try set(handle, CURLOPT_XOAUTH2_BEARER, token)
        }
        try set(handle, CURLOPT_USERAGENT, configuration.userAgent)

        for (name, value) in request.headers.sorted(by: { $0.key < $1.key }) {
            guard !name.contains(where: \.isNewline), !value.contains(where: \.isNewline), !name.contains(":") else {
                throw TransportError.transferFailed.with(detail: "the request header \(name) holds a line break or a colon")
            }
            guard let list = ccurl_slist_append(headerList, "\(name): \(value)") else {
                throw TransportError.transferFailed.with(detail: "curl_slist_append returned NULL")
            }
            headerList = list
        }
        if let headerList {
            try set(handle, CURLOPT_HTTPHEADER, pointer: UnsafeMutableRawPointer(headerList))
        }

        switch request.method {
        case "GET": break
        case "POST": try set(handle, CURLOPT_POST, 1)
        default: try set(handle, CURLOPT_CUSTOMREQUEST, request.method)
        }
        if let body = request.body {
            try set(handle, CURLOPT_POSTFIELDSIZE, body.count)
            // COPYPOSTFIELDS copies the bytes: nothing to keep alive.
            if !body.isEmpty {
                try body.withUnsafeBytes { bytes in
                    try set(handle, CURLOPT_COPYPOSTFIELDS, pointer: UnsafeMutableRawPointer(mutating: bytes.baseAddress!))
                }
            } else {
                try set(handle, CURLOPT_COPYPOSTFIELDS, "")
            }
        }

        let context = Unmanaged.passUnretained(self).toOpaque()
        try check(ccurl_easy_setopt_write_function(handle, CURLOPT_WRITEFUNCTION, curlWriteBody), "CURLOPT_WRITEFUNCTION")
        try set(handle, CURLOPT_WRITEDATA, pointer: context)
        try check(ccurl_easy_setopt_write_function(handle, CURLOPT_HEADERFUNCTION, curlWriteHeader), "CURLOPT_HEADERFUNCTION")
        try set(handle, CURLOPT_HEADERDATA, pointer: context)
        try check(ccurl_easy_setopt_xferinfo_function(handle, curlTransferInfo), "CURLOPT_XFERINFOFUNCTION")
        try set(handle, CURLOPT_XFERINFODATA, pointer: context)
        try set(handle, CURLOPT_NOPROGRESS, 0)
    }

    private func set(_ handle: UnsafeMutableRawPointer, _ option: CURLoption, _ value: Int) throws {
        try check(ccurl_easy_setopt_long(handle, option, value), "option \(option.rawValue)")
    }

    private func set(_ handle: UnsafeMutableRawPointer, _ option: CURLoption, _ value: String) throws {
        // libcurl copies string options.
        try check(ccurl_easy_setopt_string(handle, option, value), "option \(option.rawValue)")
    }

    private func set(_ handle: UnsafeMutableRawPointer, _ option: CURLoption, pointer: UnsafeMutableRawPointer) throws {
        try check(ccurl_easy_setopt_pointer(handle, option, pointer), "option \(option.rawValue)")
    }

    private func check(_ code: CURLcode, _ what: String) throws {
        guard code == CURLE_OK else {
            throw TransportError.transferFailed.with(detail: "libcurl refused \(what): \(Self.message(code))")
        }
    }

    private static func milliseconds(_ seconds: TimeInterval) -> Int {
        max(1, Int((seconds * 1000).rounded(.up)))
    }

    private static func message(_ code: CURLcode) -> String {
        String(cString: ccurl_easy_strerror(code))
    }

    // MARK: - Errors

    private func error(for code: CURLcode, errorBuffer: UnsafeMutablePointer<CChar>) -> any Error {
        if cancellation.isCancelled { return CancellationError() }
        let text = String(cString: errorBuffer)
        let detail = text.isEmpty ? Self.message(code) : text
        switch code {
        case CURLE_WRITE_ERROR where bodyTooLarge, CURLE_FILESIZE_EXCEEDED:
            return TransportError.bodyTooLarge.with(detail: "over \(configuration.maximumBodySize) bytes")
        case CURLE_UNSUPPORTED_PROTOCOL:
            return TransportError.forbiddenProtocol.with(detail: detail)
        case CURLE_URL_MALFORMAT:
            return TransportError.invalidURL.with(detail: detail)
        case CURLE_COULDNT_CONNECT, CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY:
            return TransportError.connectionFailed.with(detail: detail)
        case CURLE_OPERATION_TIMEDOUT:
            return TransportError.timedOut.with(detail: detail)
        case CURLE_PARTIAL_FILE, CURLE_GOT_NOTHING, CURLE_RECV_ERROR, CURLE_SEND_ERROR, CURLE_HTTP2, CURLE_HTTP2_STREAM:
            return TransportError.connectionLost.with(detail: detail)
        case CURLE_TOO_MANY_REDIRECTS:
            return TransportError.tooManyRedirects.with(detail: detail)
        case CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CONNECT_ERROR, CURLE_SSL_CACERT_BADFILE, CURLE_SSL_CERTPROBLEM:
            return TransportError.tlsFailure.with(detail: detail)
        case CURLE_BAD_CONTENT_ENCODING:
            return TransportError.badContentEncoding.with(detail: detail)
        default:
            return TransportError.transferFailed.with(detail: detail)
        }
    }

    // MARK: - Callbacks

    fileprivate func receiveBody(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard body.count + bytes.count <= configuration.maximumBodySize else {
            bodyTooLarge = true
            return false
        }
        body.append(contentsOf: bytes)
        return true
    }

    fileprivate func receiveHeader(_ line: String) {
        if line.hasPrefix("HTTP/") {
            // A new response (after a redirect or a 100 Continue).
            headers = [:]
            return
        }
        guard let colon = line.firstIndex(of: ":") else { return }
        let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
        let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespacesAndNewlines)
        headers[name] = value
    }
}

// C callbacks: `context` is the CurlTransfer, unretained, alive for the
// whole `curl_easy_perform`.

private func curlWriteBody(_ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ context: UnsafeMutableRawPointer?) -> Int {
    guard let data, let context else { return 0 }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
    // Returning less than given makes libcurl stop with CURLE_WRITE_ERROR.
    return transfer.receiveBody(UnsafeRawBufferPointer(start: data, count: size * count)) ? size * count : 0
}

private func curlWriteHeader(_ data: UnsafeMutablePointer<CChar>?, _ size: Int, _ count: Int, _ context: UnsafeMutableRawPointer?) -> Int {
    guard let data, let context else { return 0 }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
    let bytes = UnsafeRawBufferPointer(start: data, count: size * count)
    transfer.receiveHeader(String(decoding: bytes, as: UTF8.self))
    return size * count
}

private func curlTransferInfo(_ context: UnsafeMutableRawPointer?, _ downloadTotal: curl_off_t, _ downloaded: curl_off_t,
                              _ uploadTotal: curl_off_t, _ uploaded: curl_off_t) -> Int32 {
    guard let context else { return 0 }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
    // Non-zero aborts the transfer with CURLE_ABORTED_BY_CALLBACK.
    if transfer.cancellation.isCancelled { return 1 }
    transfer.configuration.progress?(Int64(downloaded), Int64(downloadTotal))
    return 0
}
