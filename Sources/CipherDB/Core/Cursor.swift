/// A type that supplies the values of a sequence one at a time, and may
/// throw: the way to iterate database results without loading them all.
///
/// ```swift
/// let names = try String.fetchCursor(db, sql: "SELECT name FROM player")
/// while let name = try names.next() {
///     print(name)
/// }
/// ```
///
/// A database cursor must not be used outside the database access that
/// created it.
public protocol Cursor<Element>: AnyObject {
    associatedtype Element

    /// The next element, or nil when the cursor is exhausted.
    func next() throws -> Element?
}

// MARK: - Operations

extension Cursor {
    /// Whether the cursor has no more element. Consumes one element.
    public var isEmpty: Bool {
        get throws { try next() == nil }
    }

    /// Calls `body` on each element.
    public func forEach(_ body: (Element) throws -> Void) throws {
        while let element = try next() {
            try body(element)
        }
    }

    /// A cursor of transformed elements.
    public func map<T>(_ transform: @escaping (Element) throws -> T) -> MapCursor<Self, T> {
        MapCursor(self, transform)
    }

    /// A cursor of the elements that satisfy `isIncluded`.
    public func filter(_ isIncluded: @escaping (Element) throws -> Bool) -> FilterCursor<Self> {
        FilterCursor(self, isIncluded)
    }

    /// A cursor of the non-nil results of `transform`.
    public func compactMap<T>(_ transform: @escaping (Element) throws -> T?) -> MapCursor<FilterCursor<MapCursor<Self, T?>>, T> {
        map(transform).filter { $0 != nil }.map { $0! }
    }

    /// The first element that satisfies `predicate`.
    public func first(where predicate: (Element) throws -> Bool) throws -> Element? {
        while let element = try next() {
            if try predicate(element) { return element }
        }
        return nil
    }

    /// Whether an element satisfies `predicate`.
    public func contains(where predicate: (Element) throws -> Bool) throws -> Bool {
        try first(where: predicate) != nil
    }

    /// Combines the elements.
    public func reduce<Result>(_ initialResult: Result, _ nextPartialResult: (Result, Element) throws -> Result) throws -> Result {
        var result = initialResult
        while let element = try next() {
            result = try nextPartialResult(result, element)
        }
        return result
    }

    /// Combines the elements into a mutable accumulator.
    public func reduce<Result>(into initialResult: Result, _ updateAccumulatingResult: (inout Result, Element) throws -> Void) throws -> Result {
        var result = initialResult
        while let element = try next() {
            try updateAccumulatingResult(&result, element)
        }
        return result
    }

    /// A cursor of at most `maxLength` elements.
    public func prefix(_ maxLength: Int) -> PrefixCursor<Self> {
        PrefixCursor(self, maxLength)
    }
}

extension Cursor where Element: Equatable {
    /// Whether the cursor contains `element`.
    public func contains(_ element: Element) throws -> Bool {
        try contains { $0 == element }
    }
}

extension Array {
    /// Creates an array with the remaining elements of a cursor.
    public init<C: Cursor>(_ cursor: C) throws where C.Element == Element {
        self.init()
        while let element = try cursor.next() {
            append(element)
        }
    }

    /// Creates an array with the remaining elements of a cursor, reserving
    /// room for `minimumCapacity` of them.
    public init<C: Cursor>(_ cursor: C, minimumCapacity: Int) throws where C.Element == Element {
        self.init()
        reserveCapacity(minimumCapacity)
        while let element = try cursor.next() {
            append(element)
        }
    }
}

extension Set {
    /// Creates a set with the remaining elements of a cursor.
    public init<C: Cursor>(_ cursor: C) throws where C.Element == Element {
        self.init()
        while let element = try cursor.next() {
            insert(element)
        }
    }
}

// MARK: - Cursor types

/// A cursor of transformed elements: see ``Cursor/map(_:)``.
public final class MapCursor<Base: Cursor, Element>: Cursor {
    private let base: Base
    private let transform: (Base.Element) throws -> Element

    init(_ base: Base, _ transform: @escaping (Base.Element) throws -> Element) {
        self.base = base
        self.transform = transform
    }

    public func next() throws -> Element? {
        try base.next().map(transform)
    }
}

/// A cursor of filtered elements: see ``Cursor/filter(_:)``.
public final class FilterCursor<Base: Cursor>: Cursor {
    private let base: Base
    private let isIncluded: (Base.Element) throws -> Bool

    init(_ base: Base, _ isIncluded: @escaping (Base.Element) throws -> Bool) {
        self.base = base
        self.isIncluded = isIncluded
    }

    public func next() throws -> Base.Element? {
        while let element = try base.next() {
            if try isIncluded(element) { return element }
        }
        return nil
    }
}

/// A cursor of the first elements of another: see ``Cursor/prefix(_:)``.
public final class PrefixCursor<Base: Cursor>: Cursor {
    private let base: Base
    private var remaining: Int

    init(_ base: Base, _ maxLength: Int) {
        self.base = base
        self.remaining = maxLength
    }

    public func next() throws -> Base.Element? {
        guard remaining > 0 else { return nil }
        remaining -= 1
        return try base.next()
    }
}

/// A cursor over an array, or any type-erased cursor.
public final class AnyCursor<Element>: Cursor {
    private let element: () throws -> Element?

    public init<C: Cursor>(_ base: C) where C.Element == Element {
        element = base.next
    }

    public init(_ next: @escaping () throws -> Element?) {
        element = next
    }

    public convenience init<S: Sequence>(_ sequence: S) where S.Element == Element {
        var iterator = sequence.makeIterator()
        self.init { iterator.next() }
    }

    public func next() throws -> Element? {
        try element()
    }
}
