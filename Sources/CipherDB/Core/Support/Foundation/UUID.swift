import CSQLCipher
import Foundation

/// Stored as a 16-byte BLOB, as GRDB does. Decodes from such blobs and from
/// the 36-character text form.
extension UUID: DatabaseValueConvertible, StatementColumnConvertible {
    @inline(__always)
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        guard let uuid = Self.fromStatement(sqliteStatement, atUncheckedIndex: index) else { return nil }
        self = uuid
    }

    /// One column access; the text form is parsed where SQLite keeps it,
    /// with no intermediate string.
    public static func fromStatement(_ sqliteStatement: SQLiteStatement, atUncheckedIndex index: CInt) -> UUID? {
        let value = columnValue(sqliteStatement, index)
        switch sqlite3_value_type(value) {
        case SQLITE_BLOB:
            guard let bytes = sqlite3_value_blob(value), sqlite3_value_bytes(value) == 16 else { return nil }
            return UUID(uuid: bytes.loadUnaligned(as: uuid_t.self))
        case SQLITE_TEXT:
            guard let text = sqlite3_value_text(value) else { return nil }
            return UUID(text: UnsafeBufferPointer(start: text, count: Int(sqlite3_value_bytes(value))))
        default:
            return nil
        }
    }

    public var databaseValue: DatabaseValue {
        withUnsafeBytes(of: uuid) { DatabaseValue(storage: .blob(Data($0))) }
    }

    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> UUID? {
        switch dbValue.storage {
        case .blob(let data) where data.count == 16:
            return data.withUnsafeBytes { UUID(uuid: $0.loadUnaligned(as: uuid_t.self)) }
        case .string(let string):
            var string = string
            return string.withUTF8 { UUID(text: $0) }
        default:
            return nil
        }
    }

    /// Parses `E621E1F8-C36C-495A-93FC-0C247A3E6E5F`, in either case, as
    /// `UUID(uuidString:)` does, without its `sscanf` (most of the time of
    /// fetching players was spent there).
    init?(text: UnsafeBufferPointer<UInt8>) {
        guard text.count == 36 else { return nil }
        var bytes: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        let parsed = withUnsafeMutableBytes(of: &bytes) { bytes -> Bool in
            var position = 0
            for byteIndex in 0..<16 {
                if position == 8 || position == 13 || position == 18 || position == 23 {
                    guard text[position] == UInt8(ascii: "-") else { return false }
                    position += 1
                }
                guard let high = Hexadecimal.value(of: text[position]),
                      let low = Hexadecimal.value(of: text[position + 1]) else { return false }
                bytes[byteIndex] = high << 4 | low
                position += 2
            }
            return true
        }
        guard parsed else { return nil }
        self.init(uuid: bytes)
    }

    /// `E621E1F8-C36C-495A-93FC-0C247A3E6E5F`, or its lowercase form, as
    /// `uuidString` without its formatting machinery (records stored with
    /// a text UUID strategy format one at each write).
    func text(uppercase: Bool) -> String {
        let digits = uppercase ? Hexadecimal.uppercaseDigits : Hexadecimal.lowercaseDigits
        return withUnsafeBytes(of: uuid) { bytes in
            String(unsafeUninitializedCapacity: 36) { text in
                var position = 0
                for (byteIndex, byte) in bytes.enumerated() {
                    if byteIndex == 4 || byteIndex == 6 || byteIndex == 8 || byteIndex == 10 {
                        text[position] = UInt8(ascii: "-")
                        position += 1
                    }
                    text[position] = digits[Int(byte >> 4)]
                    text[position + 1] = digits[Int(byte & 0x0F)]
                    position += 2
                }
                return position
            }
        }
    }
}
