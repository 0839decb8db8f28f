import CipherDB
import CipherSync
import Foundation
import SyncEngine
import SyncRowSealing
import SyncSchema
import SyncSealing

/// Seals and opens the rows of a declaration's end-to-end tables for the
/// engine's client, with the keys the device keeps in its database
/// (Docs/EndToEnd.md): give it to the app's ``CipherSync/SyncEngineStore``.
///
/// ```swift
/// var store = SyncEngineStore(dbQueue, schema: schema)
/// store.endToEnd = SyncEndToEndSealer(schema: schema)
/// let client = SyncClient(transport: CurlTransport(), endpoint: store.rowsEndpoint(baseURL: url), store: store)
/// let report = try await client.pushThenPull()   // keys, then the sealed push, then the opened pull
/// ```
///
/// - A change is sealed under its partition's latest key, with a sealed
///   counter above both the device's cursor and the change's base
///   version, so that the values of a row's successive versions have
///   rising counters; its writer's change is its mutation id.
/// - A row the server sends is opened by ``SyncRowSealing/SyncRowSealer``
///   (``SyncEndToEndOpener``); the engine refuses it when its counter is
///   below the one the device last took for it
///   (``SyncSchema/SyncRowRefusal/replayed(table:id:)``).
/// - A group's first key is made by the device that creates the group;
///   the user's own partition's, by the first of their devices to write
///   in it, which claims it on the server before it pushes
///   (``exchangeKeys(with:in:)``).
public struct SyncEndToEndSealer: SyncEndToEndCodec {
    public let schema: SyncSchema

    public init(schema: SyncSchema) {
        self.schema = schema.declaration
    }

    public func seal(_ change: SyncChange, in db: Database) throws -> SyncChange? {
        // A delete carries no values: its id and table route it.
        guard change.operation == .upsert else { return change }
        let user = try Self.user(in: db)
        let sealer = SyncRowSealer(schema: schema, user: user)
        let partition = try sealer.partition(of: change.row)
        guard let key = try db.latestSyncPartitionKey(partition) ?? makeGroupKey(partition, by: user, in: db) else { return nil }
        let counter = try db.syncPosition().cursor.flatMap { try? SyncCursor($0).counter } ?? 0
        let sealedCounter = max(counter, change.baseVersion ?? 0) + 1
        var sealed = change
        sealed.row = try sealer.seal(change.row, key: PartitionKey(partition: key.partition, epoch: key.epoch, bytes: key.bytes),
                                     sealedCounter: sealedCounter, change: change.mutationID)
        return sealed
    }

    public func applied(_ sealed: SyncChange, in db: Database) throws {
        guard case .text(let text)? = sealed.row.values[SyncTable.sealedColumn] else { return }
        let value = try SealedValue(text: text)
        try db.recordSyncSealedCounter(SyncSealedCounter(counter: value.sealedCounter, change: value.change),
                                       table: sealed.row.table, id: sealed.row.id)
    }

    public func opener(in db: Database) throws -> any SyncRowOpener {
        var keys: [SyncKeyEpoch: PartitionKey] = [:]
        for stored in try db.syncPartitionKeys() {
            keys[stored.keyEpoch] = try PartitionKey(partition: stored.partition, epoch: stored.epoch, bytes: stored.bytes)
        }
        return SyncEndToEndOpener(sealer: SyncRowSealer(schema: schema, user: try Self.user(in: db)), keys: keys)
    }

    /// The first key of a group that this device created and never
    /// synced, made and kept now: the device that creates a group makes
    /// its key; any other waits to receive it from the group's owner.
    private func makeGroupKey(_ partition: String, by user: String, in db: Database) throws -> SyncStoredPartitionKey? {
        guard let (table, id) = Self.group(of: partition), try !db.isSyncedRow(table: table, id: id),
              let declared = schema.table(table),
              try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM \"\(table)\" WHERE \"\(declared.primaryKey)\" = ?)",
                                arguments: [id.uuidString]) == true else { return nil }
        let key = try PartitionKey.random(partition: partition, epoch: 1)
        let stored = SyncStoredPartitionKey(partition: partition, epoch: 1, bytes: key.bytes, sender: user)
        try db.saveSyncPartitionKeys([stored])
        return stored
    }

    /// The group table and row of a group partition (`group:TABLE:ID`).
    static func group(of partition: String) -> (table: String, id: UUID)? {
        let parts = partition.split(separator: ":", maxSplits: 2)
        guard parts.count == 3, parts[0] == "group", let id = UUID(uuidString: String(parts[2])) else { return nil }
        return (String(parts[1]), id)
    }

    /// The user the server took the device's identity for.
    static func user(in db: Database) throws -> String {
        guard let user = try db.syncIdentityUser() else {
            throw try db.syncIdentity() == nil ? SyncEndToEndError.noIdentity : .identityNotPublished
        }
        return user
    }

    /// The device's identity key pair and its user.
    static func identity(in db: Database) throws -> (pair: IdentityKeyPair, user: String) {
        let user = try user(in: db)
        guard let stored = try db.syncIdentity() else { throw SyncEndToEndError.noIdentity }
        return (try IdentityKeyPair(secretKey: stored.secretKey), user)
    }
}
