import CipherDB

extension SyncEngine {
    /// The page cache a merge runs with, in KiB: a merge reads again the
    /// pages it has just written (a row, then its version, then both for
    /// its digest), and with SQLCipher each page that leaves the cache is
    /// decrypted again on its next read, so a delta of 10,000 rows into
    /// 100,000 took half again as long with SQLite's default 2 MiB.
    /// Memory is only taken as pages are read, and given back after.
    public static let mergePageCacheKiB = 32 * 1024
}

extension Database {
    /// Runs `body` with a page cache of `kibibytes`, then gives the
    /// connection its own size back.
    ///
    /// ```swift
    /// try db.withPageCache(kibibytes: SyncEngine.mergePageCacheKiB) {
    ///     try db.inTransaction { ... }
    /// }
    /// ```
    package func withPageCache<T>(kibibytes: Int, _ body: () throws -> T) throws -> T {
        // Pages when positive, KiB when negative, as the pragma takes it.
        let size = try Int.fetchOne(self, sql: "PRAGMA cache_size") ?? -2_000
        try execute(sql: "PRAGMA cache_size = \(-kibibytes)")
        do {
            let result = try body()
            try execute(sql: "PRAGMA cache_size = \(size)")
            return result
        } catch {
            try? execute(sql: "PRAGMA cache_size = \(size)")
            throw error
        }
    }
}
