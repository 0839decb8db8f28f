import SyncSealing
import Testing

/// A wrapped key opens only for its recipient, as wrapped by the user
/// named, for the partition and epoch named: a server can neither read
/// one, nor hand a member another's, nor inject a key of its own.
@Suite struct WrappedKeyTests {
    let partition = "group:notebook:7C0E3B52-5E4B-4D0F-9C36-2B0F0C7C1A11"

    @Test func theRecipientUnwrapsTheKeyTheOwnerWrapped() throws {
        let alice = try RecoveryKey.random().identity(), bob = try RecoveryKey.random().identity()
        let key = try PartitionKey.random(partition: partition, epoch: 3)
        let wrapped = try WrappedKey.wrap(key, from: alice, to: bob.publicKey)
        let read = try WrappedKey(text: wrapped.text)
        #expect(try read.unwrap(partition: partition, epoch: 3, by: bob, from: alice.publicKey) == key)
    }

    @Test func anotherUserCannotUnwrapIt() throws {
        let alice = try RecoveryKey.random().identity(), bob = try RecoveryKey.random().identity()
        let carol = try RecoveryKey.random().identity()
        let wrapped = try WrappedKey.wrap(try PartitionKey.random(partition: partition, epoch: 1), from: alice, to: bob.publicKey)
        #expect(throws: SealingError.wrappedKeyNotAuthentic) {
            try wrapped.unwrap(partition: partition, epoch: 1, by: carol, from: alice.publicKey)
        }
    }

    /// A key the server wrapped itself (it knows every public key) does
    /// not pass for the owner's.
    @Test func aKeyWrappedByAnyoneButTheExpectedSenderIsRefused() throws {
        let alice = try RecoveryKey.random().identity(), bob = try RecoveryKey.random().identity()
        let server = try RecoveryKey.random().identity()
        let injected = try WrappedKey.wrap(try PartitionKey.random(partition: partition, epoch: 1), from: server, to: bob.publicKey)
        #expect(throws: SealingError.wrappedKeyNotAuthentic) {
            try injected.unwrap(partition: partition, epoch: 1, by: bob, from: alice.publicKey)
        }
    }

    @Test func aKeyWrappedForAnotherPartitionOrEpochIsRefused() throws {
        let alice = try RecoveryKey.random().identity(), bob = try RecoveryKey.random().identity()
        let wrapped = try WrappedKey.wrap(try PartitionKey.random(partition: partition, epoch: 1), from: alice, to: bob.publicKey)
        #expect(throws: SealingError.wrappedKeyNotAuthentic) {
            try wrapped.unwrap(partition: "user:bob", epoch: 1, by: bob, from: alice.publicKey)
        }
        #expect(throws: SealingError.wrappedKeyNotAuthentic) {
            try wrapped.unwrap(partition: partition, epoch: 2, by: bob, from: alice.publicKey)
        }
    }

    @Test func aTruncatedOrAlteredWrappedKeyIsRefused() throws {
        let alice = try RecoveryKey.random().identity(), bob = try RecoveryKey.random().identity()
        let bytes = try WrappedKey.wrap(try PartitionKey.random(partition: partition, epoch: 1), from: alice, to: bob.publicKey).bytes
        var altered = bytes
        altered[altered.count - 1] ^= 1
        for candidate in [Array(bytes.prefix(40)), altered, []] {
            #expect(throws: SealingError.wrappedKeyNotAuthentic) {
                try WrappedKey(bytes: candidate).unwrap(partition: partition, epoch: 1, by: bob, from: alice.publicKey)
            }
        }
    }
}
