import CipherDB

/// The key of the database, and where it came from (for `info`, never
/// the key itself).
struct ResolvedKey {
    var source: DatabaseKeySource
    /// "key file", "passphrase file", "PLAYERS_PASSPHRASE", "prompt" or
    /// "default key file".
    var origin: String
}
