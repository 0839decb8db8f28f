import Foundation
import Logging

/// The logger that tests give the PostgreSQL stores they open: silent,
/// unless `CIPHERDB_TEST_POSTGRES_TRACE=1`, when the stores and their pool
/// log every step at trace level on standard error (Docs/Testing.md: to
/// find where a test that waits on PostgreSQL stands).
public let postgresTestLogger: Logger = {
    guard ProcessInfo.processInfo.environment["CIPHERDB_TEST_POSTGRES_TRACE"] == "1" else {
        return Logger(label: "players-server.postgres", factory: { _ in SwiftLogNoOpLogHandler() })
    }
    var logger = Logger(label: "players-server.postgres", factory: { StreamLogHandler.standardError(label: $0) })
    logger.logLevel = .trace
    return logger
}()
