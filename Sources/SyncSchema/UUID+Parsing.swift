import Foundation

extension UUID {
    /// A UUID read from its text, `XXXXXXXX-XXXX-XXXX-XXXX-XXXXXXXXXXXX` in
    /// hexadecimal digits of either case, as `UUID(uuidString:)` reads it,
    /// without `sscanf`: the engine reads one for every row it reads (a
    /// server's snapshot page, a device's staged rows).
    ///
    /// ```swift
    /// UUID(parsing: "5c2f0d9e-8a1b-4c3d-9e4f-0a1b2c3d4e5f")   // the same as UUID(uuidString:)
    /// ```
    public init?(parsing text: String) {
        var bytes: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var text = text
        let parsed = text.withUTF8 { utf8 -> Bool in
            guard utf8.count == 36 else { return false }
            return withUnsafeMutableBytes(of: &bytes) { output in
                var index = 0
                var byte = 0
                while index < 36 {
                    if index == 8 || index == 13 || index == 18 || index == 23 {
                        guard utf8[index] == UInt8(ascii: "-") else { return false }
                        index += 1
                        continue
                    }
                    guard let high = SyncHexadecimal.digit(utf8[index]), let low = SyncHexadecimal.digit(utf8[index + 1]) else { return false }
                    output[byte] = high << 4 | low
                    byte += 1
                    index += 2
                }
                return true
            }
        }
        guard parsed else { return nil }
        self.init(uuid: bytes)
    }

    /// The UUID's text in uppercase, as `uuidString` writes it, without
    /// `sprintf`: the engine writes one for every row it stages, and a
    /// device for the partition of every sealed row it opens.
    ///
    /// ```swift
    /// UUID(uuidString: "5c2f0d9e-8a1b-4c3d-9e4f-0a1b2c3d4e5f")!.uppercasedText   // "5C2F0D9E-8A1B-4C3D-9E4F-0A1B2C3D4E5F"
    /// ```
    public var uppercasedText: String {
        let digits: StaticString = "0123456789ABCDEF"
        return withUnsafeBytes(of: uuid) { bytes in
            String(unsafeUninitializedCapacity: 36) { output in
                var index = 0
                for (position, byte) in bytes.enumerated() {
                    if position == 4 || position == 6 || position == 8 || position == 10 {
                        output[index] = UInt8(ascii: "-")
                        index += 1
                    }
                    output[index] = digits.utf8Start[Int(byte >> 4)]
                    output[index + 1] = digits.utf8Start[Int(byte & 0x0F)]
                    index += 2
                }
                return 36
            }
        }
    }
}
