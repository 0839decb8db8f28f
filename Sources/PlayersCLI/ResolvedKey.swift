import CipherDB

/// The key of the database, and where it came from (for `info`, never
/// the key itself).
struct ResolvedKey {
    /// Where a key came from; the raw value is what `info` prints.
    enum Origin: String {
        case keyFile = "key file"
        case passphraseFile = "passphrase file"
        case environment = "PLAYERS_PASSPHRASE"
        case prompt
        case defaultKeyFile = "default key file"
    }

    var source: DatabaseKeySource
    var origin: Origin
}
