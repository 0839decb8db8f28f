/// A cursor of the first elements of another: see ``Cursor/prefix(_:)``.
public final class PrefixCursor<Base: Cursor>: Cursor {
    private let base: Base
    private var remaining: Int

    init(_ base: Base, _ maxLength: Int) {
        precondition(maxLength >= 0, "Can't take a prefix of negative length from a cursor")
        self.base = base
        self.remaining = maxLength
    }

    public func next() throws -> Base.Element? {
        guard remaining > 0 else { return nil }
        remaining -= 1
        return try base.next()
    }
}
