import Foundation
import ServerTestSupport
import SyncSchema
import TestSupport
import Testing

/// The key directory over HTTP (`/v1/keys/identity`, `/v1/keys/wrapped`),
/// on the real server of each store under signed identities: a user's
/// first identity key stays theirs, a notebook's owner alone wraps its
/// keys, and each user reads the keys wrapped to them alone.
@Suite struct KeyDirectoryEndpointTests {
    static let json = ["Content-Type": "application/json"]

    @Test(arguments: StoreKind.allCases)
    func ownersWrapTheirGroupsKeysToTheirMembersAndNobodyElse(_ kind: StoreKind) async throws {
        try await StoreSandbox.with(kind) { sandbox in
            let users = try await NotesUsersTests.Users.start(sandbox)
            let laptop = try await users.device("alice-laptop", of: "alice")
            let work = try await laptop.add(["notebook", "add", "Work"])
            try await laptop.run(["notebook", "share", work, "--with", "bob"])
            try await laptop.sync()
            let alice = try await users.token("alice"), bob = try await users.token("bob"), carol = try await users.token("carol")
            let dave = try await users.token("dave")

            // Identity keys: the first stays; anyone reads them. Dave has
            // no device: his keys are the test's.
            let published = try users.request("PUT", "/v1/keys/identity", token: dave, headers: Self.json,
                                               body: String(decoding: SyncKeyMessages.identityKeyRequest(publicKey: "YWxpY2U="), as: UTF8.self))
            #expect(published.status == 201, "\(published.body)")
            #expect(try SyncKeyMessages.identityAnswerUser(from: Data(published.body.utf8)) == "dave")
            let again = try users.request("PUT", "/v1/keys/identity", token: dave, headers: Self.json,
                                           body: String(decoding: SyncKeyMessages.identityKeyRequest(publicKey: "YWxpY2U="), as: UTF8.self))
            #expect(again.status == 200)
            let other = try users.request("PUT", "/v1/keys/identity", token: dave, headers: Self.json,
                                           body: String(decoding: SyncKeyMessages.identityKeyRequest(publicKey: "bWFsbG9yeQ=="), as: UTF8.self))
            #expect(other.status == 409)
            #expect(other.body.contains("recovery key is not theirs"), "\(other.body)")
            let read = try users.request("GET", "/v1/keys/identity?users=dave,bob", token: carol)
            #expect(read.status == 200)
            #expect(try SyncKeyMessages.identityKeys(from: Data(read.body.utf8)) == [SyncIdentityKey(user: "dave", publicKey: "YWxpY2U=")])

            // Wrapped keys: the owner wraps to the member; the member
            // cannot wrap for the group; a third user reads none.
            let partition = SyncPartition.group(table: "notebook", id: try #require(UUID(uuidString: work)))
            let forBob = SyncWrappedKey(partition: partition, epoch: 1, recipient: "bob", sender: "alice", wrapped: "Ym94")
            let stored = try users.request("POST", "/v1/keys/wrapped", token: alice, headers: Self.json,
                                            body: String(decoding: SyncKeyMessages.wrappedKeys([forBob], withSenders: false), as: UTF8.self))
            #expect(stored.status == 200, "\(stored.body)")
            let forged = SyncWrappedKey(partition: partition, epoch: 2, recipient: "bob", sender: "bob", wrapped: "Zm9yZ2Vk")
            let refused = try users.request("POST", "/v1/keys/wrapped", token: bob, headers: Self.json,
                                             body: String(decoding: SyncKeyMessages.wrappedKeys([forged], withSenders: false), as: UTF8.self))
            #expect(refused.status == 403, "\(refused.body)")
            // A sender named in the request is no field of it: the token says who wraps.
            let claimed = try users.request("POST", "/v1/keys/wrapped", token: bob, headers: Self.json,
                                             body: String(decoding: SyncKeyMessages.wrappedKeys([forBob], withSenders: true), as: UTF8.self))
            #expect(claimed.status == 400, "\(claimed.body)")
            let bobs = try users.request("GET", "/v1/keys/wrapped", token: bob)
            #expect(try SyncKeyMessages.wrappedKeys(from: Data(bobs.body.utf8)) == [forBob])
            let carols = try users.request("GET", "/v1/keys/wrapped", token: carol)
            #expect(try SyncKeyMessages.wrappedKeys(from: Data(carols.body.utf8)).isEmpty)
            #expect(try users.server.stop() == 0)
        }
    }

    /// A server of one shared token has no users, so no keys.
    @Test func aServerOfOneSharedTokenHasNoKeyDirectory() async throws {
        let folder = try TemporaryFolder()
        let server = try ServerProcess([], folder: folder)
        let answer = try server.request("GET", "/v1/keys/wrapped")
        #expect(answer.status == 404)
        #expect(answer.body.contains("signed identities"), "\(answer.body)")
        #expect(try server.stop() == 0)
    }
}
