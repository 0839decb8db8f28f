import Dispatch
import Foundation
import Synchronization

/// Progress on standard error: a bar with a percentage and a rate on a
/// terminal, a line every 10% otherwise, nothing when quiet. Only shown for
/// operations that last more than a second.
final class ProgressReporter: Sendable {
    private struct State {
        var lastShown = -1
        var isShowing = false
        var detail: String?
    }

    private let label: String
    private let quiet: Bool
    private let isTerminal = isatty(STDERR_FILENO) != 0
    private let start = Date()
    private let state = Mutex(State())

    init(label: String, quiet: Bool) {
        self.label = label
        self.quiet = quiet
    }

    func report(_ fraction: Double) {
        guard !quiet else { return }
        let elapsed = Date().timeIntervalSince(start)
        guard elapsed >= 1 else { return }
        let percent = Int((fraction * 100).rounded(.down))
        let line: String? = state.withLock { state in
            let step = isTerminal ? percent : percent / 10 * 10
            guard step != state.lastShown else { return nil }
            state.lastShown = step
            state.isShowing = true
            if isTerminal {
                let filled = percent / 5
                let bar = String(repeating: "#", count: filled) + String(repeating: " ", count: 20 - filled)
                let rate = fraction / elapsed * 100
                return String(format: "\r%@ [%@] %3d%% (%.0f%%/s)", label, bar, percent, rate)
            }
            return "\(label): \(percent)%\n"
        }
        if let line { FileHandle.standardError.write(Data(line.utf8)) }
    }

    func finish() {
        let wasShowing = state.withLock { $0.isShowing }
        if wasShowing && isTerminal && !quiet { FileHandle.standardError.write(Data("\n".utf8)) }
    }

    /// Runs an operation that reports no fraction (`sqlcipher_export`),
    /// showing the elapsed time every second once it lasts more than one.
    func whileRunning<T>(_ body: () throws -> T) throws -> T {
        let timer = startElapsedTimer()
        defer {
            timer.cancel()
            finish()
        }
        return try body()
    }

    /// The same, for an asynchronous operation.
    func whileRunning<T>(_ body: () async throws -> T) async throws -> T {
        let timer = startElapsedTimer()
        defer {
            timer.cancel()
            finish()
        }
        return try await body()
    }

    /// What the elapsed time is followed by, such as "3 pages, 1.2 MB".
    func setDetail(_ detail: String) {
        state.withLock { $0.detail = detail }
    }

    private func startElapsedTimer() -> any DispatchSourceTimer {
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "players.progress"))
        timer.schedule(deadline: .now() + 1, repeating: 1)
        timer.setEventHandler { [self] in
            guard !quiet else { return }
            let seconds = Int(Date().timeIntervalSince(start).rounded())
            let detail = state.withLock { state in
                state.isShowing = true
                return state.detail.map { ", \($0)" } ?? ""
            }
            let line = isTerminal ? "\r\(label): \(seconds) s\(detail)\u{1B}[K" : "\(label): \(seconds) s\(detail)\n"
            FileHandle.standardError.write(Data(line.utf8))
        }
        timer.resume()
        return timer
    }
}
