/// Why a value could not be sealed or opened, or a key made or read.
/// Nothing here quotes a key or a plaintext.
public enum SealingError: Error, Equatable, Sendable {
    /// libsodium could not start (`sodium_init` failed: no source of
    /// randomness): nothing can be sealed or opened in this process.
    case libraryUnavailable

    /// The bytes are not a sealed value of a layout this release reads:
    /// too short, or of another layout version.
    case malformedSealedValue(String)

    /// The sealed value does not open under the key and the row given: it
    /// was altered, moved to another row, table or partition, sealed under
    /// another key or epoch, or its header was changed.
    case notAuthentic

    /// A plaintext longer than ``SealedValue/maximumPlaintextLength``.
    case tooLong(Int)

    /// The text is not a recovery key: the reason, never the text.
    case invalidRecoveryKey(String)

    /// A key of the wrong length for its kind (a public key, a secret
    /// key, a partition key).
    case invalidKeyLength(kind: String, length: Int)

    /// A wrapped key that does not open for this recipient from this
    /// sender, or that names another partition or epoch than expected.
    case wrappedKeyNotAuthentic
}
