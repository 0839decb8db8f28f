import CSodium
import Foundation

/// The sealed columns of one row of an end-to-end table: what the server
/// stores and serves in place of them, and cannot open.
///
/// The columns are sealed with XChaCha20-Poly1305 (libsodium) under their
/// partition's current key, padded to a size class
/// (``paddedLength(of:)``) so that the server learns lengths only
/// coarsely. The associated data binds the value to everything a server
/// could otherwise move or replay: the row (``SealedRow``: table, primary
/// key, partition) and the header below, in the clear beside the
/// ciphertext:
///
/// | bytes | what |
/// | --- | --- |
/// | 1 | the layout, ``layout`` (1) |
/// | 1 | the declaration format of the writer's tables |
/// | 4 | the partition key's epoch |
/// | 8 | the sealed counter: the writer's last seen server counter + 1 |
/// | 16 | the writing device's change (its mutation id) |
/// | 24 | the nonce, random |
/// | rest | the ciphertext of the padded columns, and its 16-byte tag |
///
/// ```swift
/// let sealed = try SealedValue.seal(Array(json.utf8), for: row, key: key, declarationFormat: 3,
///                                   sealedCounter: cursor.counter + 1, change: mutationID)
/// let text = sealed.text                      // what the server stores
/// let columns = try SealedValue(text: text).open(for: row, key: key)
/// ```
public struct SealedValue: Sendable, Equatable {
    /// The version of this layout and algorithm. A value of another
    /// layout is refused, never read as this one.
    public static let layout: UInt8 = 1

    /// The longest plaintext sealed: 16 MiB, as a pushed batch.
    public static let maximumPlaintextLength = 16 << 20

    /// The smallest size class: every value of up to 63 bytes pads to 64.
    static let smallestPaddedLength = 64

    static let nonceLength = Int(crypto_aead_xchacha20poly1305_ietf_npubbytes())
    static let tagLength = Int(crypto_aead_xchacha20poly1305_ietf_abytes())
    static let headerLength = 1 + 1 + 4 + 8 + 16

    /// The declaration format the writer's tables were declared in.
    public let declarationFormat: UInt8
    /// The epoch of the partition key it was sealed under.
    public let epoch: UInt32
    /// The writer's last seen server counter + 1: a device refuses a
    /// value of a lower counter than the one it holds for the row.
    public let sealedCounter: Int64
    /// The writing device's change (its mutation id).
    public let change: UUID
    let nonce: [UInt8]
    let ciphertext: [UInt8]

    /// Seals `plaintext` for `row` under `key` (the current key of the
    /// row's partition); a key of another partition throws
    /// ``SealingError/notAuthentic``, as it would when opening.
    public static func seal(_ plaintext: [UInt8], for row: SealedRow, key: PartitionKey, declarationFormat: UInt8,
                            sealedCounter: Int64, change: UUID) throws(SealingError) -> SealedValue {
        try Sodium.ready()
        guard plaintext.count <= maximumPlaintextLength else { throw .tooLong(plaintext.count) }
        guard key.partition == row.partition else { throw .notAuthentic }
        let padded = try pad(plaintext)
        let nonce = try Sodium.randomBytes(nonceLength)
        let header = SealedValue(declarationFormat: declarationFormat, epoch: key.epoch, sealedCounter: sealedCounter,
                                 change: change, nonce: nonce, ciphertext: [])
        let associated = header.associatedData(for: row)
        var ciphertext = [UInt8](repeating: 0, count: padded.count + tagLength)
        var ciphertextLength: UInt64 = 0
        guard crypto_aead_xchacha20poly1305_ietf_encrypt(
            &ciphertext, &ciphertextLength, padded, UInt64(padded.count), associated, UInt64(associated.count),
            nil, nonce, key.bytes) == 0 else { throw .libraryUnavailable }
        return SealedValue(declarationFormat: declarationFormat, epoch: key.epoch, sealedCounter: sealedCounter,
                           change: change, nonce: nonce, ciphertext: Array(ciphertext.prefix(Int(ciphertextLength))))
    }

    /// The plaintext, when the value opens for `row` under `key` (the key
    /// of the row's partition of the value's ``epoch``); throws
    /// ``SealingError/notAuthentic`` otherwise.
    public func open(for row: SealedRow, key: PartitionKey) throws(SealingError) -> [UInt8] {
        try Sodium.ready()
        guard key.partition == row.partition, key.epoch == epoch, ciphertext.count >= Self.tagLength else {
            throw .notAuthentic
        }
        let associated = associatedData(for: row)
        var padded = [UInt8](repeating: 0, count: ciphertext.count - Self.tagLength)
        var paddedLength: UInt64 = 0
        guard crypto_aead_xchacha20poly1305_ietf_decrypt(
            &padded, &paddedLength, nil, ciphertext, UInt64(ciphertext.count), associated, UInt64(associated.count),
            nonce, key.bytes) == 0, paddedLength == padded.count else { throw .notAuthentic }
        try Self.unpad(&padded)
        return padded
    }

    /// The size class of a plaintext of `length` bytes: its length once
    /// padded. Padmé (Nikitin et al., PETS 2019): at most 12% more than
    /// the length, and a class names O(log log n) bits of it, where padding
    /// to a multiple of a block would name all but a few.
    public static func paddedLength(of length: Int) -> Int {
        // At least one byte of padding: its first byte marks the end.
        let length = max(length + 1, smallestPaddedLength)
        let exponent = Int.bitWidth - 1 - length.leadingZeroBitCount
        let exponentBits = Int.bitWidth - exponent.leadingZeroBitCount
        let mask = (1 << (exponent - exponentBits)) - 1
        return (length + mask) & ~mask
    }

    // MARK: - Bytes

    /// The bytes the server stores: the header, the nonce, the ciphertext.
    public var bytes: [UInt8] {
        var bytes = header
        bytes += nonce
        bytes += ciphertext
        return bytes
    }

    /// Base64 of ``bytes``: the text of a sealed value in JSON.
    public var text: String {
        Data(bytes).base64EncodedString()
    }

    /// Reads the bytes of a sealed value; throws
    /// ``SealingError/malformedSealedValue(_:)`` when they are not one of
    /// this ``layout``.
    public init(bytes: [UInt8]) throws(SealingError) {
        var reader = SealingBytesReader(bytes)
        guard let layout = reader.read(UInt8.self) else { throw .malformedSealedValue("it is empty") }
        guard layout == Self.layout else { throw .malformedSealedValue("its layout \(layout) is not \(Self.layout)") }
        guard let format = reader.read(UInt8.self), let epoch = reader.read(UInt32.self),
              let counter = reader.read(Int64.self), let change = reader.readUUID(),
              let nonce = reader.read(Self.nonceLength), reader.remaining >= Self.tagLength + Self.smallestPaddedLength else {
            throw .malformedSealedValue("it is shorter than a sealed value")
        }
        self.init(declarationFormat: format, epoch: epoch, sealedCounter: counter, change: change, nonce: nonce,
                  ciphertext: reader.readRest())
    }

    /// Reads the base64 text of a sealed value.
    public init(text: String) throws(SealingError) {
        guard let data = Data(base64Encoded: text) else { throw .malformedSealedValue("it is not base64") }
        try self.init(bytes: Array(data))
    }

    private init(declarationFormat: UInt8, epoch: UInt32, sealedCounter: Int64, change: UUID, nonce: [UInt8],
                 ciphertext: [UInt8]) {
        self.declarationFormat = declarationFormat
        self.epoch = epoch
        self.sealedCounter = sealedCounter
        self.change = change
        self.nonce = nonce
        self.ciphertext = ciphertext
    }

    private var header: [UInt8] {
        var header = SealingBytes(capacity: Self.headerLength)
        appendHeader(to: &header)
        return header.bytes
    }

    private func appendHeader(to bytes: inout SealingBytes) {
        bytes.append(Self.layout)
        bytes.append(declarationFormat)
        bytes.append(epoch)
        bytes.append(sealedCounter)
        bytes.append(change)
    }

    /// What the tag authenticates beside the ciphertext (and its nonce):
    /// the row and the header.
    private func associatedData(for row: SealedRow) -> [UInt8] {
        // The domain, three texts with their lengths, the id, the header.
        var data = SealingBytes(domain: Self.associatedDataDomain,
                                capacity: 4 * 4 + Self.associatedDataDomain.utf8.count + row.table.utf8.count + 16
                                    + row.partition.utf8.count + Self.headerLength)
        data.append(row.table)
        data.append(row.id)
        data.append(row.partition)
        appendHeader(to: &data)
        return data.bytes
    }

    private static let associatedDataDomain = "CipherDB sealed row"

    private static func pad(_ plaintext: [UInt8]) throws(SealingError) -> [UInt8] {
        let target = paddedLength(of: plaintext.count)
        var buffer = plaintext + [UInt8](repeating: 0, count: target - plaintext.count)
        var paddedLength = 0
        guard sodium_pad(&paddedLength, &buffer, plaintext.count, target, target) == 0, paddedLength == target else {
            throw .tooLong(plaintext.count)
        }
        return buffer
    }

    /// Removes the padding in place.
    private static func unpad(_ padded: inout [UInt8]) throws(SealingError) {
        var length = 0
        guard !padded.isEmpty, sodium_unpad(&length, padded, padded.count, padded.count) == 0 else { throw .notAuthentic }
        padded.removeLast(padded.count - length)
    }
}
