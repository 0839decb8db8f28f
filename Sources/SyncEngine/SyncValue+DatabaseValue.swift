import CipherDB
import Foundation
import SyncSchema

extension SyncValue {
    /// The value of a column of `type`, as the database stores it. A
    /// stored value of another kind gives a value that the column refuses,
    /// so that its error is the column's own sentence
    /// (``SyncSchema/SyncColumn/validated(_:)``).
    init(_ value: DatabaseValue, for type: SyncColumnType) {
        switch (type, value.storage) {
        case (_, .null): self = .null
        case (.uuid, _): self = UUID.fromDatabaseValue(value).map(SyncValue.uuid) ?? .text(value.description)
        case (.text, .string(let text)): self = .text(text)
        case (.integer, .int64(let integer)): self = .integer(integer)
        case (.real, .double(let real)): self = .real(real)
        case (.real, .int64(let integer)): self = .real(Double(integer))
        case (.boolean, .int64(let integer)) where integer == 0 || integer == 1: self = .boolean(integer == 1)
        case (_, .int64(let integer)): self = .integer(integer)
        case (_, .double(let real)): self = .real(real)
        case (_, .string(let text)): self = .text(text)
        case (_, .blob): self = .text(value.description)
        }
    }

    /// The value as a synced table stores it: a UUID as uppercase text, a
    /// boolean as 0 or 1.
    var databaseValue: DatabaseValue {
        switch self {
        case .null: .null
        case .uuid(let uuid): uuid.uuidString.databaseValue
        case .text(let text): text.databaseValue
        case .integer(let integer): integer.databaseValue
        case .real(let real): real.databaseValue
        case .boolean(let boolean): (boolean ? 1 : 0).databaseValue
        }
    }
}
