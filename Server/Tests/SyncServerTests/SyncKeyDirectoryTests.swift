import Foundation
import ServerTestSupport
import SyncSchema
import SyncServer
import Testing

/// The keys of end-to-end tables, on both stores: a user's first identity
/// key stays theirs, a partition's owner alone wraps its keys, an epoch's
/// key never changes, and each user reads the keys wrapped to them alone.
@Suite struct SyncKeyDirectoryTests {
    let alice = SyncUser(name: "alice", roles: []), bob = SyncUser(name: "bob", roles: [])

    /// Alice's notebook, shared with bob; its partition.
    func sharedNotebook(_ store: any SyncRowStore) async throws -> String {
        let rows = MemoryRows(schema: .testUsers)
        let notebook = UUID()
        let answers = try await store.apply(SyncWrite([
            try rows.upsert("notebook", notebook, ["name": .text("Shared")]),
            try rows.upsert("member", UUID(), ["notebook": .uuid(notebook), "user": .text("bob")]),
        ], by: alice), at: Date())
        #expect(answers?.map(\.status) == [.applied, .applied])
        return SyncPartition.group(table: "notebook", id: notebook)
    }

    func key(_ partition: String, epoch: Int64 = 1, to recipient: String, by sender: String = "alice",
             wrapped: String = "d3JhcHBlZA==") -> SyncWrappedKey {
        SyncWrappedKey(partition: partition, epoch: epoch, recipient: recipient, sender: sender, wrapped: wrapped)
    }

    @Test(arguments: StoreKind.allCases)
    func aUsersFirstIdentityKeyStaysTheirs(_ kind: StoreKind) async throws {
        try await TestSyncStore.with(kind, schema: .testUsers) { store, _ in
            let first = SyncIdentityKey(user: "alice", publicKey: "Zmlyc3Q="), other = SyncIdentityKey(user: "alice", publicKey: "b3RoZXI=")
            #expect(try await store.publish(first) == .published)
            #expect(try await store.publish(first) == .unchanged)
            #expect(try await store.publish(other) == .conflicting)
            let published = try await store.identityKeys(of: ["alice", "bob"])
            #expect(published == [first])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aPartitionsOwnerWrapsItsKeysToItsReadersAlone(_ kind: StoreKind) async throws {
        try await TestSyncStore.with(kind, schema: .testUsers) { store, _ in
            let partition = try await sharedNotebook(store)
            let keys = [key(partition, to: "alice"), key(partition, to: "bob"), key("user:alice", to: "alice")]
            #expect(try await store.store(keys, by: alice) == .stored)
            let bobs = try await store.wrappedKeys(for: "bob")
            #expect(bobs == [keys[1]])
            let alices = try await store.wrappedKeys(for: "alice")
            #expect(Set(alices) == [keys[0], keys[2]])
            let carols = try await store.wrappedKeys(for: "carol")
            #expect(carols.isEmpty)
        }
    }

    /// A member, who reads the group, does not own it: a key of theirs
    /// could be the server's own in disguise. All or none is stored.
    @Test(arguments: StoreKind.allCases)
    func aKeyOfAPartitionTheUserDoesNotOwnIsRefusedWithTheOthers(_ kind: StoreKind) async throws {
        try await TestSyncStore.with(kind, schema: .testUsers) { store, _ in
            let partition = try await sharedNotebook(store)
            let outcome = try await store.store([key("user:bob", to: "bob", by: "bob"), key(partition, to: "alice", by: "bob")], by: bob)
            #expect(outcome == .notOwner(partition: partition))
            let claimed = try await store.store([key("user:alice", to: "alice", by: "alice")], by: bob)
            #expect(claimed == .notOwner(partition: "user:alice"))
            let bobs = try await store.wrappedKeys(for: "bob"), alices = try await store.wrappedKeys(for: "alice")
            #expect(bobs.isEmpty && alices.isEmpty)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func anEpochsKeyNeverChanges(_ kind: StoreKind) async throws {
        try await TestSyncStore.with(kind, schema: .testUsers) { store, _ in
            let partition = try await sharedNotebook(store)
            let first = key(partition, to: "bob")
            #expect(try await store.store([first], by: alice) == .stored)
            #expect(try await store.store([first], by: alice) == .stored)
            let replaced = try await store.store([key(partition, to: "bob", wrapped: "b3RoZXI=")], by: alice)
            #expect(replaced == .conflicting(partition: partition, epoch: 1, recipient: "bob"))
            let next = key(partition, epoch: 2, to: "bob", wrapped: "bmV4dA==")
            #expect(try await store.store([next], by: alice) == .stored)
            let bobs = try await store.wrappedKeys(for: "bob")
            #expect(bobs == [first, next])
        }
    }
}
