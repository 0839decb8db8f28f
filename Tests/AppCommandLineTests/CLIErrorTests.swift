import AppCommandLine
import AppFiles
import CipherDB
import CipherSync
import Testing

/// The apps' one map of the libraries' errors (``CLIError/init(_:wording:)``):
/// an error gets the same status in every app, and the same sentence but
/// for what the app's wording says of its own (its database, its options,
/// its way out of another server's database).
@Suite struct CLIErrorTests {
    /// Two apps' wordings: one with every option, one with none, as
    /// `players` and `notes` are.
    static let withOptions = CLIError.Wording(
        database: "an encrypted example database", damagedFile: "'example verify' lists the damage",
        sizeOption: "--max-size", timeOption: "--timeout"
    ) { error in "\(error.description); run 'example sync --allow-other-server'" }
    static let withoutOptions = CLIError.Wording(database: "an example database") { _ in "another database: sync a new one" }

    /// Each error, and the status that every app exits with for it.
    static let statuses: [(error: any Error, status: Int32)] = [
        (DatabaseError(resultCode: .SQLITE_NOTADB), 3),
        (DatabaseError(resultCode: .SQLITE_CORRUPT, message: "database disk image is malformed"), 4),
        (DatabaseError(resultCode: .SQLITE_BUSY), 1),
        (DatabaseError(resultCode: .SQLITE_FULL), 1),
        (DatabaseError(resultCode: .SQLITE_IOERR), 1),
        (DatabaseError(resultCode: .SQLITE_CANTOPEN), 1),
        (DatabaseError(resultCode: .SQLITE_CONSTRAINT), 1),
        (DatabaseFileError.inUse(database: "a.db"), 1),
        (TransportError.connectionFailed.with(detail: "connection refused"), 5),
        (SyncError.serverError.with(status: 500, detail: nil), 5),
        (SyncError.requestRefused.with(status: 404, detail: nil), 5),
        (SyncError.tooLarge.with(detail: "more than 1 MiB at page 4"), 5),
        (SyncError.deadlineExceeded.with(detail: "5 s"), 5),
        (SyncError.inconsistentServer.with(detail: "3 rows, 4 on the server"), 5),
        (SyncPayloadError(page: 2, path: "$.rows[0].id", "not a UUID"), 5),
        (SyncError.otherServer.with(detail: "it holds database A; this one synced with B"), 6),
        (CLIError.interrupted(by: 2, "interrupted"), 130),
        (CLIError.usage("no server to sync from"), 2),
    ]

    @Test(arguments: statuses.indices)
    func anErrorHasTheSameStatusInEveryApp(_ index: Int) {
        let (error, status) = Self.statuses[index]
        #expect(CLIError(error, wording: Self.withOptions).exitCode == status)
        #expect(CLIError(error, wording: Self.withoutOptions).exitCode == status)
    }

    @Test func anErrorWithNothingOfAnAppsOwnHasTheSameSentenceInEveryApp() {
        let errors: [any Error] = [
            DatabaseError(resultCode: .SQLITE_BUSY), DatabaseError(resultCode: .SQLITE_FULL), DatabaseFileError.inUse(database: "a.db"),
            TransportError.connectionFailed.with(detail: "connection refused"), SyncError.requestRefused.with(status: 404, detail: nil),
            SyncError.serverError.with(status: 500, detail: nil), SyncPayloadError(path: "$", "not valid JSON"),
        ]
        for error in errors {
            #expect(CLIError(error, wording: Self.withOptions).description == CLIError(error, wording: Self.withoutOptions).description)
        }
        #expect(CLIError(TransportError.connectionFailed.with(detail: "connection refused"), wording: Self.withoutOptions).description
            == "\(TransportError.connectionFailed.with(detail: "connection refused")); the database was left unchanged")
    }

    @Test func anAppsWordingSaysOnlyWhatIsItsOwn() {
        func sentences(_ error: any Error) -> [String] {
            [CLIError(error, wording: Self.withOptions).description, CLIError(error, wording: Self.withoutOptions).description]
        }
        #expect(sentences(DatabaseError(resultCode: .SQLITE_NOTADB)) == [
            "the passphrase or key is wrong, or the file is not an encrypted example database",
            "the passphrase or key is wrong, or the file is not an example database",
        ])
        #expect(sentences(DatabaseError(resultCode: .SQLITE_CORRUPT, message: "malformed")) == [
            "the database file is damaged (malformed): 'example verify' lists the damage", "the database file is damaged (malformed)",
        ])
        #expect(sentences(SyncError.tooLarge.with(detail: "more than 1 MiB at page 4")) == [
            "the server sent more than one sync may hold (more than 1 MiB at page 4): check the URL, or give a larger --max-size; "
                + "the database was left unchanged",
            "the server sent more than one sync may hold (more than 1 MiB at page 4): check the URL; the database was left unchanged",
        ])
        #expect(sentences(SyncError.deadlineExceeded.with(detail: "5 s")) == [
            "the sync did not finish within its --timeout (5 s): try again later, or give a longer --timeout; the database was left unchanged",
            "the sync did not finish within its deadline (5 s): try again later; the database was left unchanged",
        ])
        let otherServer = SyncError.otherServer.with(detail: "it holds database A; this one synced with B")
        #expect(sentences(otherServer) == ["\(otherServer); run 'example sync --allow-other-server'", "another database: sync a new one"])
    }

    @Test func aSecretOrATemporaryPathIsReplacedWhereverTheSentenceHasIt() {
        let error = CLIError(SyncError.unauthorized.with(status: 401, detail: "Bearer s3cret is not valid: s3cret"), wording: Self.withoutOptions)
        #expect(error.redacting("s3cret").description.contains("Bearer <hidden> is not valid: <hidden>"))
        #expect(error.redacting("s3cret").exitCode == 5)
        #expect(error.redacting(nil).description == error.description)
        #expect(error.redacting("").description == error.description)
        #expect(CLIError.failure("cannot read /tmp/.stdin.42").replacing("/tmp/.stdin.42", with: "standard input").description
            == "cannot read standard input")
    }
}
