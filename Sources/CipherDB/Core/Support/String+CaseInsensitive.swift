extension String {
    /// Whether two identifiers are equal ignoring case, as SQLite compares
    /// table and column names, without allocating for ASCII names (the
    /// record paths compare them for every row).
    func isEqualIgnoringCase(_ other: String) -> Bool {
        if self == other { return true }
        var lhs = utf8.makeIterator(), rhs = other.utf8.makeIterator()
        while true {
            switch (lhs.next(), rhs.next()) {
            case (nil, nil):
                return true
            case let (left?, right?):
                guard left < 0x80, right < 0x80 else { return lowercased() == other.lowercased() }
                if Self.asciiLowercase(left) != Self.asciiLowercase(right) { return false }
            default:
                return false
            }
        }
    }

    private static func asciiLowercase(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 : byte
    }
}
