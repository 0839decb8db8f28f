import Foundation
import Hummingbird
import Synchronization

extension SyncServerAPI {
    /// `GET /health` (and `/healthz`): the process serves. No store call.
    @Sendable func health(_ request: Request, _ context: SyncRequestContext) async -> [String: String] {
        ["status": "ok"]
    }

    /// `GET /ready`: 200 when the store answers a cheap read within
    /// ``ServerConfiguration/readinessTimeout`` and the server is not
    /// shutting down; else 503, with a sentence that names neither a URL
    /// nor a secret (the store's error goes to the log only).
    @Sendable func ready(_ request: Request, _ context: SyncRequestContext) async throws -> [String: String] {
        guard !readiness.isDraining else {
            throw APIError(.serviceUnavailable, "the server is shutting down: send requests to another instance")
        }
        switch await storeCheck(within: configuration.readinessTimeout) {
        case .answered:
            return ["status": "ready"]
        case .timedOut:
            metrics.storeCallFailed()
            context.logger.warning("store check timed out", metadata: ["timeout_s": .stringConvertible(configuration.readinessTimeout)])
            throw APIError(.serviceUnavailable, "the store did not answer a check within \(Self.seconds(configuration.readinessTimeout)) seconds")
        case .failed(let error):
            metrics.storeCallFailed()
            context.logger.warning("store check failed", metadata: ["error": "\(error)"])
            throw APIError(.serviceUnavailable, "the store failed a check: its database is unreachable or closed (the server's log tells more)")
        }
    }

    /// `GET /metrics`: ``ServerMetrics`` in Prometheus's text format.
    @Sendable func metricsText(_ request: Request, _ context: SyncRequestContext) throws -> Response {
        // Under signed identities, the traffic is the operators': a user's
        // token reads it only with the role.
        if let identity = context.identity, !identity.roles.contains(Self.metricsRole) {
            throw APIError.forbidden("/metrics needs the role \(Self.metricsRole), which the token of \(identity.user) does not give")
        }
        return Response(
            status: .ok,
            headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(string: metrics.text)))
    }

    /// The role that reads `/metrics` under signed identities (`--auth jwt`).
    public static let metricsRole = "metrics"

    /// How a store check ended.
    enum StoreCheck: Sendable {
        case answered
        case timedOut
        case failed(any Error)
    }

    /// Reads the store's counter (a cheap read), but waits for it at most
    /// `timeout` seconds: a store that hangs (a database host that drops
    /// packets) must not hold the answer, and is left to finish alone.
    func storeCheck(within timeout: TimeInterval) async -> StoreCheck {
        let outcome = Mutex<CheckedContinuation<StoreCheck, Never>?>(nil)
        let finish: @Sendable (StoreCheck) -> Void = { check in
            outcome.withLock { continuation in
                continuation?.resume(returning: check)
                continuation = nil
            }
        }
        return await withCheckedContinuation { continuation in
            outcome.withLock { $0 = continuation }
            let timer = Task {
                try await Task.sleep(for: .seconds(timeout))
                finish(.timedOut)
            }
            Task { [engine] in
                let check: StoreCheck
                do {
                    _ = try await engine.currentVersion()
                    check = .answered
                } catch {
                    check = .failed(error)
                }
                timer.cancel()
                finish(check)
            }
        }
    }

    /// `2`, `0.5`: a number of seconds as a sentence says it.
    static func seconds(_ value: TimeInterval) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}
