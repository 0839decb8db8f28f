import AppFiles
import CipherSync
import CommandLineBase
import Foundation

/// `players sync --watch` and `notes sync --watch`: runs a
/// ``CipherSync/SyncReplicator`` until SIGINT or SIGTERM, which cancel the
/// transfer under way (a merge under way finishes or rolls back whole);
/// each sync goes to `onSync`, each failure and each sleep of the computer
/// to `notice` in one line, as the app tells an error (`describe`), the
/// tokens removed (`tokens`: the one of the start, and the one its file
/// holds now, read again before each request). Returns once stopped, or
/// throws the failure that no retry mends.
///
/// ```swift
/// try await SyncWatch.run(replicator, tokens: { [token] }, describe: CLIError.from, onSync: { report in print(report) },
///                         notice: { line in printError("notes: \(line)") })
/// print("Stopped watching \(url).")
/// ```
public enum SyncWatch {
    /// The tokens that no line shows: the one read at the start, and the
    /// one `file` holds now (a token renewed while watching).
    public static func tokens(read token: String?, from file: String?) -> @Sendable () -> [String] {
        { [token, file.flatMap { try? SecretFiles.readToken($0) }].compactMap { $0 } }
    }

    public static func run(_ replicator: SyncReplicator, tokens: @escaping @Sendable () -> [String],
                           describe: @escaping @Sendable (any Error) -> CLIError,
                           onSync: @escaping @Sendable (SyncPushPullReport) -> Void,
                           notice: @escaping @Sendable (String) -> Void) async throws {
        let (events, statuses) = (replicator.events(), replicator.statuses())
        let syncs = Task {
            for await event in events {
                switch event {
                case .synced(let report): onSync(report)
                case .resumedAfterSleep: notice("the computer slept; resuming now.")
                case .conflictKept, .rowRemoved, .changeRefused: break // counted in the report, or told by the failure
                }
            }
        }
        let failures = Task {
            for await status in statuses {
                guard let retryingIn = status.retryingIn else { continue }
                let error: any Error
                switch status.activity {
                case .offline(let transportError): error = transportError
                case .failed(let failure): error = failure.error
                default: continue
                }
                notice("\(describe(error).redacting(tokens())); retrying in \(retryingIn.components.seconds) s.")
            }
        }
        let (ended, _) = await InterruptibleOperation.run { await replicator.run() }
        // The streams end with the replication: every line is written.
        await syncs.value
        await failures.value
        if case .success(let failure?) = ended { throw describe(failure.error).redacting(tokens()) }
    }
}
