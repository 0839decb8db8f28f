import Foundation
import SyncSchema
import Testing

/// The key directory's messages: written and read back equal, and read
/// strictly (bounded texts and counts, an epoch in range, no sender in a
/// device's request).
@Suite struct SyncKeyMessagesTests {
    let key = SyncWrappedKey(partition: "group:notebook:7C0E3B52-5E4B-4D0F-9C36-2B0F0C7C1A11", epoch: 3, recipient: "bob",
                             sender: "alice", wrapped: "Ym94")

    @Test func eachMessageReadsBackEqual() throws {
        #expect(try SyncKeyMessages.publicKey(from: SyncKeyMessages.identityKeyRequest(publicKey: "cHVibGlj")) == "cHVibGlj")
        let identities = [SyncIdentityKey(user: "alice", publicKey: "YQ=="), SyncIdentityKey(user: "bob", publicKey: "Yg==")]
        #expect(try SyncKeyMessages.identityKeys(from: SyncKeyMessages.identityKeys(identities)) == identities)
        #expect(try SyncKeyMessages.wrappedKeys(from: SyncKeyMessages.wrappedKeys([key], withSenders: true)) == [key])
        #expect(try SyncKeyMessages.wrappedKeys(from: SyncKeyMessages.wrappedKeys([key], withSenders: false), sender: "alice") == [key])
    }

    static let refused: [(json: String, path: String)] = [
        (#"{"protocolVersion":1,"publicKey":""}"#, "$.publicKey"),
        (#"{"protocolVersion":2,"publicKey":"a"}"#, "$.protocolVersion"),
        (#"{"protocolVersion":1,"publicKey":"a","user":"mallory"}"#, "$.user"),
        (#"{"protocolVersion":1,"keys":[{"epoch":0,"partition":"p","recipient":"bob","wrapped":"w"}]}"#, "$.keys[0].epoch"),
        (#"{"protocolVersion":1,"keys":[{"epoch":1,"partition":"p","recipient":"bob","sender":"alice","wrapped":"w"}]}"#,
         "$.keys[0].sender"),
        (#"{"protocolVersion":1,"keys":[{"epoch":1,"partition":"p","wrapped":"w"}]}"#, "$.keys[0].recipient"),
    ]

    @Test(arguments: refused.indices)
    func aMessageThatBreaksARuleIsRefusedByItsPath(_ index: Int) {
        let (json, path) = Self.refused[index]
        do {
            if json.contains("publicKey") {
                _ = try SyncKeyMessages.publicKey(from: Data(json.utf8))
            } else {
                _ = try SyncKeyMessages.wrappedKeys(from: Data(json.utf8), sender: "alice")
            }
            Issue.record("read: \(json)")
        } catch {
            #expect(error.path == path, "\(error)")
        }
    }

    @Test func moreKeysThanTheMostAreRefused() {
        let many = SyncKeyMessages.wrappedKeys(Array(repeating: key, count: SyncKeyMessages.maximumKeys + 1), withSenders: true)
        #expect(throws: SyncMessageError.self) { try SyncKeyMessages.wrappedKeys(from: many) }
    }
}
