import Foundation

/// What anyone may read of a sealed value (``SyncTable/sealedColumn``,
/// base64 of SyncSealing's `SealedValue`) without its key: the clear
/// header before its nonce, whose sealed counter and writing change name
/// which value of its row it is. A server reads them to count the value
/// in its table's digest (``SyncTableDigest/columns(of:)``), as a device
/// counts the value it took; neither learns more from them than the
/// server stores.
///
/// | bytes | what |
/// | --- | --- |
/// | 1 | the layout, 1 |
/// | 1 | the declaration format |
/// | 4 | the partition key's epoch, big-endian |
/// | 8 | the sealed counter, big-endian |
/// | 16 | the writing change |
///
/// ```swift
/// let header = SyncSealedHeader(sealedText: text)   // nil: not a sealed value of layout 1
/// header?.counter   // 42
/// ```
public struct SyncSealedHeader: Sendable, Equatable {
    public var counter: Int64
    public var change: UUID

    /// The header's length: 30 bytes, the first 40 characters of base64.
    static let length = 30

    public init(counter: Int64, change: UUID) {
        self.counter = counter
        self.change = change
    }

    /// The header of a sealed value's text; nil when its first characters
    /// are not base64 of a header of layout 1.
    public init?(sealedText text: String) {
        let prefix = text.utf8.prefix(Self.length / 3 * 4)
        guard prefix.count == Self.length / 3 * 4, let bytes = Data(base64Encoded: Data(prefix)), bytes.count == Self.length,
              bytes[bytes.startIndex] == 1 else { return nil }
        let start = bytes.startIndex
        counter = bytes[start + 6..<start + 14].reduce(0) { $0 << 8 | Int64($1) }
        change = bytes.withUnsafeBytes { raw in
            var uuid: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
            withUnsafeMutableBytes(of: &uuid) { $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: raw[14..<30])) }
            return UUID(uuid: uuid)
        }
    }
}
