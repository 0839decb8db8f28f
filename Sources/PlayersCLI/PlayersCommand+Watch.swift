import AppCommandLine
import CipherSync
import CommandLineBase
import Foundation
import PlayersSync
import SyncEngine

extension PlayersCommand.Sync {
    /// How long each long-poll of `--watch` asks the server to wait, in
    /// seconds: under the server's limit of 60, and under the idle
    /// timeouts of common proxies.
    static let watchWait = 50

    /// `--watch`: runs a ``SyncWatcher`` until SIGINT or SIGTERM, which
    /// cancel the transfer under way (a merge under way finishes or rolls
    /// back whole), then prints "Stopped watching URL."; or until a failure
    /// that no retry mends, which it throws.
    func watchChanges(_ client: SyncClient<SyncEngineStore>, baseURL: URL, token: String?) async throws {
        let quiet = quiet
        let watcher = SyncWatcher(
            syncOnce: { try await client.syncPlayers() },
            onSync: { [self] report in if !report.isEmpty { printWatched(report, baseURL: baseURL) } },
            onNotice: { line in if !quiet { Terminal.printError("players: \(line)") } },
            describe: { error in CLIError.from(error).redacting(token).description })
        let (ended, _) = await InterruptibleOperation.run { await watcher.run() }
        if case .success(let error?) = ended { throw CLIError.from(error).redacting(token) }
        Terminal.printLineNow("Stopped watching \(baseURL.absoluteString).")
    }

    /// The line of one merge while watching, at once: a sync's line, or
    /// with --json one JSON object on one line (JSON Lines).
    func printWatched(_ report: PlayersSyncReport, baseURL: URL) {
        if json {
            if let line = try? JSONOutput.line(report) { Terminal.printLineNow(line) }
        } else {
            for note in report.notes { Terminal.printLineNow(note) }
            Terminal.printLineNow("Synced with \(baseURL.absoluteString): \(report).")
        }
    }
}
