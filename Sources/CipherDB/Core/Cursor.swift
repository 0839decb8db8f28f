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

    /// The next element, or nil when the cursor is exhausted. Once nil is
    /// returned, later calls return nil.
    func next() throws -> Element?

    /// Calls `body` on each remaining element. Adapters forward it to
    /// their base, so that the loop runs in the innermost cursor.
    func forEach(_ body: (Element) throws -> Void) throws
}

// MARK: - Operations

extension Cursor {
    /// Whether the cursor has no more element. Consumes one element.
    public var isEmpty: Bool {
        get throws { try next() == nil }
    }

    /// Calls `body` on each remaining element.
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

    /// A cursor of the leading elements that satisfy `predicate`.
    public func prefix(while predicate: @escaping (Element) throws -> Bool) -> PrefixWhileCursor<Self> {
        PrefixWhileCursor(self, predicate)
    }

    /// A cursor of pairs `(n, element)`, where `n` counts from zero.
    ///
    /// ```swift
    /// for (index, name) in try Array(names.enumerated()) { ... }
    /// ```
    public func enumerated() -> EnumeratedCursor<Self> {
        EnumeratedCursor(self)
    }

    /// A cursor that skips the first `n` elements.
    public func dropFirst(_ n: Int) -> DropFirstCursor<Self> {
        DropFirstCursor(self, n)
    }

    /// A cursor that skips the first element.
    public func dropFirst() -> DropFirstCursor<Self> {
        dropFirst(1)
    }

    /// A cursor that skips the leading elements that satisfy `predicate`.
    public func drop(while predicate: @escaping (Element) throws -> Bool) -> DropWhileCursor<Self> {
        DropWhileCursor(self, predicate)
    }

    /// The remaining elements but the last `n`, in an array.
    public func dropLast(_ n: Int) throws -> [Element] {
        precondition(n >= 0, "Can't drop a negative number of elements from a cursor")
        let elements = try Array(self)
        return Array(elements.dropLast(n))
    }

    /// The remaining elements but the last, in an array.
    public func dropLast() throws -> [Element] {
        try dropLast(1)
    }

    /// The last `maxLength` remaining elements, in an array.
    public func suffix(_ maxLength: Int) throws -> [Element] {
        precondition(maxLength >= 0, "Can't take a suffix of negative length from a cursor")
        guard maxLength > 0 else {
            try forEach { _ in }
            return []
        }
        // A ring buffer: memory stays bounded by maxLength.
        var buffer: [Element] = []
        buffer.reserveCapacity(maxLength)
        var start = 0
        try forEach { element in
            if buffer.count < maxLength {
                buffer.append(element)
            } else {
                buffer[start] = element
                start = (start + 1) % maxLength
            }
        }
        return Array(buffer[start...] + buffer[..<start])
    }

    /// A cursor of the elements of the cursors that `transform` returns,
    /// one after the other.
    public func flatMap<SegmentOfResult: Cursor>(_ transform: @escaping (Element) throws -> SegmentOfResult)
        -> FlattenCursor<MapCursor<Self, SegmentOfResult>>
    {
        FlattenCursor(map(transform))
    }

    /// A cursor of the elements of the sequences that `transform` returns,
    /// one after the other.
    public func flatMap<SegmentOfResult: Sequence>(_ transform: @escaping (Element) throws -> SegmentOfResult)
        -> FlattenCursor<MapCursor<Self, AnyCursor<SegmentOfResult.Element>>>
    {
        FlattenCursor(map { try AnyCursor(transform($0)) })
    }

    /// The greatest element, as `areInIncreasingOrder` orders them.
    public func max(by areInIncreasingOrder: (Element, Element) throws -> Bool) throws -> Element? {
        var result: Element?
        try forEach { element in
            if let current = result, try !areInIncreasingOrder(current, element) { return }
            result = element
        }
        return result
    }

    /// The least element, as `areInIncreasingOrder` orders them.
    public func min(by areInIncreasingOrder: (Element, Element) throws -> Bool) throws -> Element? {
        var result: Element?
        try forEach { element in
            if let current = result, try !areInIncreasingOrder(element, current) { return }
            result = element
        }
        return result
    }
}

extension Cursor where Element: Comparable {
    /// The greatest element.
    public func max() throws -> Element? {
        try max(by: <)
    }

    /// The least element.
    public func min() throws -> Element? {
        try min(by: <)
    }
}

extension Cursor where Element: Cursor {
    /// A cursor of the elements of the element cursors, one after the other.
    public func joined() -> FlattenCursor<Self> {
        FlattenCursor(self)
    }
}

extension Cursor where Element: Sequence {
    /// A cursor of the elements of the element sequences, one after the
    /// other.
    public func joined() -> FlattenCursor<MapCursor<Self, AnyCursor<Element.Element>>> {
        flatMap { $0 }
    }
}

extension Cursor where Element: StringProtocol {
    /// The strings of the cursor, concatenated with `separator` between
    /// them.
    ///
    /// ```swift
    /// let names = try String.fetchCursor(db, sql: "SELECT name FROM player").joined(separator: ", ")
    /// ```
    public func joined(separator: String = "") throws -> String {
        var result = ""
        var isFirst = true
        try forEach { string in
            if isFirst {
                isFirst = false
            } else {
                result += separator
            }
            result += string
        }
        return result
    }
}

extension Cursor where Element: Equatable {
    /// Whether the cursor contains `element`.
    public func contains(_ element: Element) throws -> Bool {
        try contains { $0 == element }
    }
}
