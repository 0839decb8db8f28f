import CipherDB
import CipherSync
import Foundation
import SyncEngine
import SyncSchema
import SyncSealing

/// Keys before rows (Docs/EndToEnd.md): what each sync does with the
/// server's key directory before it pushes, and after a push that created
/// groups.
extension SyncEndToEndSealer {
    /// Takes the keys wrapped to the device's user from the senders it
    /// expects, claims the user's own partition before its first row is
    /// sealed, and wraps the keys of the partitions the user owns to each
    /// of their readers the server has not received them for.
    public func exchangeKeys(with directory: SyncKeyDirectoryClient, in writer: any DatabaseWriter) async throws -> SyncKeyExchangeReport {
        let (identity, user) = try await writer.read { db in try Self.identity(in: db) }
        var report = SyncKeyExchangeReport()
        try await receiveKeys(from: directory, into: writer, identity: identity, user: user, &report)
        try await claimOwnPartition(in: directory, writer: writer, identity: identity, user: user, &report)
        try await rotateKeysOfUnsharedGroups(in: directory, writer: writer, identity: identity, user: user, &report)
        try await shareKeys(in: directory, writer: writer, identity: identity, user: user, &report)
        return report
    }

    /// Unwraps and keeps the keys wrapped to the user that the device does
    /// not hold yet, from the sender it expects: the user for their own
    /// partition; for a group, the sender of the group's first key the
    /// device took (trust on first use), whose identity key is the one the
    /// device first read for them.
    private func receiveKeys(from directory: SyncKeyDirectoryClient, into writer: any DatabaseWriter, identity: IdentityKeyPair,
                             user: String, _ report: inout SyncKeyExchangeReport) async throws {
        let wrapped = try await directory.wrappedKeys()
        let held = try await writer.read { db in try db.syncPartitionKeys() }
        let heldEpochs = Set(held.map(\.keyEpoch))
        var senders = Dictionary(held.map { ($0.partition, $0.sender) }, uniquingKeysWith: { first, _ in first })
        var accepted: [SyncWrappedKey] = []
        for key in wrapped.sorted(by: { ($0.partition, $0.epoch) < ($1.partition, $1.epoch) })
        where key.recipient == user && !heldEpochs.contains(SyncKeyEpoch(partition: key.partition, epoch: UInt32(key.epoch))) {
            if key.partition == SyncPartition.user(user) {
                guard key.sender == user else {
                    report.refusedKeys.append("a key of \(key.partition) from \(key.sender), though only \(user) makes it: refused")
                    continue
                }
            } else if Self.group(of: key.partition) != nil {
                if let expected = senders[key.partition], expected != key.sender {
                    report.refusedKeys.append("a key of \(key.partition) from \(key.sender), though its keys come from \(expected): refused")
                    continue
                }
                senders[key.partition] = key.sender
            } else {
                report.refusedKeys.append("a key of \(key.partition), another user's own partition, which is never shared: refused")
                continue
            }
            accepted.append(key)
        }
        guard !accepted.isEmpty else { return }
        let publicKeys = try await identityKeys(of: Set(accepted.map(\.sender)), directory: directory, writer: writer, identity: identity,
                                                user: user)
        var keys: [SyncStoredPartitionKey] = []
        for key in accepted {
            guard let sender = publicKeys[key.sender] else {
                report.refusedKeys.append("a key of \(key.partition) from \(key.sender), who has published no identity key: refused")
                continue
            }
            do {
                let partitionKey = try WrappedKey(text: key.wrapped).unwrap(partition: key.partition, epoch: UInt32(key.epoch), by: identity,
                                                                            from: sender)
                keys.append(SyncStoredPartitionKey(partition: key.partition, epoch: UInt32(key.epoch), bytes: partitionKey.bytes,
                                                   sender: key.sender))
            } catch {
                report.refusedKeys.append("a key of epoch \(key.epoch) of \(key.partition) from \(key.sender) that does not open for \(user): "
                    + "refused")
            }
        }
        try await writer.write { [keys] db in try db.saveSyncPartitionKeys(keys) }
        report.received += keys.count
    }

    /// Makes the key of the user's own partition, the first time the
    /// device has a row to seal in it, and stores it wrapped to the user
    /// before any row is sealed: of two devices that race, the second
    /// finds the first's stored (`409`) and takes it instead.
    private func claimOwnPartition(in directory: SyncKeyDirectoryClient, writer: any DatabaseWriter, identity: IdentityKeyPair,
                                   user: String, _ report: inout SyncKeyExchangeReport) async throws {
        let partition = SyncPartition.user(user)
        let ownTables = schema.tables.filter { $0.isEndToEnd && $0.access == .owner && !schema.groupTables.contains($0.name) }.map(\.name)
        guard !ownTables.isEmpty else { return }
        let needsKey = try await writer.read { db in
            guard try db.latestSyncPartitionKey(partition) == nil else { return false }
            return try Bool.fetchOne(db, sql: """
                SELECT EXISTS (SELECT 1 FROM \(SyncEngine.outboxTable) WHERE table_name IN (\(ownTables.map { _ in "?" }.joined(separator: ","))))
                """, arguments: StatementArguments(ownTables)) ?? false
        }
        guard needsKey else { return }
        let key = try PartitionKey.random(partition: partition, epoch: 1)
        let wrapped = try WrappedKey.wrap(key, from: identity, to: identity.publicKey)
        do {
            try await directory.store([SyncWrappedKey(partition: partition, epoch: 1, recipient: user, sender: user, wrapped: wrapped.text)])
        } catch let error as SyncError where error.status == 409 {
            // Another of the user's devices claimed it first.
            try await receiveKeys(from: directory, into: writer, identity: identity, user: user, &report)
            return
        }
        let stored = SyncStoredPartitionKey(partition: partition, epoch: 1, bytes: key.bytes, sender: user)
        try await writer.write { db in
            try db.saveSyncPartitionKeys([stored])
            try db.recordSyncKeyRecipients([stored.keyEpoch: [user]])
        }
        report.made += 1
        report.wrapped += 1
    }

    /// Makes a new epoch of the key of each group the user owns that a
    /// reader left (a membership deleted): wrapped to the user and the
    /// members left, never to the one who left, and stored before any row
    /// is sealed under it. Rows sealed before stay under their epoch. Of
    /// two of the user's devices that rotate at once, the second finds the
    /// first's epoch stored (`409`) and takes it.
    private func rotateKeysOfUnsharedGroups(in directory: SyncKeyDirectoryClient, writer: any DatabaseWriter, identity: IdentityKeyPair,
                                            user: String, _ report: inout SyncKeyExchangeReport) async throws {
        let schema = schema
        let rotations = try await writer.read { db -> [(SyncStoredPartitionKey, Set<String>)] in
            let recorded = try db.syncKeyRecipients()
            var latest: [String: SyncStoredPartitionKey] = [:]
            for key in try db.syncPartitionKeys() where key.sender == user && Self.group(of: key.partition) != nil {
                if (latest[key.partition]?.epoch ?? 0) < key.epoch { latest[key.partition] = key }
            }
            return try latest.values.compactMap { key in
                // A group deleted since has no reader left to keep out.
                guard let (table, id) = Self.group(of: key.partition), try db.isSyncedRow(table: table, id: id) else { return nil }
                let readers = Set(try Self.members(of: table, id: id, schema: schema, in: db)).union([user])
                return (recorded[key.keyEpoch] ?? []).isSubset(of: readers) ? nil : (key, readers)
            }
        }
        guard !rotations.isEmpty else { return }
        let publicKeys = try await identityKeys(of: rotations.reduce(into: Set()) { $0.formUnion($1.1) }, directory: directory,
                                                writer: writer, identity: identity, user: user)
        for (current, readers) in rotations {
            let key = try PartitionKey.random(partition: current.partition, epoch: current.epoch + 1)
            // A reader without an identity key gets it from shareKeys, which
            // says so.
            let wrapped = try Self.wrap(key, to: readers, publicKeys: publicKeys, identity: identity, user: user).wrapped
            do {
                try await directory.store(wrapped)
            } catch let error as SyncError where error.status == 409 {
                try await receiveKeys(from: directory, into: writer, identity: identity, user: user, &report)
                continue
            } catch let error as SyncError where error.status == 403 {
                // The server no longer holds the group as the user's (it
                // was deleted there): no key to rotate.
                continue
            }
            let stored = SyncStoredPartitionKey(partition: key.partition, epoch: key.epoch, bytes: key.bytes, sender: user)
            let recipients = Set(wrapped.map(\.recipient))
            try await writer.write { db in
                try db.saveSyncPartitionKeys([stored])
                try db.recordSyncKeyRecipients([stored.keyEpoch: recipients])
            }
            report.made += 1
            report.rotated += 1
            report.wrapped += wrapped.count
        }
    }

    /// Wraps each key the user made to the readers of its partition that
    /// the server has not received it for: the user (their other devices),
    /// and a group's members, as the device's membership rows list them.
    /// A group's keys wait until the server has its row (a push), since
    /// only a group's owner stores its keys; a member who has published no
    /// identity key waits too.
    private func shareKeys(in directory: SyncKeyDirectoryClient, writer: any DatabaseWriter, identity: IdentityKeyPair, user: String,
                           _ report: inout SyncKeyExchangeReport) async throws {
        let schema = schema
        let pending = try await writer.read { db -> [(SyncStoredPartitionKey, Set<String>)] in
            let recorded = try db.syncKeyRecipients()
            var pending: [(SyncStoredPartitionKey, Set<String>)] = []
            for key in try db.syncPartitionKeys() where key.sender == user {
                var readers: Set<String> = [user]
                if let (table, id) = Self.group(of: key.partition) {
                    guard try db.isSyncedRow(table: table, id: id) else { continue }
                    readers.formUnion(try Self.members(of: table, id: id, schema: schema, in: db))
                }
                let missing = readers.subtracting(recorded[key.keyEpoch] ?? [])
                if !missing.isEmpty { pending.append((key, missing)) }
            }
            return pending
        }
        guard !pending.isEmpty else { return }
        let publicKeys = try await identityKeys(of: pending.reduce(into: Set()) { $0.formUnion($1.1) }, directory: directory,
                                                writer: writer, identity: identity, user: user)
        for (key, recipients) in pending {
            let partitionKey = try PartitionKey(partition: key.partition, epoch: key.epoch, bytes: key.bytes)
            let (wrapped, withoutIdentity) = try Self.wrap(partitionKey, to: recipients, publicKeys: publicKeys, identity: identity,
                                                           user: user)
            for recipient in withoutIdentity where !report.withoutIdentity.contains(recipient) { report.withoutIdentity.append(recipient) }
            guard !wrapped.isEmpty else { continue }
            do {
                try await directory.store(wrapped)
            } catch let error as SyncError where error.status == 409 {
                // Stored already by a sync whose answer was lost: an
                // epoch's key is its owner's, wrapped by one of their
                // devices.
            } catch let error as SyncError where error.status == 403 {
                // The server does not hold the group as the user's (yet):
                // another server, or a push refused. Wrapped again at the
                // next exchange.
                continue
            }
            let shared = Set(wrapped.map(\.recipient))
            try await writer.write { db in try db.recordSyncKeyRecipients([key.keyEpoch: shared]) }
            report.wrapped += wrapped.count
        }
    }

    /// `key` wrapped by `user` to each of `recipients` whose identity key
    /// is known, in the order of their names; and those whose is not.
    private static func wrap(_ key: PartitionKey, to recipients: Set<String>, publicKeys: [String: IdentityPublicKey],
                             identity: IdentityKeyPair, user: String) throws -> (wrapped: [SyncWrappedKey], withoutIdentity: [String]) {
        var wrapped: [SyncWrappedKey] = [], withoutIdentity: [String] = []
        for recipient in recipients.sorted() {
            guard let publicKey = publicKeys[recipient] else {
                withoutIdentity.append(recipient)
                continue
            }
            wrapped.append(SyncWrappedKey(partition: key.partition, epoch: Int64(key.epoch), recipient: recipient, sender: user,
                                          wrapped: try WrappedKey.wrap(key, from: identity, to: publicKey).text))
        }
        return (wrapped, withoutIdentity)
    }

    /// The identity keys of `users`: the device's own, those it read
    /// before, and the others read from the server now and kept, each the
    /// first the device read for them. A user who has published none is
    /// left out.
    private func identityKeys(of users: Set<String>, directory: SyncKeyDirectoryClient, writer: any DatabaseWriter, identity: IdentityKeyPair,
                              user: String) async throws -> [String: IdentityPublicKey] {
        var keys: [String: IdentityPublicKey] = [:]
        if users.contains(user) { keys[user] = identity.publicKey }
        let others = users.subtracting([user]).sorted()
        let pinned = try await writer.read { db in
            try others.compactMap { other in try db.syncPinnedIdentityKey(of: other).map { (other, $0) } }
        }
        for (other, bytes) in pinned { keys[other] = try IdentityPublicKey(bytes: bytes) }
        let unknown = others.filter { keys[$0] == nil }
        guard !unknown.isEmpty else { return keys }
        var read: [(String, [UInt8])] = []
        for published in try await directory.identityKeys(of: unknown) {
            guard let bytes = try? IdentityPublicKey(text: published.publicKey).bytes else { continue }
            read.append((published.user, bytes))
        }
        let kept = try await writer.write { [read] db in try read.map { ($0.0, try db.pinSyncIdentityKey(of: $0.0, $0.1)) } }
        for (other, bytes) in kept { keys[other] = try IdentityPublicKey(bytes: bytes) }
        return keys
    }

    /// The members of a group, as the device's membership rows of it list
    /// them.
    static func members(of table: String, id: UUID, schema: SyncSchema, in db: Database) throws -> [String] {
        var members: [String] = []
        for membership in schema.tables {
            guard case .membership(let group, let member)? = membership.access, membership.column(group)?.references?.table == table else {
                continue
            }
            members += try String.fetchAll(db, sql: "SELECT \"\(member)\" FROM \"\(membership.name)\" WHERE \"\(group)\" = ?",
                                           arguments: [id.uuidString])
        }
        return members
    }
}
