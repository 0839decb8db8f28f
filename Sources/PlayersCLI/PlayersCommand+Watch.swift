import AppCommandLine
import CipherSync
import CommandLineBase
import Foundation
import Players
import PlayersSync

extension PlayersCommand.Sync {
    /// `--watch`: runs a ``CipherSync/SyncReplicator`` on `client`
    /// (``AppCommandLine/SyncWatch``) until SIGINT or SIGTERM, then prints
    /// "Stopped watching URL."; or until a failure that no retry mends,
    /// which it throws. Players' rules are checked before each push.
    func watchChanges(_ client: SyncClient<SyncEngineStore>, baseURL: URL, token: String?) async throws {
        let quiet = quiet
        let replicator = SyncReplicator(client: client, configuration: SyncReplicator.Configuration(
            checkBeforePush: AppDatabase.checkPendingPlayers))
        try await SyncWatch.run(
            replicator, tokens: SyncWatch.tokens(read: token, from: tokenFile), describe: CLIError.from,
            onSync: { [self] synced in
                let report = PlayersSyncReport(synced)
                if !report.isEmpty { printWatched(report, baseURL: baseURL) }
            },
            notice: { line in if !quiet { Terminal.printError("players: \(line)") } })
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
