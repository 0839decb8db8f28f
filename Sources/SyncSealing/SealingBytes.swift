import Foundation

/// The byte strings that bind sealed values and wrapped keys to what they
/// are for: fixed-width integers big-endian, texts prefixed by their
/// length, so that no two different contexts make the same bytes.
struct SealingBytes {
    private(set) var bytes: [UInt8]

    /// Empty: a layout of fields alone.
    init() {
        bytes = []
    }

    /// Begins with the name of what the bytes bind (a sealed row, a
    /// wrapped key): bytes made for one never verify as the other.
    init(domain: String) {
        bytes = []
        append(domain)
    }

    mutating func append(_ text: String) {
        let utf8 = Array(text.utf8)
        append(UInt32(utf8.count))
        bytes += utf8
    }

    mutating func append<Integer: FixedWidthInteger>(_ value: Integer) {
        withUnsafeBytes(of: value.bigEndian) { bytes += $0 }
    }

    mutating func append(_ id: UUID) {
        withUnsafeBytes(of: id.uuid) { bytes += $0 }
    }

    mutating func append(raw: [UInt8]) {
        bytes += raw
    }
}

/// Reads what ``SealingBytes`` wrote, front to back.
struct SealingBytesReader {
    private let bytes: [UInt8]
    private var position = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    var remaining: Int { bytes.count - position }

    mutating func read(_ count: Int) -> [UInt8]? {
        guard count >= 0, remaining >= count else { return nil }
        defer { position += count }
        return Array(bytes[position..<position + count])
    }

    mutating func read<Integer: FixedWidthInteger>(_: Integer.Type) -> Integer? {
        guard let raw = read(MemoryLayout<Integer>.size) else { return nil }
        return raw.reduce(0) { $0 << 8 | Integer($1) }
    }

    mutating func readUUID() -> UUID? {
        guard let raw = read(16) else { return nil }
        return UUID(uuid: (raw[0], raw[1], raw[2], raw[3], raw[4], raw[5], raw[6], raw[7],
                           raw[8], raw[9], raw[10], raw[11], raw[12], raw[13], raw[14], raw[15]))
    }

    mutating func readText() -> String? {
        guard let count = read(UInt32.self), let raw = read(Int(count)) else { return nil }
        return String(validating: raw, as: UTF8.self)
    }

    mutating func readRest() -> [UInt8] {
        read(remaining) ?? []
    }
}
