/// A cursor that skips the first elements of another: see
/// ``Cursor/dropFirst(_:)``.
public final class DropFirstCursor<Base: Cursor>: Cursor {
    private let base: Base
    private var remainingToDrop: Int

    init(_ base: Base, _ count: Int) {
        precondition(count >= 0, "Can't drop a negative number of elements from a cursor")
        self.base = base
        self.remainingToDrop = count
    }

    public func next() throws -> Base.Element? {
        while remainingToDrop > 0 {
            remainingToDrop -= 1
            guard try base.next() != nil else { return nil }
        }
        return try base.next()
    }
}
