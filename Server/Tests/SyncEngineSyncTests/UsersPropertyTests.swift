import CipherDB
import CipherSync
import Foundation
import ServerTestSupport
import SyncEngine
import SyncSchema
import SyncServer
import SyncServerAuth
import Synchronization
import TestSupport
import Testing

/// Users' access as a property (Docs/Users.md), on both stores: three
/// users with two devices each, on a server of signed identities, adding,
/// editing and deleting notebooks, notes, diaries and board rows, sharing
/// and unsharing notebooks, gaining and losing the role that writes the
/// board, and syncing (some syncs failing at a random step). After every
/// sync that completes, the device holds exactly the rows its user reads
/// on the server (by the rules, computed here from the server's rows and
/// memberships, not by the server's own filter), with the same values; a
/// change the server refused left the server's row as it was; and every
/// refused change is listed with the device's conflicts.
///
/// 3 seeded runs per store in `make test`, 200 in `make check-long`;
/// `USERS_PROPERTY_RUNS` sets another number, `USERS_PROPERTY_SEED`
/// replays one.
@Suite struct UsersPropertyTests {
    static let seeds = TestSeeds("USERS_PROPERTY", test: "UsersPropertyTests", correctness: 3, long: 200)

    @Test(arguments: StoreKind.allCases)
    func everyDeviceHoldsExactlyWhatItsUserReads(_ kind: StoreKind) async throws {
        await Self.seeds.run(label: "\(kind)") { seed in try await UsersRun(seed: seed, kind: kind).run() }
    }
}

/// One seeded run of ``UsersPropertyTests``.
struct UsersRun {
    let seed: UInt64
    let kind: StoreKind
    static let users = ["alice", "bob", "carol"]
    static let editor = "editor"

    func run() async throws -> [String] {
        let folder = try TemporaryFolder()
        try #require(FileManager.default.createFile(atPath: folder.path("jwt.secret"), contents: Data(String(repeating: "k", count: 40).utf8),
                                                    attributes: [.posixPermissions: 0o600]))
        let keys = try await TokenKeys(contentsOf: folder.path("jwt.secret"))
        let collected = Mutex<[String]>([])
        try await APITestServer.with(kind, tokenVerifier: TokenVerifier(keys: keys), schema: .testUsers) { [seed] server in
            // Each user's token, signed again when their roles change.
            let tokens = Mutex<[String: String]>([:])
            var editors: Set<String> = []
            func sign(_ user: String) async throws {
                let token = try await keys.signedToken(user: user, roles: editors.contains(user) ? [Self.editor] : [], lifetime: 3_600,
                                                       audience: nil, issuer: nil)
                tokens.withLock { $0[user] = token }
            }
            for user in Self.users { try await sign(user) }
            let url = URL(string: "http://127.0.0.1:\(server.client.port)")!
            var random = SeededRandom(seed: seed)
            // Device i is user i / 2's.
            let devices = try (0..<6).map { _ in try NotesDevice(schema: .testUsers, firstRelease: .testUsers) }
            var steps: [String] = []
            var failures: [String] = []

            func user(of index: Int) -> String { Self.users[index / 2] }

            func sync(_ index: Int, fault: TransportFault?) async throws {
                let name = user(of: index)
                let answers = Mutex<[(SyncChangeBatch, SyncChangeResults)]>([])
                let transport = FaultyTransport(base: fastTransport { $0.bearerTokenSource = { tokens.withLock { $0[name] } } },
                                                fault: fault) { request, response in
                    guard let body = request.body, let batch = try? SyncChangeBatch.decode(body, schema: .testUsers),
                          let results = try? SyncChangeResults.decode(response.body, answering: batch.changes, schema: .testUsers) else { return }
                    answers.withLock { $0.append((batch, results)) }
                }
                let before = try await Self.serverRows(server.engine)
                do {
                    let pulled = try await devices[index].sync(url, transport: transport).pulled
                    if let repaired = pulled.repaired {
                        failures.append("device \(index)'s rows differed from its user's digests (\(repaired)) after \(steps)")
                    }
                } catch is InjectedFault {
                    return
                }
                let after = try await Self.serverRows(server.engine)
                failures += try Self.check(devices[index], index: index, user: name, server: after, before: before,
                                           answers: answers.withLock { $0 }, steps: steps)
            }

            for _ in 0..<40 {
                let index = random.next(below: devices.count)
                let name = user(of: index)
                let draw = random.next(below: 16)
                if draw == 12 {
                    if editors.remove(name) == nil { editors.insert(name) }
                    try await sign(name)
                    steps.append("\(name) is \(editors.contains(name) ? "now" : "no longer") an editor")
                } else if draw == 13 {
                    let fault = TransportFault.allCases[random.next(below: TransportFault.allCases.count)]
                    try await sync(index, fault: fault)
                    steps.append("device \(index) (\(name)) syncs, failing \(fault)")
                } else if draw < 12, let step = try Self.step(draw, on: devices[index], of: name, using: &random) {
                    steps.append("device \(index) (\(name)) \(step)")
                } else {
                    steps.append("device \(index) (\(name)) syncs")
                    try await sync(index, fault: nil)
                }
            }
            for _ in 0..<2 {
                for index in devices.indices { try await sync(index, fault: nil) }
            }
            collected.withLock { $0 = failures }
        }
        return collected.withLock { $0 }
    }

    /// A local change of `draw`'s kind on a device of `user`; nil when the
    /// device lacks what it needs.
    static func step(_ draw: Int, on device: NotesDevice, of user: String, using random: inout SeededRandom) throws -> String? {
        let notebooks = try device.rows("notebook"), notes = try device.rows("note"), members = try device.rows("member")
        let word = ["Work", "Home", "Trip", "Plan", "Book"][random.next(below: 5)] + " \(random.next(below: 100))"
        func pick(_ rows: [[String: String]]) -> [String: String]? { rows.isEmpty ? nil : rows[random.next(below: rows.count)] }
        switch draw {
        case 0, 1:
            let id = UUID().uuidString
            try device.execute("INSERT INTO notebook (id, name) VALUES (?, ?)", [id, word])
            return "adds notebook \(id.prefix(8))"
        case 2, 3:
            guard let notebook = pick(notebooks) else { return nil }
            try device.execute("INSERT INTO note (id, notebook, title) VALUES (?, ?, ?)", [UUID().uuidString, notebook["id"]!, word])
            return "adds a note to notebook \(notebook["id"]!.prefix(8))"
        case 4:
            guard let note = pick(notes) else { return nil }
            try device.execute("UPDATE note SET title = ? WHERE id = ?", [word, note["id"]!])
            return "retitles note \(note["id"]!.prefix(8))"
        case 5:
            guard let note = pick(notes) else { return nil }
            try device.execute("DELETE FROM note WHERE id = ?", [note["id"]!])
            return "deletes note \(note["id"]!.prefix(8))"
        case 6:
            guard let notebook = pick(notebooks) else { return nil }
            try device.execute("UPDATE notebook SET name = ? WHERE id = ?", [word, notebook["id"]!])
            return "renames notebook \(notebook["id"]!.prefix(8))"
        case 7:
            guard let notebook = pick(notebooks) else { return nil }
            try device.execute("DELETE FROM notebook WHERE id = ?", [notebook["id"]!])
            return "deletes notebook \(notebook["id"]!.prefix(8))"
        case 8:
            guard let notebook = pick(notebooks) else { return nil }
            let other = users.filter { $0 != user }[random.next(below: 2)]
            guard !members.contains(where: { $0["notebook"] == notebook["id"] && $0["user"] == other }) else { return nil }
            try device.execute("INSERT INTO member (id, notebook, user) VALUES (?, ?, ?)", [UUID().uuidString, notebook["id"]!, other])
            return "shares notebook \(notebook["id"]!.prefix(8)) with \(other)"
        case 9:
            guard let member = pick(members) else { return nil }
            try device.execute("DELETE FROM member WHERE id = ?", [member["id"]!])
            return "unshares notebook \(member["notebook"]!.prefix(8)) with \(member["user"]!)"
        case 10:
            try device.execute("INSERT INTO diary (id, text) VALUES (?, ?)", [UUID().uuidString, word])
            return "writes in the diary"
        default:
            try device.execute("INSERT INTO board (id, text) VALUES (?, ?)", [UUID().uuidString, word])
            return "writes on the board"
        }
    }

    /// Every live row the server holds, by key, whoever reads it.
    static func serverRows(_ engine: any SyncRowStore) async throws -> [SyncRowKey: SyncStoredRow] {
        let page = try await engine.snapshot(after: nil, limit: 1_000_000, tables: nil, for: nil)
        return Dictionary(uniqueKeysWithValues: page.rows.map { ($0.key, $0) })
    }

    /// Whether `user` reads `row`, by the rules of Docs/Users.md, from the
    /// server's rows alone: the board, their diary, the notebooks they
    /// created or are members of, and those notebooks' notes and members.
    static func reads(_ row: SyncStoredRow, user: String, rows: [SyncRowKey: SyncStoredRow]) -> Bool {
        func readsNotebook(_ id: SyncValue?) -> Bool {
            guard case .uuid(let id)? = id, let notebook = rows[SyncRowKey(table: "notebook", id: id)] else { return false }
            return notebook.owner == user || rows.values.contains { member in
                member.key.table == "member" && member.values?["notebook"] == .uuid(id) && member.values?["user"] == .text(user)
            }
        }
        switch row.key.table {
        case "board": return true
        case "diary": return row.owner == user
        case "notebook": return readsNotebook(.uuid(row.key.id))
        default: return readsNotebook(row.values?["notebook"])
        }
    }

    /// A value as a device's text column holds it.
    static func text(_ value: SyncValue) -> String {
        switch value {
        case .text(let text): text
        case .uuid(let uuid): uuid.uuidString
        case .integer(let integer): String(integer)
        case .real(let real): String(real)
        case .boolean(let boolean): boolean ? "1" : "0"
        case .null: "null"
        }
    }

    /// The property after a sync of device `index` that completed.
    static func check(_ device: NotesDevice, index: Int, user: String, server: [SyncRowKey: SyncStoredRow],
                      before: [SyncRowKey: SyncStoredRow], answers: [(SyncChangeBatch, SyncChangeResults)], steps: [String]) throws -> [String] {
        var failures: [String] = []
        let expected = server.values.filter { reads($0, user: user, rows: server) }.map { row in
            "\(row.key.table) \(row.key.id.uuidString) " + (row.values ?? [:]).sorted { $0.key < $1.key }
                .map { "\($0.key)=\(text($0.value))" }.joined(separator: ",")
        }.sorted()
        let held = try device.dbQueue.read { db in
            try SyncSchema.testUsers.tables.flatMap { table in
                try Row.fetchAll(db, sql: "SELECT * FROM \(table.name)").map { row in
                    let id: String = row["id"]
                    return "\(table.name) \(id) " + table.valueColumns.map(\.name).sorted()
                        .map { "\($0)=\((row[$0] as String?) ?? "null")" }.joined(separator: ",")
                }
            }
        }.sorted()
        if held != expected {
            let extra = Set(held).subtracting(expected), missing = Set(expected).subtracting(held)
            failures.append("device \(index) (\(user)) holds \(extra.sorted()) that its user does not read, lacks \(missing.sorted()); steps: \(steps)")
        }
        let conflicts = try device.syncConflicts()
        for (batch, results) in answers {
            let answered = zip(batch.changes, results.results)
            let applied = Set(answered.filter { $0.1.status != .refused }.map { SyncRowKey(table: $0.0.row.table, id: $0.0.row.id) })
            // An applied delete may take a refused change's row with it.
            let cascades = answered.contains { $0.0.operation == .delete && $0.1.status == .applied }
            for (change, result) in answered where result.status == .refused {
                let key = SyncRowKey(table: change.row.table, id: change.row.id)
                if !applied.contains(key), !cascades, before[key]?.version != server[key]?.version {
                    failures.append("a refused change of \(key.table) \(key.id.uuidString.prefix(8)) changed the server; steps: \(steps)")
                }
                if !conflicts.contains(where: { $0.table == key.table && $0.rowID == key.id && $0.refusal != nil }) {
                    failures.append("device \(index) does not list its refused change of \(key.table) \(key.id.uuidString.prefix(8)); steps: \(steps)")
                }
            }
        }
        return failures
    }
}
