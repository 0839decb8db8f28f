import Foundation

/// A Swift value read from a column of a ``PostgresRows``, in PostgreSQL's
/// binary format.
package protocol PostgresDecodable {
    /// Reads the value of a column of type `type`; `bytes` is nil for NULL.
    /// Throws ``PostgresDecodingError`` for a type or a NULL it cannot read.
    init(postgresBytes bytes: UnsafeRawBufferPointer?, type: PostgresType) throws(PostgresDecodingError)
}

/// A column that a ``PostgresDecodable`` cannot read: a statement that
/// does not select what its caller decodes, a fault of this program.
package struct PostgresDecodingError: Error, CustomStringConvertible {
    package var description: String

    package init(_ description: String) {
        self.description = description
    }

    static func unexpected<Value>(_ type: PostgresType, _ value: Value.Type) -> PostgresDecodingError {
        PostgresDecodingError("a column of PostgreSQL type \(type.rawValue) cannot be read as \(Value.self).")
    }

    static func null<Value>(_ value: Value.Type) -> PostgresDecodingError {
        PostgresDecodingError("a NULL column cannot be read as \(Value.self).")
    }
}

extension PostgresDecodable {
    /// The bytes of a column that must not be NULL.
    static func nonNull(_ bytes: UnsafeRawBufferPointer?) throws(PostgresDecodingError) -> UnsafeRawBufferPointer {
        guard let bytes else { throw .null(Self.self) }
        return bytes
    }

    /// A big-endian integer of the column's exact width.
    static func bigEndian<Integer: FixedWidthInteger>(_ bytes: UnsafeRawBufferPointer, as _: Integer.Type) -> Integer {
        var value = Integer.zero
        withUnsafeMutableBytes(of: &value) { $0.copyMemory(from: bytes) }
        return Integer(bigEndian: value)
    }
}

extension Bool: PostgresDecodable {
    package init(postgresBytes bytes: UnsafeRawBufferPointer?, type: PostgresType) throws(PostgresDecodingError) {
        let bytes = try Self.nonNull(bytes)
        guard type == .bool, bytes.count == 1 else { throw .unexpected(type, Self.self) }
        self = bytes[0] != 0
    }
}

/// An `Int64` reads `bigint`, `integer` and `smallint` columns.
extension Int64: PostgresDecodable {
    package init(postgresBytes bytes: UnsafeRawBufferPointer?, type: PostgresType) throws(PostgresDecodingError) {
        let bytes = try Self.nonNull(bytes)
        switch (type, bytes.count) {
        case (.int8, 8): self = Self.bigEndian(bytes, as: Int64.self)
        case (.int4, 4): self = Int64(Self.bigEndian(bytes, as: Int32.self))
        case (.int2, 2): self = Int64(Self.bigEndian(bytes, as: Int16.self))
        default: throw .unexpected(type, Self.self)
        }
    }
}

extension Int: PostgresDecodable {
    package init(postgresBytes bytes: UnsafeRawBufferPointer?, type: PostgresType) throws(PostgresDecodingError) {
        self = Int(try Int64(postgresBytes: bytes, type: type))
    }
}

/// A `String` reads `text`, `varchar` and `name` columns.
extension String: PostgresDecodable {
    package init(postgresBytes bytes: UnsafeRawBufferPointer?, type: PostgresType) throws(PostgresDecodingError) {
        let bytes = try Self.nonNull(bytes)
        guard [.text, .varchar, .name].contains(type) else { throw .unexpected(type, Self.self) }
        self = String(decoding: bytes, as: UTF8.self)
    }
}

extension UUID: PostgresDecodable {
    package init(postgresBytes bytes: UnsafeRawBufferPointer?, type: PostgresType) throws(PostgresDecodingError) {
        let bytes = try Self.nonNull(bytes)
        guard type == .uuid, bytes.count == 16 else { throw .unexpected(type, Self.self) }
        var uuid: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &uuid) { $0.copyMemory(from: bytes) }
        self.init(uuid: uuid)
    }
}

extension Date: PostgresDecodable {
    package init(postgresBytes bytes: UnsafeRawBufferPointer?, type: PostgresType) throws(PostgresDecodingError) {
        let bytes = try Self.nonNull(bytes)
        guard type == .timestamptz, bytes.count == 8 else { throw .unexpected(type, Self.self) }
        let microseconds = Self.bigEndian(bytes, as: Int64.self)
        self.init(timeIntervalSince1970: Self.postgresEpoch + Double(microseconds) / 1_000_000)
    }
}

/// NULL reads as nil.
extension Optional: PostgresDecodable where Wrapped: PostgresDecodable {
    package init(postgresBytes bytes: UnsafeRawBufferPointer?, type: PostgresType) throws(PostgresDecodingError) {
        self = try bytes.map { bytes throws(PostgresDecodingError) in try Wrapped(postgresBytes: bytes, type: type) }
    }
}
