import CipherDB
import CipherSync
import Foundation
import ServerTestSupport
import SyncEngine
import SyncSchema
import SyncSealing
import Synchronization
import TestSupport
import Testing

/// End-to-end tables synced through the real server on both stores
/// (Docs/EndToEnd.md): keys before rows, the push sealed, the pull opened,
/// the server's store holding ciphertext alone.
@Suite struct EndToEndSyncTests {
    /// Alice's laptop writes a notebook, a note and a diary entry; her
    /// phone, made from the same recovery key, reads them; the server holds
    /// none of their text.
    @Test(arguments: StoreKind.allCases)
    func aUsersDevicesReadTheirSealedRowsAndTheServerHoldsNone(_ kind: StoreKind) async throws {
        try await SealedUsers.with(kind) { users in
            let recovery = try RecoveryKey.random()
            let laptop = try users.device(of: "alice", recoveryKey: recovery)
            let notebook = UUID(), note = UUID(), diary = UUID()
            try laptop.execute("INSERT INTO notebook (id, name) VALUES (?, 'canary notebook')", [notebook.uuidString])
            try laptop.execute("INSERT INTO note (id, notebook, title) VALUES (?, ?, 'canary note')", [note.uuidString, notebook.uuidString])
            try laptop.execute("INSERT INTO diary (id, text) VALUES (?, 'canary diary')", [diary.uuidString])
            let first = try await laptop.sync()
            #expect(first.push.counts.applied == 3)
            #expect(first.push.waitingForKeys == 0)
            #expect(first.keys.made == 1, "alice's own partition, claimed before the push")
            #expect(first.keys.wrapped == 2, "her own partition's key, then the notebook's once the server has it")

            let stored = try await users.storedText()
            #expect(!stored.contains("canary"), "\(stored)")
            #expect(stored.contains(SyncTable.sealedColumn))
            let page = try await users.get("/v1/sync/rows", as: "alice")
            #expect(!page.contains("canary"), "\(page)")

            let phone = try users.device(of: "alice", recoveryKey: recovery)
            let report = try await phone.sync()
            #expect(report.keys.received == 2)
            #expect(report.pull.refusedRows.isEmpty, "\(report.pull.refusedRows)")
            #expect(try phone.value("notebook", notebook, "name") == "canary notebook")
            #expect(try phone.value("note", note, "title") == "canary note")
            #expect(try phone.value("diary", diary, "text") == "canary diary")

            // The phone's edit, sealed in turn, reaches the laptop.
            try phone.execute("UPDATE note SET title = 'canary edited' WHERE id = ?", [note.uuidString])
            try await phone.sync()
            let back = try await laptop.sync()
            #expect(back.pull.refusedRows.isEmpty)
            #expect(try laptop.value("note", note, "title") == "canary edited")
        }
    }

    /// A notebook shared with bob reaches bob's device, his note reaches
    /// alice's, and carol, who is not a member, receives no key and no row.
    @Test(arguments: StoreKind.allCases)
    func aSharedNotebookIsReadByItsMemberAlone(_ kind: StoreKind) async throws {
        try await SealedUsers.with(kind) { users in
            let alice = try users.device(of: "alice", recoveryKey: RecoveryKey.random())
            let bob = try users.device(of: "bob", recoveryKey: RecoveryKey.random())
            let carol = try users.device(of: "carol", recoveryKey: RecoveryKey.random())
            try await bob.sync()
            try await carol.sync()
            let (notebook, note, _) = try alice.addNotebook("Trip", note: "Tickets", sharedWith: "bob")
            let shared = try await alice.sync()
            #expect(shared.keys.wrapped == 2, "the notebook's key, to alice and to bob")
            #expect(shared.keys.withoutIdentity.isEmpty)

            let received = try await bob.sync()
            #expect(received.keys.received == 1)
            #expect(received.pull.refusedRows.isEmpty, "\(received.pull.refusedRows)")
            #expect(try bob.value("note", note, "title") == "Tickets")

            let reply = UUID()
            try bob.execute("INSERT INTO note (id, notebook, title) VALUES (?, ?, 'Passports')", [reply.uuidString, notebook.uuidString])
            #expect(try await bob.sync().push.counts.applied == 1)
            try await alice.sync()
            #expect(try alice.value("note", reply, "title") == "Passports")

            let outsider = try await carol.sync()
            #expect(outsider.keys.received == 0)
            #expect(try carol.device.rowIDs("notebook").isEmpty && carol.device.rowIDs("note").isEmpty)
            #expect(try await users.get("/v1/keys/wrapped", as: "carol").contains("\"keys\":[]"))
        }
    }

    /// A member who has published no identity key yet gets the rows
    /// before the key: they wait, sealed, and open at the sync after the
    /// owner's next, which wraps the key to them.
    @Test(arguments: StoreKind.allCases)
    func rowsSentBeforeTheirKeyWaitAndOpenWhenItComes(_ kind: StoreKind) async throws {
        try await SealedUsers.with(kind) { users in
            let alice = try users.device(of: "alice", recoveryKey: RecoveryKey.random())
            let bob = try users.device(of: "bob", recoveryKey: RecoveryKey.random())
            let (_, note, _) = try alice.addNotebook("Trip", note: "Tickets", sharedWith: "bob")
            #expect(try await alice.sync().keys.withoutIdentity == ["bob"])

            let early = try await bob.sync()
            #expect(Set(early.pull.refusedRows.map(\.kind)) == ["noKey"])
            #expect(early.pull.refusedRows.count == 2)
            #expect(try bob.rowsWaitingForKeys() == 3, "the notebook, its note, and the membership that refers to it")
            #expect(try bob.device.rowIDs("notebook").isEmpty && bob.device.rowIDs("member").isEmpty,
                    "the membership waits with its notebook")

            #expect(try await alice.sync().keys.wrapped == 1)
            let opened = try await bob.sync()
            #expect(opened.keys.received == 1)
            #expect(opened.keys.opened == 3, "the notebook, its note and the membership that waited with it")
            #expect(try bob.value("note", note, "title") == "Tickets")
            #expect(try bob.device.rowIDs("member").count == 1)
            #expect(try bob.device.foreignKeyViolations() == 0)
        }
    }

    /// Unsharing rotates the notebook's key: what alice writes afterwards
    /// is sealed under an epoch bob never receives, so that even a server
    /// that keeps serving him the notebook gives him nothing he can open.
    @Test(arguments: StoreKind.allCases)
    func afterAnUnshareTheRemovedMemberOpensNothingWrittenAfterwards(_ kind: StoreKind) async throws {
        try await SealedUsers.with(kind) { users in
            let alice = try users.device(of: "alice", recoveryKey: RecoveryKey.random())
            let bob = try users.device(of: "bob", recoveryKey: RecoveryKey.random())
            try await bob.sync()
            let (trip, before, membership) = try alice.addNotebook("Trip", note: "Before", sharedWith: "bob")
            let after = UUID()
            try await alice.sync()
            try await bob.sync()
            #expect(try bob.value("note", before, "title") == "Before")

            try alice.execute("DELETE FROM member WHERE id = ?", [membership.uuidString])
            try alice.execute("INSERT INTO note (id, notebook, title) VALUES (?, ?, 'After')", [after.uuidString, trip.uuidString])
            let unshared = try await alice.sync()
            #expect(unshared.keys.rotated == 1)

            let page = try JSONSerialization.jsonObject(with: Data(try await users.get("/v1/sync/rows", as: "alice").utf8)) as? [String: Any]
            let rows = try #require(page?["rows"] as? [[String: Any]])
            let afterRow = try JSONSerialization.data(withJSONObject: try #require(rows.first { $0["id"] as? String == after.uuidString }))
            let injected = Mutex(false)
            let report = try await bob.sync { request, response in
                try response.editingRows(of: request) { rows in
                    guard injected.withLock({ done in defer { done = true }; return !done }) else { return }
                    rows.append(try #require(try JSONSerialization.jsonObject(with: afterRow) as? [String: Any]))
                }
            }
            #expect(report.pull.refusedRows.map(\.kind) == ["noKey"], "\(report.pull.refusedRows.map(\.message))")
            #expect(try bob.value("note", after, "title") == nil)
            let epochs = try await bob.device.dbQueue.read { db in try db.syncPartitionKeys().map(\.epoch) }
            #expect(epochs == [1])
        }
    }

    /// A shared notebook deleted on the owner's other device: its members
    /// are gone with it, and no key is rotated for a group the server no
    /// longer holds; the owner's syncs go on.
    @Test(arguments: StoreKind.allCases)
    func aSharedGroupDeletedElsewhereRotatesNothing(_ kind: StoreKind) async throws {
        try await SealedUsers.with(kind) { users in
            let recovery = try RecoveryKey.random()
            let laptop = try users.device(of: "alice", recoveryKey: recovery)
            let bob = try users.device(of: "bob", recoveryKey: RecoveryKey.random())
            try await bob.sync()
            let trip = try laptop.shareNotebook("Trip", with: "bob")
            #expect(try await laptop.sync().keys.wrapped == 2)
            let phone = try users.device(of: "alice", recoveryKey: recovery)
            try await phone.sync()
            try phone.execute("DELETE FROM notebook WHERE id = ?", [trip.uuidString])
            try await phone.sync()
            try await laptop.sync()
            #expect(try laptop.device.rowIDs("notebook").isEmpty)
            let after = try await laptop.sync()
            #expect(after.keys.rotated == 0)
        }
    }

    /// A dry run brings rows whose key it did not take (it exchanges no
    /// key): it reports them, and keeps none waiting.
    @Test(arguments: StoreKind.allCases)
    func aDryRunKeepsNoRowWaitingForItsKey(_ kind: StoreKind) async throws {
        try await SealedUsers.with(kind) { users in
            let alice = try users.device(of: "alice", recoveryKey: RecoveryKey.random())
            let bob = try users.device(of: "bob", recoveryKey: RecoveryKey.random())
            try await bob.sync()
            let trip = try alice.shareNotebook("Trip", with: "bob")
            try await alice.sync()
            let dry = try await bob.sync(dryRun: true)
            #expect(dry.pull.refusedRows.map(\.kind) == ["noKey"])
            #expect(try bob.rowsWaitingForKeys() == 0)
            let real = try await bob.sync()
            #expect(real.pull.refusedRows.isEmpty)
            #expect(try bob.value("notebook", trip, "name") == "Trip")
        }
    }

    /// The digests of end-to-end tables cover their clear columns and the
    /// counter and change of each row's sealed value, which the server and
    /// the device both know: honest syncs agree, and a device that lost a
    /// sealed row, or holds another value of one than its server, is found
    /// and repaired, by a sync answered 304 as by a delta.
    @Test(arguments: StoreKind.allCases)
    func aDeviceThatHoldsOtherSealedRowsThanItsServerIsFoundByTheDigestsAndRepaired(_ kind: StoreKind) async throws {
        try await SealedUsers.with(kind) { users in
            let recovery = try RecoveryKey.random()
            let laptop = try users.device(of: "alice", recoveryKey: recovery)
            let phone = try users.device(of: "alice", recoveryKey: recovery)
            let (notebook, note, _) = try laptop.addNotebook("Trip", note: "Tickets", sharedWith: "bob")
            #expect(try await laptop.sync().pull.repaired == nil)
            #expect(try await phone.sync().pull.repaired == nil)
            // A snapshot keeps no ETag: the delta after it does.
            #expect(try await phone.sync().pull.repaired == nil)
            #expect(try await phone.sync().pull.upToDate)
            try await phone.device.dbQueue.write { db in
                try db.mergingSyncChanges { try db.execute(sql: "DELETE FROM note WHERE id = ?", arguments: [note.uuidString]) }
            }
            let lost = try await phone.sync().pull
            let repaired = try #require(lost.repaired, "the sync answered 304 compares the stored digests")
            #expect(repaired.local.map(\.table) == ["note"] && repaired.local.map(\.rows) == [0] && repaired.server.map(\.rows) == [1])
            #expect(try phone.value("note", note, "title") == "Tickets")
            // The same version, another sealed value: as if the device had
            // taken another one.
            try await phone.device.dbQueue.write { db in
                try db.execute(sql: "UPDATE sync_row SET sealed_counter = sealed_counter + 1, hash = NULL WHERE row_id = ?",
                               arguments: [note.uuidString])
                try db.execute(sql: "INSERT INTO sync_digest_dirty (table_name, row_id) VALUES ('note', ?)", arguments: [note.uuidString])
            }
            try laptop.execute("UPDATE notebook SET name = 'Journey' WHERE id = ?", [notebook.uuidString])
            try await laptop.sync()
            let delta = try await phone.sync().pull
            #expect(delta.repaired?.local.map(\.table) == ["note"], "the delta's last page carries the digests")
            #expect(try await phone.sync().pull.repaired == nil)
        }
    }
}
