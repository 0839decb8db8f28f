import CPostgres
import Logging

/// Where a connection's notices go (`NOTICE: relation … already exists,
/// skipping`, `WARNING: …`): its logger, instead of libpq's default, which
/// prints them on standard error, where they would mix with the server's
/// own lines. A `WARNING` is logged as a warning, the others at debug level.
///
/// Kept alive by its ``PostgresConnection`` for as long as libpq may call
/// it, through the context pointer of ``install(on:)``.
final class PostgresNoticeLog: Sendable {
    private let logger: Logger
    private let connectionID: Int

    init(logger: Logger, connectionID: Int) {
        self.logger = logger
        self.connectionID = connectionID
    }

    /// Makes libpq give `connection`'s notices to this log. The caller
    /// keeps the log alive until `PQfinish`.
    func install(on connection: OpaquePointer) {
        PQsetNoticeReceiver(connection, { context, result in
            guard let context, let result else { return }
            Unmanaged<PostgresNoticeLog>.fromOpaque(context).takeUnretainedValue().log(result)
        }, Unmanaged.passUnretained(self).toOpaque())
    }

    private func log(_ notice: OpaquePointer) {
        let severity = PostgresServerError.field("V", of: notice) ?? "NOTICE"
        let message = PostgresServerError.field("M", of: notice) ?? ""
        let metadata: Logger.Metadata = [
            "postgres_connection_id": "\(connectionID)",
            "postgres_notice_severity": "\(severity)",
            "postgres_sqlstate": "\(PostgresServerError.field("C", of: notice) ?? "")",
        ]
        logger.log(level: severity == "WARNING" ? .warning : .debug, "PostgreSQL: \(message)", metadata: metadata)
    }
}
