import Foundation
import TestSupport
import Testing

/// Closing a connection calls SQLite on its handle only while the handle
/// is valid. `players` runs here with glibc filling every freed block (and
/// its per-thread cache off, so that a block is filled as soon as it is
/// freed): a call on a closed handle then reads a garbage pointer and
/// crashes at once, where in a normal run it crashed only when another
/// thread had reused the memory (a test process died so in
/// `pthread_mutex_lock`, under load, three times before it was found).
@Suite struct FreedMemoryTests {
    static let fillFreedMemory = ["GLIBC_TUNABLES": "glibc.malloc.perturb=165:glibc.malloc.tcache_count=0"]

    @Test func commandsThatOpenAndCloseConnectionsRunWithFreedMemoryFilled() async throws {
        let sandbox = try CLISandbox()
        for arguments in [["init"], ["add", "--name", "Arthur", "--score", "1"], ["list"], ["verify"]] {
            let result = try await sandbox.run(arguments, environment: Self.fillFreedMemory)
            #expect(result.status == 0, "players \(arguments[0]) exited with \(result.status): \(result.error)")
        }
    }
}
