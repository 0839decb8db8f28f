/// The named values of ``StatementArguments``, in the order they were
/// given: a statement has few parameters, and binding them in order finds
/// each name where the previous one ended with one string comparison,
/// where a dictionary would hash every name to build it and again to read
/// it. Equality and hashing ignore the order, as a dictionary's.
struct NamedValues: Hashable, Sendable, Sequence {
    typealias Element = (key: String, value: DatabaseValue)

    private var names: [String] = []
    private var values: [DatabaseValue] = []

    init() {}

    init(_ dictionary: [String: DatabaseValue]) {
        reserveCapacity(dictionary.count)
        for (name, value) in dictionary {
            names.append(name)
            values.append(value)
        }
    }

    var isEmpty: Bool { names.isEmpty }
    var count: Int { names.count }

    mutating func reserveCapacity(_ capacity: Int) {
        names.reserveCapacity(capacity)
        values.reserveCapacity(capacity)
    }

    /// The value of a name, or nil.
    subscript(name: String) -> DatabaseValue? {
        get { names.firstIndex(of: name).map { values[$0] } }
        set {
            if let newValue {
                updateValue(newValue, forKey: name)
            } else if let position = names.firstIndex(of: name) {
                names.remove(at: position)
                values.remove(at: position)
            }
        }
    }

    /// The value of a name, looked for from `hint` on, which it moves past
    /// the name found: reading names in the order they were given costs one
    /// comparison each.
    func value(forName name: String, hint: inout Int) -> DatabaseValue? {
        let count = names.count
        for offset in 0..<count {
            let position = (hint + offset) % count
            if names[position] == name {
                hint = position + 1 == count ? 0 : position + 1
                return values[position]
            }
        }
        return nil
    }

    /// Sets the value of a name; returns the value it replaced.
    @discardableResult
    mutating func updateValue(_ value: DatabaseValue, forKey name: String) -> DatabaseValue? {
        if let position = names.firstIndex(of: name) {
            defer { values[position] = value }
            return values[position]
        }
        names.append(name)
        values.append(value)
        return nil
    }

    func makeIterator() -> some IteratorProtocol<Element> {
        zip(names, values).lazy.map { (key: $0, value: $1) }.makeIterator()
    }

    static func == (lhs: NamedValues, rhs: NamedValues) -> Bool {
        lhs.count == rhs.count && lhs.allSatisfy { rhs[$0.key] == $0.value }
    }

    func hash(into hasher: inout Hasher) {
        // Order-independent: the sum of the hashes of the pairs.
        var sum = 0
        for (name, value) in self {
            var pairHasher = Hasher()
            pairHasher.combine(name)
            pairHasher.combine(value)
            sum &+= pairHasher.finalize()
        }
        hasher.combine(count)
        hasher.combine(sum)
    }
}
