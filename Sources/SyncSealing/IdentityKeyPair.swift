import CSodium

/// A user's identity key pair (X25519), the same on each of their devices:
/// derived from their recovery key (``RecoveryKey/identity()``), kept by
/// each device in its encrypted database, never sent to the server. Its
/// public half is published (``IdentityPublicKey``); its secret half opens
/// the partition keys wrapped to the user (``WrappedKey``).
///
/// Its bytes stay in Swift arrays, which Swift may copy: they are not
/// locked in memory nor wiped when released.
public struct IdentityKeyPair: Sendable {
    public let publicKey: IdentityPublicKey

    /// The secret key, ``secretKeyLength`` bytes: what a device keeps.
    public let secretKey: [UInt8]

    public static let secretKeyLength = Int(crypto_box_secretkeybytes())
    static let seedLength = Int(crypto_box_seedbytes())

    /// The pair of a secret key a device kept; the public key is computed
    /// from it.
    public init(secretKey: [UInt8]) throws(SealingError) {
        try Sodium.ready()
        guard secretKey.count == Self.secretKeyLength else {
            throw .invalidKeyLength(kind: "secret key", length: secretKey.count)
        }
        var publicKey = [UInt8](repeating: 0, count: IdentityPublicKey.length)
        guard crypto_scalarmult_base(&publicKey, secretKey) == 0 else { throw .invalidKeyLength(kind: "secret key", length: 0) }
        self.publicKey = try IdentityPublicKey(bytes: publicKey)
        self.secretKey = secretKey
    }

    /// The pair that `seed` makes, always the same for one seed.
    init(seed: [UInt8]) throws(SealingError) {
        try Sodium.ready()
        guard seed.count == Self.seedLength else { throw .invalidKeyLength(kind: "seed", length: seed.count) }
        var publicKey = [UInt8](repeating: 0, count: IdentityPublicKey.length)
        var secretKey = [UInt8](repeating: 0, count: Self.secretKeyLength)
        guard crypto_box_seed_keypair(&publicKey, &secretKey, seed) == 0 else { throw .libraryUnavailable }
        self.publicKey = try IdentityPublicKey(bytes: publicKey)
        self.secretKey = secretKey
    }
}
