/// A cursor that skips the leading elements that satisfy a predicate:
/// see ``Cursor/drop(while:)``.
public final class DropWhileCursor<Base: Cursor>: Cursor {
    private let base: Base
    private let predicate: (Base.Element) throws -> Bool
    private var isDropping = true

    init(_ base: Base, _ predicate: @escaping (Base.Element) throws -> Bool) {
        self.base = base
        self.predicate = predicate
    }

    public func next() throws -> Base.Element? {
        guard isDropping else { return try base.next() }
        while let element = try base.next() {
            if try !predicate(element) {
                isDropping = false
                return element
            }
        }
        return nil
    }
}
