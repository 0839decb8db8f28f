/// A type-erased cursor, or a cursor over a sequence or an iterator.
///
/// ```swift
/// let cursor = AnyCursor([1, 2, 3])
/// let names: AnyCursor<String> = AnyCursor(try String.fetchCursor(db, sql: "SELECT name FROM player"))
/// ```
public final class AnyCursor<Element>: Cursor {
    private let element: () throws -> Element?

    /// Wraps a cursor.
    public init<C: Cursor>(_ base: C) where C.Element == Element {
        element = base.next
    }

    /// A cursor whose elements are the results of `next`, until it
    /// returns nil.
    public init(_ next: @escaping () throws -> Element?) {
        element = next
    }

    /// A cursor over the elements of an iterator.
    public convenience init(iterator: some IteratorProtocol<Element>) {
        var iterator = iterator
        self.init { iterator.next() }
    }

    /// A cursor over the elements of a sequence.
    public convenience init(_ sequence: some Sequence<Element>) {
        self.init(iterator: sequence.makeIterator())
    }

    public func next() throws -> Element? {
        try element()
    }
}
