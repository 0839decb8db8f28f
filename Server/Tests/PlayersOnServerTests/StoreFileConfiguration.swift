import CipherDB
import Foundation

/// The configuration of the store files these tests make: encrypted page by
/// page with a raw key, as a passphrase would encrypt them, without PBKDF2
/// on every connection (the server's passphrases have tests of their own,
/// in PlayersServerTests).
func storeFileConfiguration() -> Configuration {
    var configuration = Configuration()
    configuration.prepareDatabase { db in try db.useRawKey(Data(repeating: 0x2A, count: 32)) }
    return configuration
}
