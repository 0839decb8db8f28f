import Foundation
import TestSupport

extension StoreSandbox {
    /// Makes the sandbox's PostgreSQL database refuse connections, and
    /// ends those open: its stores then fail every call, as when the
    /// database goes away, while the cluster and other sandboxes go on.
    /// The sandbox is removed as usual afterwards.
    public func refuseConnections() async throws {
        guard kind == .postgres else { throw TestFailure("only a PostgreSQL sandbox can refuse connections") }
        try await Self.administer("ALTER DATABASE \(unescaped: databaseName) ALLOW_CONNECTIONS false")
        try await Self.administer("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = \(databaseName)")
    }
}
