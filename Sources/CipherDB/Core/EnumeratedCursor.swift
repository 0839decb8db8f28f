/// A cursor of pairs `(n, element)`, where `n` counts from zero: see
/// ``Cursor/enumerated()``.
public final class EnumeratedCursor<Base: Cursor>: Cursor {
    private let base: Base
    private var index = 0

    init(_ base: Base) {
        self.base = base
    }

    public func next() throws -> (Int, Base.Element)? {
        guard let element = try base.next() else { return nil }
        defer { index += 1 }
        return (index, element)
    }

    public func forEach(_ body: ((Int, Base.Element)) throws -> Void) throws {
        try base.forEach { element in
            defer { index += 1 }
            try body((index, element))
        }
    }
}
