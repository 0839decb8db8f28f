/// A synced column: its type and the rules its values follow, the same on
/// the device and on the server, which refuse the same values with the
/// same messages (``validated(_:)``).
///
/// ```swift
/// let name = SyncColumn(name: "name", type: .text, isRequired: true, isTrimmed: true, maximumLength: 100, maximumBytes: 400)
/// try name.validated(.text(" Arthur "))  // .text("Arthur")
/// ```
public struct SyncColumn: Sendable, Equatable {
    public let name: String
    public let type: SyncColumnType
    /// Whether a row must have a value (and, for text, a non-empty one).
    public let isRequired: Bool
    /// Text: surrounding white space is removed before it is stored.
    public let isTrimmed: Bool
    /// Text: the most characters, which every text column has, so that
    /// the server bounds what it stores.
    public let maximumLength: Int?
    /// Text: the most UTF-8 bytes (a character may hold any number of
    /// combining marks); four times ``maximumLength`` unless given.
    public let maximumBytes: Int?
    /// Text: whether C0, DEL and C1 control characters (newlines and
    /// terminal escapes among them) are accepted.
    public let allowsControlCharacters: Bool
    /// Integer: the smallest value accepted.
    public let minimum: Int64?
    /// Integer: the largest value accepted.
    public let maximum: Int64?
    /// A UUID column's foreign key.
    public let references: SyncReference?

    public init(
        name: String, type: SyncColumnType, isRequired: Bool = false, isTrimmed: Bool = false,
        maximumLength: Int? = nil, maximumBytes: Int? = nil, allowsControlCharacters: Bool = false,
        minimum: Int64? = nil, maximum: Int64? = nil, references: SyncReference? = nil
    ) {
        self.name = name
        self.type = type
        self.isRequired = isRequired
        self.isTrimmed = isTrimmed
        self.maximumLength = maximumLength
        self.maximumBytes = type == .text ? maximumBytes ?? maximumLength.map { $0 * 4 } : maximumBytes
        self.allowsControlCharacters = allowsControlCharacters
        self.minimum = minimum
        self.maximum = maximum
        self.references = references
    }

    /// Throws the first rule of a column that this one breaks.
    func check(in table: String) throws(SyncSchemaError) {
        try SyncIdentifier.check(name, table: table)
        func only(_ rule: String, _ isSet: Bool, for types: Set<SyncColumnType>) throws(SyncSchemaError) {
            if isSet, !types.contains(type) { throw .ruleNotForType(table: table, column: name, rule: rule, type: type) }
        }
        try only("trimmed", isTrimmed, for: [.text])
        try only("maximumLength", maximumLength != nil, for: [.text])
        try only("maximumBytes", maximumBytes != nil, for: [.text])
        try only("allowsControlCharacters", allowsControlCharacters, for: [.text])
        try only("minimum", minimum != nil, for: [.integer])
        try only("maximum", maximum != nil, for: [.integer])
        try only("references", references != nil, for: [.uuid])
        if type == .text {
            guard let maximumLength else { throw .missingMaximumLength(table: table, column: name) }
            guard maximumLength >= 1, let maximumBytes, maximumBytes >= maximumLength else {
                throw .invalidBound(table: table, column: name, "maximumLength must be at least 1, and maximumBytes at least maximumLength")
            }
        }
        if let minimum, let maximum, minimum > maximum {
            throw .invalidBound(table: table, column: name, "minimum \(minimum) is above maximum \(maximum)")
        }
        if references?.onDelete == .setNull, isRequired { throw .setNullOnRequiredColumn(table: table, column: name) }
    }
}
