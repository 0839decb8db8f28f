/// A cursor of the elements of the cursors of another, one after the
/// other: see ``Cursor/joined()`` and ``Cursor/flatMap(_:)-(Cursor)``.
public final class FlattenCursor<Base: Cursor>: Cursor where Base.Element: Cursor {
    private let base: Base
    private var inner: Base.Element?

    init(_ base: Base) {
        self.base = base
    }

    public func next() throws -> Base.Element.Element? {
        while true {
            if let element = try inner?.next() {
                return element
            }
            guard let nextInner = try base.next() else { return nil }
            inner = nextInner
        }
    }
}
