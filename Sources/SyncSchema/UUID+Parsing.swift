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

}
