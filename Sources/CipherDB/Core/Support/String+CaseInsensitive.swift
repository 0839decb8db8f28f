extension String {
    /// Whether two identifiers are equal ignoring case as SQLite compares
    /// table and column names: ASCII letters only. Allocates nothing (the
    /// record paths compare names for every row).
    func isEqualIgnoringCase(_ other: String) -> Bool {
        if self == other { return true }
        var lhs = utf8.makeIterator(), rhs = other.utf8.makeIterator()
        while true {
            switch (lhs.next(), rhs.next()) {
            case (nil, nil):
                return true
            case let (left?, right?):
                if Self.asciiLowercase(left) != Self.asciiLowercase(right) { return false }
            default:
                return false
            }
        }
    }

    /// The byte with an ASCII capital letter made lowercase.
    static func asciiLowercase(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte
    }

    /// The same for names equal ignoring case (as SQLite: ASCII letters
    /// only), and different for most different names: comparing these
    /// integers first spares most string comparisons. The length and the
    /// first and last bytes, folded: no loop over the name.
    var caseFoldedSignature: UInt64 {
        let utf8 = self.utf8
        guard let first = utf8.first, let last = utf8.last else { return 0 }
        return UInt64(utf8.count) << 16 | UInt64(Self.asciiLowercase(first)) << 8 | UInt64(Self.asciiLowercase(last))
    }
}
