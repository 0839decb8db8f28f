import CSodium

/// libsodium, started once per process before its first use.
enum Sodium {
    /// Whether `sodium_init` succeeded. It selects the implementations for
    /// this processor and opens the random source; it may be called from
    /// any thread, and any number of times.
    private static let isReady: Bool = sodium_init() >= 0

    /// Throws when libsodium could not start.
    static func ready() throws(SealingError) {
        guard isReady else { throw .libraryUnavailable }
    }

    /// `count` bytes from libsodium's random source (the kernel's).
    static func randomBytes(_ count: Int) throws(SealingError) -> [UInt8] {
        try ready()
        var bytes = [UInt8](repeating: 0, count: count)
        randombytes_buf(&bytes, count)
        return bytes
    }

    /// Whether two byte strings of equal length are equal, in a time that
    /// does not depend on where they differ.
    static func constantTimeEqual(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
        guard lhs.count == rhs.count else { return false }
        return sodium_memcmp(lhs, rhs, lhs.count) == 0
    }
}
