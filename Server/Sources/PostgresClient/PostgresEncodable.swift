import Foundation

/// A Swift value that binds to a parameter of a ``PostgresQuery``, in
/// PostgreSQL's binary format.
package protocol PostgresEncodable: Sendable {
    /// The parameter's type: PostgreSQL reads the bytes as this type.
    static var postgresType: PostgresType { get }
    /// Appends the value's bytes in PostgreSQL's binary format.
    func encode(into bytes: inout [UInt8])
}

/// A value that PostgreSQL has arrays of.
package protocol PostgresArrayElement: PostgresEncodable {
    /// The type of a one-dimensional array of such values.
    static var postgresArrayType: PostgresType { get }
}

extension PostgresEncodable {
    static func appendBigEndian<Integer: FixedWidthInteger>(_ value: Integer, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.bigEndian) { bytes.append(contentsOf: $0) }
    }
}

extension Bool: PostgresArrayElement {
    package static var postgresType: PostgresType { .bool }
    package static var postgresArrayType: PostgresType { .boolArray }
    package func encode(into bytes: inout [UInt8]) { bytes.append(self ? 1 : 0) }
}

/// An `Int` is PostgreSQL's `bigint` (`int8`), which fits every `Int` of a
/// 64-bit platform.
extension Int: PostgresArrayElement {
    package static var postgresType: PostgresType { .int8 }
    package static var postgresArrayType: PostgresType { .int8Array }
    package func encode(into bytes: inout [UInt8]) { Self.appendBigEndian(Int64(self), to: &bytes) }
}

extension Int64: PostgresArrayElement {
    package static var postgresType: PostgresType { .int8 }
    package static var postgresArrayType: PostgresType { .int8Array }
    package func encode(into bytes: inout [UInt8]) { Self.appendBigEndian(self, to: &bytes) }
}

extension String: PostgresArrayElement {
    package static var postgresType: PostgresType { .text }
    package static var postgresArrayType: PostgresType { .textArray }
    package func encode(into bytes: inout [UInt8]) { bytes.append(contentsOf: utf8) }
}

extension UUID: PostgresArrayElement {
    package static var postgresType: PostgresType { .uuid }
    package static var postgresArrayType: PostgresType { .uuidArray }
    package func encode(into bytes: inout [UInt8]) { withUnsafeBytes(of: uuid) { bytes.append(contentsOf: $0) } }
}

/// A `Date` is a `timestamptz`: microseconds since 2000-01-01 UTC, the
/// precision PostgreSQL keeps.
extension Date: PostgresArrayElement {
    /// 2000-01-01 00:00:00 UTC, PostgreSQL's epoch, in seconds since 1970.
    static let postgresEpoch: TimeInterval = 946_684_800

    package static var postgresType: PostgresType { .timestamptz }
    package static var postgresArrayType: PostgresType { .timestamptzArray }
    package func encode(into bytes: inout [UInt8]) {
        let microseconds = Int64(((timeIntervalSince1970 - Self.postgresEpoch) * 1_000_000).rounded(.toNearestOrEven))
        Self.appendBigEndian(microseconds, to: &bytes)
    }
}

/// An array is PostgreSQL's one-dimensional array of its element type.
extension Array: PostgresEncodable where Element: PostgresArrayElement {
    package static var postgresType: PostgresType { Element.postgresArrayType }

    package func encode(into bytes: inout [UInt8]) {
        // Dimensions (0 for an empty array), no NULL, the element type,
        // then each dimension's length and lower bound.
        Self.appendBigEndian(Int32(isEmpty ? 0 : 1), to: &bytes)
        Self.appendBigEndian(Int32(0), to: &bytes)
        Self.appendBigEndian(Element.postgresType.rawValue, to: &bytes)
        guard !isEmpty else { return }
        Self.appendBigEndian(Int32(count), to: &bytes)
        Self.appendBigEndian(Int32(1), to: &bytes)
        for element in self {
            let lengthIndex = bytes.count
            Self.appendBigEndian(Int32(0), to: &bytes)
            element.encode(into: &bytes)
            let length = UInt32(bytes.count - lengthIndex - 4).bigEndian
            Swift.withUnsafeBytes(of: length) { bytes.replaceSubrange(lengthIndex..<lengthIndex + 4, with: $0) }
        }
    }
}
