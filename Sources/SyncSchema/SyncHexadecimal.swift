/// The hexadecimal texts of the sync protocols: a 64-bit value as 16
/// lowercase digits (an epoch, a digest's checksum), and a digit of
/// either case (UUIDs, JSON's `\u` escapes).
///
/// ```swift
/// SyncHexadecimal.text(255)                  // "00000000000000ff"
/// SyncHexadecimal.value("00000000000000ff")  // 255; nil for "FF" or fewer digits
/// ```
public enum SyncHexadecimal {
    /// `value` as 16 lowercase hexadecimal digits.
    public static func text(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// The value of 16 lowercase hexadecimal digits; nil for any other
    /// text.
    public static func value(_ text: some StringProtocol) -> UInt64? {
        guard text.utf8.count == 16 else { return nil }
        var value: UInt64 = 0
        for byte in text.utf8 {
            guard let digit = digit(byte), byte < UInt8(ascii: "A") || byte > UInt8(ascii: "F") else { return nil }
            value = value << 4 | UInt64(digit)
        }
        return value
    }

    /// The value of one hexadecimal digit, of either case.
    public static func digit(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
