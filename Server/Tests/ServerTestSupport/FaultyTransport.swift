import CipherSync

/// Where a transfer of a sync fails on purpose.
public enum TransportFault: CaseIterable, Sendable {
    /// Before a push is sent.
    case beforePush
    /// After the server answered a push: the answer is lost.
    case answerLost
    /// On a pull's request.
    case duringFetch
}

/// The failure a test injects.
public struct InjectedFault: Error {
    public init() {}
}

/// A transport that fails where its fault says (``TransportFault``), and
/// hands every push that the server answered with 200 to `answered`, the
/// request with its answer, even when the answer is then lost: what the
/// server applied, read from the wire.
public struct FaultyTransport: HTTPTransport {
    public let base: any HTTPTransport
    public let fault: TransportFault?
    public let answered: @Sendable (HTTPRequest, HTTPResponse) -> Void

    public init(base: any HTTPTransport, fault: TransportFault?, answered: @escaping @Sendable (HTTPRequest, HTTPResponse) -> Void = { _, _ in }) {
        self.base = base
        self.fault = fault
        self.answered = answered
    }

    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let isPush = request.method == "POST"
        if isPush && fault == .beforePush { throw InjectedFault() }
        if !isPush && fault == .duringFetch { throw InjectedFault() }
        let response = try await base.send(request)
        if isPush, response.status == 200 { answered(request, response) }
        if isPush && fault == .answerLost { throw InjectedFault() }
        return response
    }
}
