// Standard collections made from cursors. They iterate with the cursor's
// `forEach`, so that a database cursor loops in one place.

extension RangeReplaceableCollection {
    /// Creates a collection with the remaining elements of a cursor.
    ///
    /// ```swift
    /// let names = try Array(String.fetchCursor(db, sql: "SELECT name FROM player"))
    /// ```
    public init(_ cursor: some Cursor<Element>) throws {
        self.init()
        try append(contentsOf: cursor)
    }

    /// Creates a collection with the remaining elements of a cursor,
    /// reserving room for `minimumCapacity` of them.
    public init(_ cursor: some Cursor<Element>, minimumCapacity: Int) throws {
        self.init()
        reserveCapacity(minimumCapacity)
        try append(contentsOf: cursor)
    }

    /// Appends the remaining elements of a cursor.
    public mutating func append(contentsOf newElements: some Cursor<Element>) throws {
        try newElements.forEach { append($0) }
    }
}

extension Set {
    /// Creates a set with the remaining elements of a cursor.
    public init(_ cursor: some Cursor<Element>) throws {
        self.init()
        try cursor.forEach { insert($0) }
    }

    /// Creates a set with the remaining elements of a cursor, reserving
    /// room for `minimumCapacity` of them.
    public init(_ cursor: some Cursor<Element>, minimumCapacity: Int) throws {
        self.init(minimumCapacity: minimumCapacity)
        try cursor.forEach { insert($0) }
    }

    /// The set, with the remaining elements of a cursor added.
    public func union(_ cursor: some Cursor<Element>) throws -> Set<Element> {
        var result = self
        try cursor.forEach { result.insert($0) }
        return result
    }

    /// Adds the remaining elements of a cursor.
    public mutating func formUnion(_ cursor: some Cursor<Element>) throws {
        try cursor.forEach { insert($0) }
    }

    /// Keeps the elements that the cursor also returns.
    public mutating func formIntersection(_ cursor: some Cursor<Element>) throws {
        self = try intersection(cursor)
    }

    /// The elements of the set that the cursor also returns.
    public func intersection(_ cursor: some Cursor<Element>) throws -> Set<Element> {
        var result: Set<Element> = []
        try cursor.forEach { element in
            if contains(element) { result.insert(element) }
        }
        return result
    }
}

extension Dictionary {
    /// Creates a dictionary of arrays of the remaining elements of a
    /// cursor, grouped by the key `keyForValue` gives them.
    ///
    /// ```swift
    /// let playersByTeam = try Dictionary(grouping: Player.fetchCursor(db), by: \.teamID)
    /// ```
    public init<C: Cursor>(grouping cursor: C, by keyForValue: (C.Element) throws -> Key) throws
        where Value == [C.Element]
    {
        self.init()
        try cursor.forEach { element in
            try self[keyForValue(element), default: []].append(element)
        }
    }

    /// Like ``init(grouping:by:)``, reserving room for `minimumCapacity`
    /// keys.
    public init<C: Cursor>(minimumCapacity: Int, grouping cursor: C, by keyForValue: (C.Element) throws -> Key) throws
        where Value == [C.Element]
    {
        self.init(minimumCapacity: minimumCapacity)
        try cursor.forEach { element in
            try self[keyForValue(element), default: []].append(element)
        }
    }

    /// Creates a dictionary from the remaining pairs of a cursor. A
    /// duplicate key is a programmer error, which stops the program.
    public init(uniqueKeysWithValues keysAndValues: some Cursor<(Key, Value)>) throws {
        self.init()
        try insertUniqueKeysWithValues(keysAndValues)
    }

    /// Like ``init(uniqueKeysWithValues:)``, reserving room for
    /// `minimumCapacity` keys.
    public init(minimumCapacity: Int, uniqueKeysWithValues keysAndValues: some Cursor<(Key, Value)>) throws {
        self.init(minimumCapacity: minimumCapacity)
        try insertUniqueKeysWithValues(keysAndValues)
    }

    private mutating func insertUniqueKeysWithValues(_ keysAndValues: some Cursor<(Key, Value)>) throws {
        try keysAndValues.forEach { key, value in
            guard updateValue(value, forKey: key) == nil else {
                fatalError("Duplicate values for key: '\(String(describing: key))'")
            }
        }
    }
}

extension Sequence {
    /// A cursor of the elements of the cursors that `transform` returns,
    /// one after the other.
    public func flatMap<SegmentOfResult: Cursor>(_ transform: @escaping (Element) throws -> SegmentOfResult)
        -> FlattenCursor<MapCursor<AnyCursor<Element>, SegmentOfResult>>
    {
        AnyCursor(self).flatMap(transform)
    }
}
