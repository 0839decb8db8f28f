import Foundation

extension Process {
    /// Starts the program, one launch at a time in the test process; the
    /// waits for the programs stay concurrent.
    ///
    /// Foundation's `run()` (swift-corelibs-foundation of Swift 6.3.1)
    /// crashed in `memmove` once while many threads launched programs at
    /// once; serialized, a launch costs about a millisecond.
    ///
    /// ```swift
    /// try process.runSerially()
    /// ```
    public func runSerially() throws {
        launchLock.lock()
        defer { launchLock.unlock() }
        try run()
    }
}

private let launchLock = NSLock()
