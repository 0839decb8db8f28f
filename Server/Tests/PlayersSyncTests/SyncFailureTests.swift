import CipherDB
import CipherSync
import Foundation
import Players
import SyncServer
import TestSupport
import ServerTestSupport
import Testing

/// Servers that answer badly: every sync fails with a clear error and
/// leaves the database's content as it was.
@Suite struct SyncFailureTests {
    enum BadServer: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case malformedJSON, wrongType, invalidUUID, emptyName, scoreOutOfRange, duplicateUUID, missingCursor
        case controlCharacterInName, newlineInName, combiningMarksName, invalidUTF8, cursorTooLong
        case otherProtocolVersion, nextOnAnotherServer, truncatedBody, bodyOverLimit, gzipBomb
        case serverErrorThreeTimes, unauthorized, redirectToFile, stall, connectionRefused
        case versionAboveCursor, cursorNotACounter, playerAndTombstoneOfOneUUID

        var testDescription: String { rawValue }

        /// What the declaration's name column accepts, as its errors say.
        static let nameRule = "a string of 1 to 100 characters and at most 400 UTF-8 bytes, without control characters"

        static let uuid = "0CCF2B1F-9D58-4B77-9ADD-B410E1E65D34"
        static let otherUUID = "0E42CFD4-B6CA-4CC9-A1CE-408B94824A58"

        /// A snapshot page of the engine's `GET /v1/sync/rows` with these
        /// rows' JSON.
        static func page(_ rows: String, extra: String = #""cursor":"\#(ScriptedCursor.at(30))","#, complete: Bool = true) -> String {
            #"{"protocolVersion":1,"kind":"snapshot","complete":\#(complete),\#(extra)"rows":[\#(rows)],"tombstones":[]}"#
        }

        /// A row of the `player` table; `name` and `score` as JSON.
        static func player(uuid: String = uuid, name: String = #""Arthur""#, score: String = "10", version: String = "3") -> String {
            #"{"table":"player","id":"\#(uuid)","version":\#(version),"values":{"name":\#(name),"score":\#(score)}}"#
        }

        func steps() throws -> [ScriptedHTTPServer.Step] {
            switch self {
            case .malformedJSON: return .json(#"{"protocolVersion":1,"kind":"snap"#)
            case .wrongType: return .json(Self.page(Self.player(score: #""ten""#)))
            case .invalidUUID: return .json(Self.page(Self.player(uuid: "not-a-uuid")))
            case .emptyName: return .json(Self.page(Self.player(name: #""  ""#)))
            case .scoreOutOfRange: return .json(Self.page(Self.player(score: "-5")))
            case .controlCharacterInName: return .json(Self.page(Self.player(name: #""Arthur\u001b[2J""#)))
            case .newlineInName: return .json(Self.page(Self.player(name: #""Arthur\n""#)))
            case .combiningMarksName:
                return .json(Self.page(Self.player(name: "\"a" + String(repeating: "\u{301}", count: 5000) + "\"")))
            case .invalidUTF8:
                let page = Data(Self.page(Self.player(name: #""Arthur@""#)).utf8)
                return .response(200, headers: ["Content-Type": "application/json"],
                                 body: Data(page.map { $0 == UInt8(ascii: "@") ? 0xFF : $0 }))
            case .cursorTooLong: return .json(Self.page(Self.player(), extra: #""cursor":"\#(String(repeating: "7", count: 1025))","#))
            case .duplicateUUID: return .json(Self.page(Self.player() + "," + Self.player()))
            case .missingCursor: return .json(Self.page(Self.player(), extra: ""))
            case .otherProtocolVersion: return .json(Self.page(Self.player()).replacingOccurrences(of: #""protocolVersion":1"#, with: #""protocolVersion":2"#))
            case .nextOnAnotherServer:
                return .json(Self.page(Self.player(), extra: #""cursor":"\#(ScriptedCursor.at(30))","next":"http://attacker.example/v1/sync/rows?tables=player","#, complete: false))
            case .truncatedBody:
                return [.send(Data("HTTP/1.1 200 OK\r\nContent-Length: 5000\r\nConnection: close\r\n\r\n".utf8) + Data(Self.page(Self.player()).utf8))]
            case .bodyOverLimit:
                return .json(Self.page(Array(repeating: Self.player(), count: 100).joined(separator: ",")))
            case .gzipBomb:
                return .response(200, headers: ["Content-Encoding": "gzip", "Content-Type": "application/json"],
                                 body: try gzip(Data(count: 16 * 1024 * 1024)))
            case .serverErrorThreeTimes: return .json(#"{"error":{"message":"database on fire"}}"#, status: 500)
            case .unauthorized: return .json(#"{"error":{"message":"a valid bearer token is required"}}"#, status: 401)
            case .redirectToFile: return .response(302, headers: ["Location": "file:///etc/passwd"])
            case .stall: return [.send(Data("HTTP/1.1 200 OK\r\nContent-Length: 5000\r\n\r\n{".utf8)), .holdUntilStopped]
            case .connectionRefused: return []
            case .versionAboveCursor: return .json(Self.page(Self.player(version: "9223372036854775807")))
            case .cursorNotACounter: return .json(Self.page(Self.player(), extra: #""cursor":"30x","#))
            case .playerAndTombstoneOfOneUUID:
                return .json(Self.page(Self.player()).replacingOccurrences(of: #""tombstones":[]"#, with: #""tombstones":[{"table":"player","id":"\#(Self.uuid)","version":4}]"#))
            }
        }

        func configure(_ configuration: inout TransportConfiguration) {
            switch self {
            case .bodyOverLimit: configuration.maximumBodySize = 2048
            case .gzipBomb: configuration.maximumBodySize = 1024 * 1024
            case .stall:
                configuration.lowSpeedLimit = 100
                configuration.lowSpeedTime = 1
            default: break
            }
        }

        /// Whether the error is the one expected, with a clear description.
        func matches(_ error: any Error) -> Bool {
            func payload(_ path: String, _ message: String? = nil) -> Bool {
                guard let error = error as? SyncPayloadError else { return false }
                return error.path == path && error.page == 1 && error.description.contains("nothing was written")
                    && (message.map { $0 == error.message } ?? true)
            }
            switch self {
            case .malformedJSON: return payload("$")
            case .wrongType, .scoreOutOfRange: return payload("$.rows[0].values.score")
            case .invalidUUID: return payload("$.rows[0].id")
            case .emptyName: return payload("$.rows[0].values.name")
            case .controlCharacterInName: return payload("$.rows[0].values.name", "the name contains a control character (U+001B): it must be \(Self.nameRule)")
            case .newlineInName: return payload("$.rows[0].values.name", "the name contains a control character (U+000A): it must be \(Self.nameRule)")
            case .combiningMarksName: return payload("$.rows[0].values.name", "the name is longer than 100 characters or 400 UTF-8 bytes: it must be \(Self.nameRule)")
            case .invalidUTF8: return payload("$", "not valid UTF-8")
            case .cursorTooLong: return payload("$.cursor", "longer than 1024 bytes")
            case .duplicateUUID: return payload("$.rows[1].id")
            case .missingCursor: return payload("$.cursor")
            case .otherProtocolVersion: return payload("$.protocolVersion")
            case .nextOnAnotherServer: return payload("$.next")
            case .truncatedBody: return error as? TransportError == .connectionLost
            case .bodyOverLimit, .gzipBomb: return error as? TransportError == .bodyTooLarge
            case .serverErrorThreeTimes:
                return error as? SyncError == .serverError && "\(error)".contains("HTTP 500: database on fire")
            case .unauthorized: return error as? SyncError == .unauthorized
            case .redirectToFile: return error as? TransportError == .forbiddenProtocol
            case .stall: return error as? TransportError == .timedOut
            case .connectionRefused: return error as? TransportError == .connectionFailed
            case .versionAboveCursor: return payload("$.rows[0].version", "9223372036854775807 is above the page's cursor 30")
            case .cursorNotACounter: return payload("$.cursor", "not a cursor of this protocol")
            case .playerAndTombstoneOfOneUUID: return payload("$.tombstones[0].id", "\(Self.uuid) appears twice")
            }
        }
    }

    @Test(arguments: BadServer.allCases)
    func aBadServerChangesNothing(_ badServer: BadServer) async throws {
        let steps = try badServer.steps()
        let server = try ScriptedHTTPServer { _, _ in steps }
        defer { server.stop() }
        let refusing = try RefusingPort()
        defer { refusing.close() }
        let badURL = URL(string: badServer == .connectionRefused ? refusing.baseURL : server.baseURL)!
        try await withLiveServer(seed: 5) { _, goodURL in
            let database = try ClientDatabase()
            _ = try await database.client(goodURL).sync()
            let before = try database.contentChecksum()
            // Another database than the good server's, allowed: what is
            // tested here is its answers (ServerHistoryTests test the refusal).
            var client = database.client(badURL, transport: fastTransport(badServer.configure))
            client.allowsOtherServer = true
            do {
                _ = try await client.sync()
                Issue.record("the sync succeeded")
            } catch {
                #expect(badServer.matches(error), "\(error)")
            }
            #expect(try database.contentChecksum() == before)
            let integrity = try await database.appDatabase.reader.read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") }
            #expect(integrity == ["ok"])
        }
        // Both are retried: three attempts in all. A stall ends each one
        // with libcurl's own stall timer (the server holds its answer).
        if [.serverErrorThreeTimes, .stall].contains(badServer) { #expect(server.requests.count == 3) }
    }

    @Test func aServerErrorThenSuccessSyncsAfterARetry() async throws {
        let page = BadServer.page(BadServer.player())
        let server = try ScriptedHTTPServer { _, number in number == 0 ? .json("{}", status: 500) : .json(page) }
        defer { server.stop() }
        let database = try ClientDatabase()
        let report = try await database.client(URL(string: server.baseURL)!).sync()
        #expect(report.counts == SyncCounts(inserted: 1))
        #expect(server.requests.count == 2)
    }

    @Test func aRedirectFromHTTPSDownToHTTPChangesNothing() async throws {
        let plain = try ScriptedHTTPServer { _, _ in .json(BadServer.page(BadServer.player())) }
        defer { plain.stop() }
        let tls = try OpenSSLServer(responses: ["v1/sync/rows?tables=player": "HTTP/1.0 302 Found\r\nLocation: \(plain.baseURL)/v1/sync/rows?tables=player\r\n\r\n"])
        defer { tls.stop() }
        let database = try ClientDatabase()
        let before = try database.contentChecksum()
        await #expect(throws: TransportError.forbiddenProtocol) {
            try await database.client(URL(string: tls.baseURL)!, transport: fastTransport { $0.caCertificatePath = tls.certificatePath }).sync()
        }
        #expect(try database.contentChecksum() == before)
        #expect(plain.requests.isEmpty)
    }
}
