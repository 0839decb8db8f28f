/// A cursor of the leading elements that satisfy a predicate: see
/// ``Cursor/prefix(while:)``.
public final class PrefixWhileCursor<Base: Cursor>: Cursor {
    private let base: Base
    private let predicate: (Base.Element) throws -> Bool
    private var isDone = false

    init(_ base: Base, _ predicate: @escaping (Base.Element) throws -> Bool) {
        self.base = base
        self.predicate = predicate
    }

    public func next() throws -> Base.Element? {
        guard !isDone, let element = try base.next() else { return nil }
        if try predicate(element) { return element }
        isDone = true
        return nil
    }
}
