/// Hexadecimal digits, for raw keys and the text form of UUIDs.
enum Hexadecimal {
    static let uppercaseDigits = Array("0123456789ABCDEF".utf8)
    static let lowercaseDigits = Array("0123456789abcdef".utf8)

    /// The value of a hexadecimal digit in either case, or nil.
    static func value(of digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return digit - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
