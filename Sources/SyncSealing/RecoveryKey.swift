import CSodium

/// A user's recovery key: 256 random bits from which each of their devices
/// derives the same identity key pair (``identity()``). It is made on the
/// user's first device, written to a file of theirs (mode 0600), and never
/// reaches the server: with it, a new device opens everything the user
/// may read; without it, nothing.
///
/// Its text is nine groups of eight hexadecimal digits after `CDBR1`: the
/// key's 32 bytes, then 4 bytes of a BLAKE2b checksum, so that a mistyped
/// key is refused as not a recovery key rather than taken for another.
///
/// ```text
/// CDBR1-1F0A93C2-…-7B44E0D1
/// ```
public struct RecoveryKey: Sendable {
    let bytes: [UInt8]

    static let length = 32
    static let checksumLength = 4
    static let prefix = "CDBR1"

    /// A new recovery key of random bytes.
    public static func random() throws(SealingError) -> RecoveryKey {
        RecoveryKey(bytes: try Sodium.randomBytes(length))
    }

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Reads a recovery key's text; spaces, line ends and the case of the
    /// digits do not matter. The error says what is wrong, never the text.
    public init(text: String) throws(SealingError) {
        try Sodium.ready()
        let cleaned = text.uppercased().filter { !$0.isWhitespace }
        guard cleaned.hasPrefix(Self.prefix + "-") else {
            throw .invalidRecoveryKey("it does not begin with \(Self.prefix)-")
        }
        let groups = cleaned.dropFirst(Self.prefix.count + 1).split(separator: "-", omittingEmptySubsequences: false)
        let expectedGroups = (Self.length + Self.checksumLength) / 4
        guard groups.count == expectedGroups, groups.allSatisfy({ $0.count == 8 }) else {
            throw .invalidRecoveryKey("it is not \(expectedGroups) groups of 8 hexadecimal digits")
        }
        let hex = Array(groups.joined().utf8)
        var decoded = [UInt8](repeating: 0, count: Self.length + Self.checksumLength)
        var decodedLength = 0
        guard sodium_hex2bin(&decoded, decoded.count, hex.map { CChar(bitPattern: $0) }, hex.count, nil, &decodedLength, nil) == 0,
              decodedLength == decoded.count else {
            throw .invalidRecoveryKey("it is not \(expectedGroups) groups of 8 hexadecimal digits")
        }
        let key = Array(decoded.prefix(Self.length))
        guard Sodium.constantTimeEqual(Self.checksum(of: key), Array(decoded.suffix(Self.checksumLength))) else {
            throw .invalidRecoveryKey("its checksum does not match: a digit is mistyped")
        }
        self.init(bytes: key)
    }

    /// The text a user keeps.
    public var text: String {
        let digits = (bytes + Self.checksum(of: bytes)).map { byte in
            String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
        }.joined()
        var groups: [Substring] = []
        var rest = Substring(digits)
        while !rest.isEmpty {
            groups.append(rest.prefix(8))
            rest = rest.dropFirst(8)
        }
        return ([Self.prefix] + groups.map(String.init)).joined(separator: "-")
    }

    /// The user's identity key pair: the same for one recovery key on
    /// every device.
    public func identity() throws(SealingError) -> IdentityKeyPair {
        try IdentityKeyPair(seed: derive(subkey: 1))
    }

    /// A subkey of the recovery key (BLAKE2b, libsodium's
    /// `crypto_kdf_derive_from_key`), of its own number and context.
    private func derive(subkey number: UInt64) throws(SealingError) -> [UInt8] {
        try Sodium.ready()
        var subkey = [UInt8](repeating: 0, count: IdentityKeyPair.seedLength)
        let context = Array("CDBident".utf8).map { CChar(bitPattern: $0) }
        guard crypto_kdf_derive_from_key(&subkey, subkey.count, number, context, bytes) == 0 else {
            throw .libraryUnavailable
        }
        return subkey
    }

    /// The checksum of a key's bytes: BLAKE2b keyed by the name of what
    /// it checks. A key exists only once libsodium is ready, and
    /// BLAKE2b fails only on lengths out of its range, which these are not.
    private static func checksum(of key: [UInt8]) -> [UInt8] {
        var hash = [UInt8](repeating: 0, count: Int(crypto_generichash_bytes()))
        let domain = Array("CipherDB recovery key".utf8)
        crypto_generichash(&hash, hash.count, key, UInt64(key.count), domain, domain.count)
        return Array(hash.prefix(checksumLength))
    }
}

private extension String {
    func leftPadded(to length: Int) -> String {
        String(repeating: "0", count: max(0, length - count)) + self
    }
}
