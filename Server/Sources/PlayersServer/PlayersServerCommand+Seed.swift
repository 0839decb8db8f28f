import CommandLineBase
import PlayersOnServer

extension PlayersServerCommand {
    /// `--seed N`, with a progress bar on a terminal (nothing on a pipe or
    /// a file, nothing for a seed shorter than a second).
    func seedShowingProgress(_ demo: PlayersDemo, count: Int) async throws {
        let progress = ProgressReporter(label: "Seed", quiet: false)
        defer { progress.finish() }
        try await demo.seed(count) { seeded in
            progress.report(Double(seeded) / Double(max(count, 1)))
        }
    }
}
