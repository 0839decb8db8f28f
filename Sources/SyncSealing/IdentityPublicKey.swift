import CSodium
import Foundation

/// A user's public identity key (X25519): what the server publishes for
/// others to wrap partition keys to (``WrappedKey``).
public struct IdentityPublicKey: Sendable, Hashable {
    /// The key, ``length`` bytes.
    public let bytes: [UInt8]

    /// The length of a public key in bytes.
    public static let length = Int(crypto_box_publickeybytes())

    public init(bytes: [UInt8]) throws(SealingError) {
        guard bytes.count == Self.length else { throw .invalidKeyLength(kind: "public key", length: bytes.count) }
        self.bytes = bytes
    }

    /// Base64 of the key, as JSON carries it.
    public var text: String {
        Data(bytes).base64EncodedString()
    }

    public init(text: String) throws(SealingError) {
        guard let data = Data(base64Encoded: text) else { throw .invalidKeyLength(kind: "public key", length: 0) }
        try self.init(bytes: Array(data))
    }
}
