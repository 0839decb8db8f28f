import Foundation

/// What the engine's messages share: their protocol version, and how a
/// row in them is read by a declaration. They are written by
/// ``SyncJSONText`` and read by ``StrictJSON/Reader``.
public enum SyncMessages {
    /// The version of the engine's messages that this program reads and
    /// writes.
    public static let protocolVersion = 1

    /// A row that a message carries, read by its table's declaration; a
    /// refused row is the error of its first bad column, at its path.
    static func row(
        _ table: SyncTable, id: String, values: [String: SyncJSONScalar], carrying: SyncTable.RowColumns, path: String
    ) throws(SyncMessageError) -> SyncRow {
        do {
            return try table.row(from: SyncRowJSON(id: id, values: values), carrying: carrying)
        } catch {
            throw messageError(error, table, path: path)
        }
    }

    /// A row from the server, read by a declaration that may be older than
    /// the server's: the columns it does not declare are left out (it
    /// cannot store them; the server keeps them).
    /// `path` is made only for an error: a page reads thousands of rows.
    static func serverRow(
        _ table: SyncTable, id: String, values: [String: SyncJSONScalar], path: @autoclosure () -> String
    ) throws(SyncMessageError) -> SyncRow {
        do {
            return try table.row(fromServer: SyncRowJSON(id: id, values: values))
        } catch {
            throw messageError(error, table, path: path())
        }
    }

    /// A refused row's error at its path in the message.
    private static func messageError(_ error: SyncRowError, _ table: SyncTable, path: String) -> SyncMessageError {
        switch error {
        case .invalidID: SyncMessageError(path: "\(path).id", "not a UUID")
        case .unknownColumn(_, let column):
            SyncMessageError(path: "\(path).values.\(column)", "not a column of \(table.name) in this program's declaration")
        case .primaryKeyAmongValues(_, let column): SyncMessageError(path: "\(path).values.\(column)", "the primary key, which is the row's id")
        case .missingColumn(_, let column): SyncMessageError(path: "\(path).values.\(column)", "missing")
        case .invalidValue(_, let problem): SyncMessageError(path: "\(path).values.\(problem.column)", problem.description)
        }
    }
}
