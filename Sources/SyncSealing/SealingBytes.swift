import Foundation

/// The byte strings that bind sealed values and wrapped keys to what they
/// are for: fixed-width integers big-endian, texts prefixed by their
/// length, so that no two different contexts make the same bytes.
struct SealingBytes {
    private(set) var bytes: [UInt8]

    /// Empty: a layout of fields alone. `capacity`: the bytes expected,
    /// so that appending them allocates once.
    init(capacity: Int = 0) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// Begins with the name of what the bytes bind (a sealed row, a
    /// wrapped key): bytes made for one never verify as the other.
    init(domain: String, capacity: Int = 0) {
        self.init(capacity: capacity)
        append(domain)
    }

    mutating func append(_ text: String) {
        append(UInt32(text.utf8.count))
        bytes.append(contentsOf: text.utf8)
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

    /// Read in place: one value of a sealed value's header per field,
    /// for every row a pull opens.
    mutating func read<Integer: FixedWidthInteger>(_: Integer.Type) -> Integer? {
        let size = MemoryLayout<Integer>.size
        guard remaining >= size else { return nil }
        defer { position += size }
        var value: Integer = 0
        for byte in bytes[position..<position + size] { value = value << 8 | Integer(byte) }
        return value
    }

    mutating func readUUID() -> UUID? {
        guard remaining >= 16 else { return nil }
        defer { position += 16 }
        var uuid: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &uuid) { $0.copyBytes(from: bytes[position..<position + 16]) }
        return UUID(uuid: uuid)
    }

    mutating func readText() -> String? {
        guard let count = read(UInt32.self), let raw = read(Int(count)) else { return nil }
        return String(validating: raw, as: UTF8.self)
    }

    mutating func readRest() -> [UInt8] {
        read(remaining) ?? []
    }
}
