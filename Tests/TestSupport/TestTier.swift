import Foundation

/// The two tiers of the suite. `make test` (what CI runs) is the
/// correctness tier: every behaviour, with property and stress tests at a
/// size that keeps it fast. `make check-long` sets `CIPHERDB_TEST_TIER=long`
/// and runs the same properties at full size.
///
/// ```swift
/// static let waiters = TestTier.current.size(correctness: 1_000, long: 10_000)
/// ```
public enum TestTier: String, Sendable {
    case correctness
    case long

    /// The tier of this run: `CIPHERDB_TEST_TIER=long`, or correctness.
    public static let current: TestTier = ProcessInfo.processInfo.environment["CIPHERDB_TEST_TIER"] == "long" ? .long : .correctness

    /// The value of this tier.
    public func size<T>(correctness: T, long: T) -> T {
        self == .long ? long : correctness
    }
}
