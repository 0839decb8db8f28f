import Foundation
import SyncSchema
import SyncSealing

/// Seals the rows of a device's end-to-end tables into their server view
/// (``SyncSchema/serverView``: the clear columns and one sealed value),
/// and opens the server's rows back, checked against the declaration.
///
/// A row is sealed under its partition's key (``SyncSchema/partition(of:id:values:owner:)``,
/// the server's own rule, with the device's user as the owner of the rows
/// it creates), bound to its table, primary key and partition, and to the
/// header of ``SealedValue``.
///
/// ```swift
/// let sealer = SyncRowSealer(schema: schema, user: "alice")
/// let partition = try sealer.partition(of: row)
/// let sent = try sealer.seal(row, key: keys[partition], sealedCounter: cursorCounter + 1, change: mutationID)
/// let opened = try sealer.open(received) { partition, epoch in keys[partition, epoch] }
/// ```
public struct SyncRowSealer: Sendable {
    /// The declaration the device syncs (not its server view).
    public let schema: SyncSchema
    /// The device's user (their token's `sub`): the owner of the rows it
    /// creates, whose own partition is `user:NAME`.
    public let user: String

    /// The declaration format sealed values record: the first with
    /// end-to-end tables.
    public static let declarationFormat: UInt8 = 3

    /// The names of each end-to-end table's clear columns, by table.
    private let clearColumns: [String: Set<String>]

    public init(schema: SyncSchema, user: String) {
        self.schema = schema.declaration
        self.user = user
        clearColumns = Dictionary(uniqueKeysWithValues: self.schema.tables.filter(\.isEndToEnd).map { table in
            (table.name, Set(table.clearColumns.map(\.name)))
        })
    }

    /// The partition whose key seals `row`: for a group's rows, from the
    /// row's clear columns; for an owner's, the device's user's.
    public func partition(of row: SyncRow) throws(SyncRowRefusal) -> String {
        guard let table = schema.table(row.table) else { throw .noPartition(table: row.table, id: row.id) }
        return try partition(of: table, id: row.id, values: row.values)
    }

    private func partition(of table: SyncTable, id: UUID, values: [String: SyncValue]) throws(SyncRowRefusal) -> String {
        guard let partition = schema.partition(of: table, id: id, values: values, owner: user) else {
            throw .noPartition(table: table.name, id: id)
        }
        return partition
    }

    /// The row as the server stores it: its clear columns and the sealed
    /// value of the others it carries.
    public func seal(_ row: SyncRow, key: PartitionKey, sealedCounter: Int64, change: UUID) throws -> SyncRow {
        guard let table = schema.table(row.table), let clear = clearColumns[table.name] else { return row }
        let partition = try partition(of: table, id: row.id, values: row.values)
        let sealedValues = row.values.filter { !clear.contains($0.key) }
        let plaintext = Array(SyncStoredJSON.text(sealedValues).utf8)
        let sealed = try SealedValue.seal(plaintext, for: SealedRow(table: table.name, id: row.id, partition: partition), key: key,
                                          declarationFormat: Self.declarationFormat, sealedCounter: sealedCounter, change: change)
        var values = row.values.filter { clear.contains($0.key) }
        values[SyncTable.sealedColumn] = .text(sealed.text)
        return try table.serverView.row(id: row.id, values: values)
    }

    /// A row the server sent, opened: the declared row and the sealed
    /// value it came in (whose counter a device keeps, to refuse an older
    /// one served again). A row of a table that is not end-to-end is
    /// returned as it is, with no sealed value.
    public func open(_ received: SyncRow,
                     key: (_ partition: String, _ epoch: UInt32) -> PartitionKey?) throws(SyncRowRefusal) -> (row: SyncRow, sealed: SealedValue?) {
        guard let table = schema.table(received.table), let clear = clearColumns[table.name] else { return (received, nil) }
        guard case .text(let text)? = received.values[SyncTable.sealedColumn],
              received.values.keys.allSatisfy({ $0 == SyncTable.sealedColumn || clear.contains($0) }) else {
            throw .notSealed(table: table.name, id: received.id)
        }
        let sealed: SealedValue
        do {
            sealed = try SealedValue(text: text)
        } catch {
            throw .malformed(table: table.name, id: received.id, "\(error)")
        }
        // A format before end-to-end tables, or after what this program
        // reads, is no value it can check.
        guard (Int(Self.declarationFormat)...SyncSchema.formats.upperBound).contains(Int(sealed.declarationFormat)) else {
            throw .malformed(table: table.name, id: received.id, "it records declaration format \(sealed.declarationFormat)")
        }
        let clearValues = received.values.filter { clear.contains($0.key) }
        let partition = try partition(of: table, id: received.id, values: clearValues)
        guard let key = key(partition, sealed.epoch) else {
            throw .noKey(table: table.name, id: received.id, partition: partition, epoch: sealed.epoch)
        }
        let plaintext: [UInt8]
        do {
            plaintext = try sealed.open(for: SealedRow(table: table.name, id: received.id, partition: partition), key: key)
        } catch {
            throw .notAuthentic(table: table.name, id: received.id)
        }
        var scalars: [String: SyncJSONScalar]
        do {
            scalars = try SyncStoredJSON.scalars(from: String(decoding: plaintext, as: UTF8.self))
        } catch {
            throw .malformed(table: table.name, id: received.id, "its columns are not a JSON object")
        }
        // A sealed value holds no clear column: the clear ones route the
        // row, and are what the server checked.
        if let stray = scalars.keys.first(where: { clear.contains($0) || $0 == table.primaryKey }) {
            throw .breaksDeclaration(table: table.name, id: received.id, .unknownColumn(table: table.name, column: stray))
        }
        for (name, value) in clearValues { scalars[name] = SyncJSONScalar(value) }
        do {
            return (try table.row(fromServer: received.id, values: scalars), sealed)
        } catch {
            throw .breaksDeclaration(table: table.name, id: received.id, error)
        }
    }
}
