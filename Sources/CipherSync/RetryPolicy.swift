import Foundation

/// When and how long to wait before trying a request again: exponential
/// backoff with jitter, for connection failures, timeouts, lost
/// connections, `429` and `5xx`; never for another `4xx`.
public struct RetryPolicy: Sendable {
    /// Attempts in all, the first included. Default: 3.
    public var maximumAttempts: Int = 3
    /// The delay before the second attempt; each later one doubles it.
    /// Default: 0.5 s.
    public var initialDelay: TimeInterval = 0.5
    /// The longest wait before an attempt, and the longest `Retry-After`
    /// honoured: a server asking for more gets its answer returned instead.
    /// Default: 30 s.
    public var maximumDelay: TimeInterval = 30

    public init() {}

    /// No retry at all.
    public static var none: RetryPolicy {
        var policy = RetryPolicy()
        policy.maximumAttempts = 1
        return policy
    }

    /// Whether a response with this status may be tried again.
    public static func isRetryable(status: Int) -> Bool {
        status == 429 || (500...599).contains(status)
    }

    /// The backoff before attempt `attempt + 1`: a random delay between
    /// half and all of `initialDelay × 2^(attempt - 1)`, at most
    /// `maximumDelay`. The jitter keeps many clients from retrying in step.
    public func backoff(afterAttempt attempt: Int) -> TimeInterval {
        var generator = SystemRandomNumberGenerator()
        return backoff(afterAttempt: attempt, using: &generator)
    }

    /// The same, with the jitter drawn from `generator`: a test's seeded
    /// one, to replay a draw.
    package func backoff(afterAttempt attempt: Int, using generator: inout some RandomNumberGenerator) -> TimeInterval {
        let exponential = min(maximumDelay, initialDelay * pow(2, Double(max(0, attempt - 1))))
        return Double.random(in: (exponential / 2)...exponential, using: &generator)
    }
}

/// What ``RetryingTransport`` is about to do: shown to people waiting.
public struct RetryEvent: Sendable, CustomStringConvertible {
    /// The attempt that failed (1 for the first).
    public var failedAttempt: Int
    public var maximumAttempts: Int
    public var delay: TimeInterval
    /// The status or the error that failed, safe to log.
    public var reason: String

    public var description: String {
        String(format: "attempt %d of %d failed (%@): trying again in %.1f s", failedAttempt, maximumAttempts, reason, delay)
    }
}

/// Wraps a transport with a ``RetryPolicy``. A `Retry-After` header on a
/// `429` or `503` sets the delay. Requests that are not idempotent
/// (``HTTPRequest/isIdempotent``: most POSTs) are retried only on `429` and
/// `503`, which say the server did nothing.
public struct RetryingTransport: HTTPTransport {
    public let base: any HTTPTransport
    public let policy: RetryPolicy
    /// Called before each wait.
    public let onRetry: (@Sendable (RetryEvent) -> Void)?
    /// The clock of the waits: `ContinuousClock`, or in a test one that
    /// the test advances.
    public var clock: any Clock<Duration> = ContinuousClock()

    public init(_ base: any HTTPTransport, policy: RetryPolicy = RetryPolicy(), onRetry: (@Sendable (RetryEvent) -> Void)? = nil) {
        self.base = base
        self.policy = policy
        self.onRetry = onRetry
    }

    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let isIdempotent = request.isIdempotent
        var attempt = 1
        while true {
            let delay: TimeInterval
            let reason: String
            do {
                let response = try await base.send(request)
                let saysNothingDone = response.status == 429 || response.status == 503
                guard attempt < policy.maximumAttempts, RetryPolicy.isRetryable(status: response.status),
                      isIdempotent || saysNothingDone else {
                    return response
                }
                if let retryAfter = response.retryAfter() {
                    // A longer wait than allowed: the caller reports it.
                    guard retryAfter <= policy.maximumDelay else { return response }
                    delay = retryAfter
                } else {
                    delay = policy.backoff(afterAttempt: attempt)
                }
                reason = "HTTP \(response.status)"
            } catch let error as TransportError where error.isTransient && isIdempotent && attempt < policy.maximumAttempts {
                delay = policy.backoff(afterAttempt: attempt)
                reason = error.detail ?? error.description
            }
            onRetry?(RetryEvent(failedAttempt: attempt, maximumAttempts: policy.maximumAttempts, delay: delay, reason: reason))
            try await clock.sleep(for: .seconds(delay))
            attempt += 1
        }
    }
}
