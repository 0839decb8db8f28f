/// A row that its table's declaration refuses: the first thing wrong with
/// it, by case for callers that tell them apart (the server answers 422,
/// the sync decoder refuses the page), and one sentence that names the
/// table and the column.
public enum SyncRowError: Error, Equatable, Sendable, CustomStringConvertible {
    /// An id that is not a UUID.
    case invalidID(table: String, String)
    /// A column that the table does not declare: a client of a later
    /// declaration than the receiver's, or a misspelled name.
    case unknownColumn(table: String, column: String)
    /// The primary key among the values: it is the row's id.
    case primaryKeyAmongValues(table: String, column: String)
    /// A whole row without a value for a required column.
    case missingColumn(table: String, column: String)
    /// A value that its column's rules refuse.
    case invalidValue(table: String, SyncValueError)

    /// What is wrong, without the table: `the title is too long: …`.
    public var problemDescription: String {
        if case .invalidValue(_, let problem) = self { return problem.description }
        return description
    }

    public var description: String {
        switch self {
        case .invalidID(let table, let id):
            "the \(table) row's id \(id.debugDescription) is not a UUID"
        case .unknownColumn(let table, let column):
            "the \(table) table has no column \(column): the receiver's declaration does not know it"
        case .primaryKeyAmongValues(let table, let column):
            "the \(table) row carries its primary key \(column) among its values: it is the row's id"
        case .missingColumn(let table, let column):
            "the \(table) row has no \(column): a whole row carries every required column"
        case .invalidValue(let table, let error):
            "the \(table) row is not valid: \(error)"
        }
    }
}
