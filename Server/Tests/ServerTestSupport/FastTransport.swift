import Foundation
import CipherSync
import TestSupport

/// libcurl with retries whose delays are short: the tests check what is
/// retried, not how long it waits. Its time limits are the hang guard's:
/// a server of the test process that a loaded machine makes slow (past
/// the default 15 s without a byte, seen once in a full run) is waited for,
/// and one that hangs still ends the test.
public func fastTransport(_ configure: (inout TransportConfiguration) -> Void = { _ in }) -> any HTTPTransport {
    let guardSeconds = TimeInterval(hangGuard.components.seconds)
    var configuration = TransportConfiguration()
    configuration.connectTimeout = guardSeconds
    configuration.timeout = guardSeconds
    configuration.lowSpeedTime = guardSeconds
    configure(&configuration)
    var policy = RetryPolicy()
    policy.initialDelay = 0.05
    return RetryingTransport(CurlTransport(configuration: configuration), policy: policy)
}
