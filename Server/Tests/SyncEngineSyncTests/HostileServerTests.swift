import CipherDB
import CipherSync
import Foundation
import ServerTestSupport
import SyncSchema
import SyncSealing
import Synchronization
import TestSupport
import Testing

/// What a hostile server could do to the rows of end-to-end tables, done
/// to the answers of the real server on each store (Docs/EndToEnd.md):
/// each time the member's device refuses the row, keeps its previous
/// value, names the row in its report, and merges the sync's other rows.
@Suite struct HostileServerTests {
    /// Alice's notebooks `trip` and `work`, both shared with bob, with a
    /// note each that bob's device holds; then alice edits both notes, so
    /// that bob's next sync brings both.
    struct Shared: Sendable {
        let users: SealedUsers
        let alice: SealedDevice
        let bob: SealedDevice
        let trip = UUID(), work = UUID(), tickets = UUID(), agenda = UUID()
        /// The sealed value of the first version of `tickets`, as the
        /// server sent it to bob.
        let firstTickets: String

        init(_ users: SealedUsers) async throws {
            self.users = users
            alice = try users.device(of: "alice", recoveryKey: RecoveryKey.random())
            bob = try users.device(of: "bob", recoveryKey: RecoveryKey.random())
            try await bob.sync()
            for (notebook, note, title) in [(trip, tickets, "Tickets"), (work, agenda, "Agenda")] {
                try alice.execute("INSERT INTO notebook (id, name) VALUES (?, 'Notebook')", [notebook.uuidString])
                try alice.execute("INSERT INTO note (id, notebook, title) VALUES (?, ?, ?)", [note.uuidString, notebook.uuidString, title])
                try alice.execute("INSERT INTO member (id, notebook, user) VALUES (?, ?, 'bob')", [UUID().uuidString, notebook.uuidString])
            }
            try await alice.sync()
            firstTickets = try await HostileServerTests.sealedValue(of: tickets, bySyncing: bob)
            try #require(try bob.value("note", tickets, "title") == "Tickets")
            try alice.execute("UPDATE note SET title = title || ' v2'")
            try await alice.sync()
        }

        /// Bob's sync through a server that edits the rows of each page.
        func bobSyncs(editing edit: @escaping @Sendable (inout [[String: Any]]) throws -> Void) async throws -> SyncPushPullReport {
            try await bob.sync { request, response in try response.editingRows(of: request, edit) }
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aFlippedBitIsRefused(_ kind: StoreKind) async throws {
        try await SealedUsers.with(kind) { users in
            let shared = try await Shared(users)
            let report = try await shared.bobSyncs { rows in
                try Self.edit(&rows, id: shared.tickets) { row in
                    var sealed = try Self.sealedBytes(row)
                    sealed[sealed.count - 1] ^= 0x01
                    row["values", "sync_sealed"] = Data(sealed).base64EncodedString()
                }
            }
            try Self.expect(report, refused: [shared.tickets: "notAuthentic"], kept: shared, merged: true)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func sealedValuesSwappedBetweenRowsAreRefused(_ kind: StoreKind) async throws {
        try await SealedUsers.with(kind) { users in
            let shared = try await Shared(users)
            let report = try await shared.bobSyncs { rows in
                let tickets = try #require(rows.firstIndex { $0["id"] as? String == shared.tickets.uuidString })
                let agenda = try #require(rows.firstIndex { $0["id"] as? String == shared.agenda.uuidString })
                let first = rows[tickets]["values", "sync_sealed"]
                rows[tickets]["values", "sync_sealed"] = rows[agenda]["values", "sync_sealed"]
                rows[agenda]["values", "sync_sealed"] = first
            }
            try Self.expect(report, refused: [shared.tickets: "notAuthentic", shared.agenda: "notAuthentic"], kept: shared, merged: false)
        }
    }

    /// The note moved to the other notebook bob reads, by its clear group
    /// column: the value is bound to its partition, and refused in the other.
    @Test(arguments: StoreKind.allCases)
    func aSealedValueMovedToAnotherPartitionIsRefused(_ kind: StoreKind) async throws {
        try await SealedUsers.with(kind) { users in
            let shared = try await Shared(users)
            let report = try await shared.bobSyncs { rows in
                try Self.edit(&rows, id: shared.tickets) { row in row["values", "notebook"] = shared.work.uuidString }
            }
            try Self.expect(report, refused: [shared.tickets: "notAuthentic"], kept: shared, merged: true)
            #expect(try shared.bob.value("note", shared.tickets, "notebook") == shared.trip.uuidString)
        }
    }

    /// An earlier sealed value of a row, served again under a later
    /// version: bob's device took a later one, and refuses it.
    @Test(arguments: StoreKind.allCases)
    func anOlderSealedValueServedAgainIsRefused(_ kind: StoreKind) async throws {
        try await SealedUsers.with(kind) { users in
            let shared = try await Shared(users)
            try await shared.bob.sync()
            #expect(try shared.bob.value("note", shared.tickets, "title") == "Tickets v2")
            try shared.alice.execute("UPDATE note SET title = 'Tickets v3' WHERE id = ?", [shared.tickets.uuidString])
            try await shared.alice.sync()
            let first = shared.firstTickets
            let report = try await shared.bobSyncs { rows in
                try Self.edit(&rows, id: shared.tickets) { row in row["values", "sync_sealed"] = first }
            }
            #expect(report.pull.refusedRows.map(\.kind) == ["replayed"], "\(report.pull.refusedRows.map(\.message))")
            #expect(try shared.bob.value("note", shared.tickets, "title") == "Tickets v2")
        }
    }

    /// A later page of one pull that serves again the sealed value of a
    /// row that bob's device took, after an earlier page of the pull
    /// brought a later one: the device refuses the older one (the same
    /// value again is no replay of the one it took), and keeps the later.
    @Test(arguments: StoreKind.allCases)
    func anOlderSealedValueOnALaterPageOfThePullIsRefused(_ kind: StoreKind) async throws {
        try await SealedUsers.with(kind) { users in
            let shared = try await Shared(users)
            let taken = try await Self.sealedValue(of: shared.tickets, bySyncing: shared.bob)
            #expect(try shared.bob.value("note", shared.tickets, "title") == "Tickets v2")
            try shared.alice.execute("UPDATE note SET title = 'Tickets v3' WHERE id = ?", [shared.tickets.uuidString])
            try await shared.alice.sync()
            // The delta that brings the third version is split in two
            // pages; the second brings the second version again.
            let firstPage = Mutex<Data?>(nil)
            let report = try await shared.bob.sync { request, response in
                guard request.url.path.hasSuffix("/v1/sync/rows"), request.url.query?.contains("since=") == true else { return response }
                if request.url.query?.contains("hostile-page=2") == true {
                    let first = try #require(firstPage.withLock { $0 })
                    var page = try #require(try JSONSerialization.jsonObject(with: first) as? [String: Any])
                    var row = try #require((page["rows"] as? [[String: Any]])?.first { $0["id"] as? String == shared.tickets.uuidString })
                    // A later version than the first page's cursor, as a
                    // later page's rows must be.
                    var cursor = try SyncCursor(try #require(page["cursor"] as? String))
                    cursor.counter += 1
                    (row["version"], page["cursor"]) = (cursor.counter, cursor.description)
                    row["values", "sync_sealed"] = taken
                    (page["rows"], page["tombstones"], page["complete"], page["next"]) = ([row], [], true, NSNull())
                    var answer = response
                    (answer.status, answer.body) = (200, try JSONSerialization.data(withJSONObject: page))
                    return answer
                }
                firstPage.withLock { $0 = response.body }
                var page = try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
                (page["complete"], page["next"]) = (false, request.url.absoluteString + "&hostile-page=2")
                var answer = response
                answer.body = try JSONSerialization.data(withJSONObject: page)
                return answer
            }
            #expect(report.pull.pages == 2)
            #expect(report.pull.refusedRows.map(\.kind) == ["replayed"], "\(report.pull.refusedRows.map(\.message))")
            #expect(try shared.bob.value("note", shared.tickets, "title") == "Tickets v3")
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aRowServedInTheClearIsRefused(_ kind: StoreKind) async throws {
        try await SealedUsers.with(kind) { users in
            let shared = try await Shared(users)
            let report = try await shared.bobSyncs { rows in
                try Self.edit(&rows, id: shared.tickets) { row in
                    row["values"] = ["notebook": shared.trip.uuidString, "title": "Forged by the server"]
                }
            }
            try Self.expect(report, refused: [shared.tickets: "notSealed"], kept: shared, merged: true)
        }
    }

    /// Alice's own wrapped key of the notebook, served to bob as his: it
    /// does not open for him, and he takes no key of the server's.
    @Test(arguments: StoreKind.allCases)
    func aWrappedKeySwappedForAnotherUsersIsRefused(_ kind: StoreKind) async throws {
        try await SealedUsers.with(kind) { users in
            let alice = try users.device(of: "alice", recoveryKey: RecoveryKey.random())
            let bob = try users.device(of: "bob", recoveryKey: RecoveryKey.random())
            try await bob.sync()
            let trip = try alice.shareNotebook("Trip", with: "bob")
            try await alice.sync()
            let alicesKeys = try SyncKeyMessages.wrappedKeys(from: Data(try await users.get("/v1/keys/wrapped", as: "alice").utf8))
            let alicesKey = try #require(alicesKeys.first { $0.partition == SyncPartition.group(table: "notebook", id: trip) })
            let report = try await bob.sync { request, response in
                guard request.url.path.hasSuffix("/v1/keys/wrapped"), request.method == "GET" else { return response }
                var swapped = response
                swapped.body = SyncKeyMessages.wrappedKeys([SyncWrappedKey(partition: alicesKey.partition, epoch: alicesKey.epoch, recipient: "bob",
                                                                           sender: "alice", wrapped: alicesKey.wrapped)],
                                                           withSenders: true)
                return swapped
            }
            #expect(report.keys.received == 0)
            #expect(report.keys.refusedKeys.count == 1, "\(report.keys.refusedKeys)")
            #expect(report.pull.refusedRows.map(\.kind) == ["noKey"])
            #expect(try bob.device.rowIDs("notebook").isEmpty)
            let keys = try await bob.device.dbQueue.read { db in try db.syncPartitionKeys() }
            #expect(keys.isEmpty)
        }
    }

    /// A row altered while bob had no key to open it: it waits, and is
    /// refused when the key comes, named in the key exchange's report.
    @Test(arguments: StoreKind.allCases)
    func aRowAlteredWhileItWaitedForItsKeyIsRefusedWhenTheKeyComes(_ kind: StoreKind) async throws {
        try await SealedUsers.with(kind) { users in
            let alice = try users.device(of: "alice", recoveryKey: RecoveryKey.random())
            let bob = try users.device(of: "bob", recoveryKey: RecoveryKey.random())
            let (trip, tickets, _) = try alice.addNotebook("Trip", note: "Tickets", sharedWith: "bob")
            #expect(try await alice.sync().keys.withoutIdentity == ["bob"])
            let early = try await bob.sync { request, response in
                try response.editingRows(of: request) { rows in
                    try Self.edit(&rows, id: tickets) { row in
                        var sealed = try Self.sealedBytes(row)
                        sealed[sealed.count - 1] ^= 0x01
                        row["values", "sync_sealed"] = Data(sealed).base64EncodedString()
                    }
                }
            }
            #expect(early.pull.refusedRows.map(\.kind) == ["noKey", "noKey"])
            try await alice.sync()
            let later = try await bob.sync()
            #expect(later.keys.received == 1)
            #expect(later.keys.refusedRows.map(\.kind) == ["notAuthentic"], "\(later.keys.refusedRows.map(\.message))")
            #expect(later.keys.refusedRows.map(\.id) == [tickets])
            #expect(try bob.value("notebook", trip, "name") == "Trip")
            #expect(try bob.value("note", tickets, "title") == nil)
        }
    }

    // MARK: - Helpers

    /// Edits the row `id` of a page's rows, which must hold it.
    static func edit(_ rows: inout [[String: Any]], id: UUID, _ change: (inout [String: Any]) throws -> Void) throws {
        let index = try #require(rows.firstIndex { $0["id"] as? String == id.uuidString }, "the page holds \(id)")
        try change(&rows[index])
    }

    /// The sealed value of row `id` that `device`'s sync takes, as the
    /// server sent it.
    static func sealedValue(of id: UUID, bySyncing device: SealedDevice) async throws -> String {
        let sent = Mutex<String?>(nil)
        try await device.sync { request, response in
            try response.editingRows(of: request) { rows in
                if let row = rows.first(where: { $0["id"] as? String == id.uuidString }) {
                    sent.withLock { $0 = row["values", "sync_sealed"] as? String }
                }
            }
        }
        return try #require(sent.withLock { $0 }, "the sync brings \(id)")
    }

    /// The bytes of a row's sealed value.
    static func sealedBytes(_ row: [String: Any]) throws -> [UInt8] {
        let text = try #require(row["values", "sync_sealed"] as? String)
        return Array(try #require(Data(base64Encoded: text)))
    }

    /// The report names exactly the `refused` rows (by kind); bob keeps
    /// their earlier title; and when `merged`, the other note's edit came.
    static func expect(_ report: SyncPushPullReport, refused: [UUID: String], kept shared: Shared, merged: Bool) throws {
        #expect(Dictionary(uniqueKeysWithValues: report.pull.refusedRows.map { ($0.id, $0.kind) }) == refused,
                "\(report.pull.refusedRows.map(\.message))")
        for id in refused.keys {
            #expect(try shared.bob.value("note", id, "title") == (id == shared.tickets ? "Tickets" : "Agenda"))
        }
        if merged { #expect(try shared.bob.value("note", shared.agenda, "title") == "Agenda v2") }
        #expect(try shared.bob.device.foreignKeyViolations() == 0)
    }
}

private extension Dictionary where Key == String, Value == Any {
    /// A member of the object under `key`: `row["values", "title"]`.
    subscript(key: String, member: String) -> Any? {
        get { (self[key] as? [String: Any])?[member] }
        set {
            var object = self[key] as? [String: Any] ?? [:]
            object[member] = newValue
            self[key] = object
        }
    }
}
