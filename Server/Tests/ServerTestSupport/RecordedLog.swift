import Logging
import Synchronization

/// A logger that keeps what it is given, for tests that check what a
/// component logs.
///
/// ```swift
/// let log = RecordedLog()
/// let connection = try await PostgresConnection.connect(to: url, timeout: .seconds(60), id: 1, logger: log.logger)
/// #expect(log.messages.contains { $0.level == .warning })
/// ```
public final class RecordedLog: Sendable {
    public struct Message: Sendable {
        public var level: Logger.Level
        public var text: String
        public var metadata: Logger.Metadata
    }

    private let recorded = Mutex<[Message]>([])

    public init() {}

    /// Every message so far, in order.
    public var messages: [Message] { recorded.withLock { $0 } }

    /// A logger at trace level that records every message.
    public var logger: Logger {
        var logger = Logger(label: "recorded") { [self] _ in Handler(log: self) }
        logger.logLevel = .trace
        return logger
    }

    private struct Handler: LogHandler {
        let log: RecordedLog
        var logLevel: Logger.Level = .trace
        var metadata: Logger.Metadata = [:]
        var metadataProvider: Logger.MetadataProvider?

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let message = Message(level: event.level, text: "\(event.message)", metadata: metadata.merging(event.metadata ?? [:]) { $1 })
            log.recorded.withLock { $0.append(message) }
        }
    }
}
