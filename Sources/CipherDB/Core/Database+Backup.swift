import CSQLCipher

extension Database {
    /// Copies this database into `destination` with SQLite's online backup.
    ///
    /// The pages are written with the key of the destination. An encrypted
    /// source copied into a destination without a key would be written as
    /// **plaintext** (so SQLCipher 3.4.1 behaves): that is refused unless
    /// `allowsPlaintextDestination` is true.
    ///
    /// See <https://www.sqlite.org/backup.html>.
    public func backup(
        to destination: Database,
        pagesPerStep: CInt = -1,
        allowsPlaintextDestination: Bool = false,
        progress: ((DatabaseBackupProgress) throws -> Void)? = nil) throws
    {
        try checkIsOpen()
        try destination.checkIsOpen()
        if !allowsPlaintextDestination, try isEncrypted, try !destination.isEncrypted {
            throw DatabaseError(
                resultCode: .SQLITE_MISUSE,
                message: "refusing to back up an encrypted database into a destination that has no key: the copy would be plaintext; give the destination a passphrase or key, or allow a plaintext destination explicitly")
        }
        guard let backup = sqlite3_backup_init(destination.handle, "main", handle, "main") else {
            throw DatabaseError(resultCode: destination.lastErrorCode, message: destination.lastErrorMessage)
        }
        var isFinished = false
        defer {
            if !isFinished { sqlite3_backup_finish(backup) }
            destination.clearStatementCache()
        }
        stepping: while true {
            let code = sqlite3_backup_step(backup, pagesPerStep)
            switch code {
            case SQLITE_OK, SQLITE_DONE:
                let isCompleted = code == SQLITE_DONE
                try progress?(DatabaseBackupProgress(
                    remainingPageCount: Int(sqlite3_backup_remaining(backup)),
                    totalPageCount: Int(sqlite3_backup_pagecount(backup)),
                    isCompleted: isCompleted))
                if isCompleted { break stepping }
            default:
                throw DatabaseError(resultCode: code, message: destination.lastErrorMessage)
            }
        }
        isFinished = true
        let code = sqlite3_backup_finish(backup)
        guard code == SQLITE_OK else {
            throw DatabaseError(resultCode: code, message: destination.lastErrorMessage)
        }
    }
}
