import Dispatch
import Foundation
import Synchronization

/// Progress on standard error, on a terminal only: a bar with a
/// percentage and a rate, or the elapsed time for an operation that reports
/// no fraction. Nothing on a pipe or a file, nothing when quiet, nothing for
/// operations shorter than the delay (a second, or
/// `PLAYERS_PROGRESS_DELAY`). The one reporter of `players` and
/// `players-server`.
///
/// ```swift
/// let progress = ProgressReporter(label: "Export", quiet: quiet)
/// for (index, player) in players.enumerated() {
///     progress.report(Double(index + 1) / Double(players.count))
/// }
/// progress.finish()
/// ```
public final class ProgressReporter: Sendable {
    private struct State {
        var lastShown = -1
        var isShowing = false
        var detail: String?
    }

    /// How long an operation runs before its progress shows: one second,
    /// or `PLAYERS_PROGRESS_DELAY` whole seconds, as git's
    /// `GIT_PROGRESS_DELAY` (0 shows it from the start; a value that is
    /// not a whole number of seconds is ignored).
    public static let delay: Int = ProcessInfo.processInfo.environment["PLAYERS_PROGRESS_DELAY"]
        .flatMap { Int($0) }.flatMap { $0 >= 0 ? $0 : nil } ?? 1

    private let label: String
    /// Progress is for a person watching: never written into a pipe or a
    /// file, where it would mix with what a program reads.
    private let isShown: Bool
    private let delay: Int
    private let start = Date()
    private let state = Mutex(State())

    public init(label: String, quiet: Bool, delay: Int = ProgressReporter.delay) {
        self.label = label
        self.isShown = !quiet && isatty(STDERR_FILENO) != 0
        self.delay = delay
    }

    public func report(_ fraction: Double) {
        guard isShown else { return }
        let elapsed = Date().timeIntervalSince(start)
        guard elapsed >= Double(delay) else { return }
        let percent = min(max(Int((fraction * 100).rounded(.down)), 0), 100)
        let line: String? = state.withLock { state in
            guard percent != state.lastShown else { return nil }
            state.lastShown = percent
            state.isShowing = true
            let filled = percent / 5
            let bar = String(repeating: "#", count: filled) + String(repeating: " ", count: 20 - filled)
            let rate = fraction / max(elapsed, 0.001) * 100
            let detail = state.detail.map { ", \($0)" } ?? ""
            return String(format: "\r%@ [%@] %3d%% (%.0f%%/s)%@\u{1B}[K", label, bar, percent, rate, detail)
        }
        if let line { FileHandle.standardError.write(Data(line.utf8)) }
    }

    public func finish() {
        let wasShowing = state.withLock { $0.isShowing }
        if wasShowing && isShown { FileHandle.standardError.write(Data("\n".utf8)) }
    }

    /// Runs an operation that reports no fraction (`sqlcipher_export`),
    /// showing the elapsed time every second once it lasts longer than
    /// the delay.
    public func whileRunning<T>(_ body: () throws -> T) throws -> T {
        let timer = startElapsedTimer()
        defer {
            timer?.cancel()
            finish()
        }
        return try body()
    }

    /// The same, for an asynchronous operation.
    public func whileRunning<T>(_ body: () async throws -> T) async throws -> T {
        let timer = startElapsedTimer()
        defer {
            timer?.cancel()
            finish()
        }
        return try await body()
    }

    /// What the elapsed time is followed by, such as "3 pages, 1.2 MB".
    public func setDetail(_ detail: String) {
        state.withLock { $0.detail = detail }
    }

    private func startElapsedTimer() -> (any DispatchSourceTimer)? {
        guard isShown else { return nil }
        // Without a delay the first line is drawn before the operation
        // starts: an operation shorter than the timer's first tick shows
        // it too.
        if delay == 0 { showElapsedTime() }
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "players.progress"))
        timer.schedule(deadline: .now() + .seconds(max(delay, 1)), repeating: 1)
        timer.setEventHandler { [self] in showElapsedTime() }
        timer.resume()
        return timer
    }

    private func showElapsedTime() {
        let seconds = Int(Date().timeIntervalSince(start).rounded())
        let detail = state.withLock { state in
            state.isShowing = true
            return state.detail.map { ", \($0)" } ?? ""
        }
        FileHandle.standardError.write(Data("\r\(label): \(seconds) s\(detail)\u{1B}[K".utf8))
    }
}
