import Foundation
import TestSupport
import Testing

/// Requests that a page of another site can make a browser send: to a
/// rebound name (DNS rebinding), or as a form or text POST (cross-site).
@Suite struct RequestOriginTests {
    @Test func foreignHostNamesAreRefused() throws {
        let server = try ServerProcess([])
        for host in ["attacker.example", "attacker.example:\(server.port)", "127.0.0.1.nip.io:\(server.port)", "localhost.attacker.example"] {
            let response = try server.request("GET", "/v1/sync/rows", host: host)
            #expect(response.status == 421, "\(host)")
            #expect(response.body.contains("--allowed-host"), "\(host)")
        }
        #expect(try server.request("GET", "/healthz", host: "attacker.example").status == 421)
        for host in ["127.0.0.1:\(server.port)", "localhost:\(server.port)", "LOCALHOST.", "127.0.0.1"] {
            #expect(try server.request("GET", "/v1/sync/rows", host: host).status == 200, "\(host)")
        }
    }

    @Test func allowedHostsAreServed() throws {
        let server = try ServerProcess(["--allowed-host", "players.example", "--allowed-host", "Other.Example"])
        #expect(try server.request("GET", "/v1/sync/rows", host: "players.example").status == 200)
        #expect(try server.request("GET", "/v1/sync/rows", host: "other.example:443").status == 200)
        #expect(try server.request("GET", "/v1/sync/rows", host: "third.example").status == 421)
    }

    @Test func changesNeedJSONWithoutAToken() throws {
        let server = try ServerProcess(["--demo"])
        let created = try server.request("POST", "/v1/rows/player", headers: jsonHeaders, body: playerJSON(1))
        #expect(created.status == 201)
        let uuid = try #require(created.body.split(separator: "\"").first { UUID(uuidString: String($0)) != nil })
        let forms = ["application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "text/plain"]
        for contentType in forms {
            for (method, path) in [("POST", "/v1/rows/player"), ("POST", "/demo/refresh"), ("POST", "/v1/sync/changes"),
                                   ("PUT", "/v1/rows/player/\(uuid)"), ("DELETE", "/v1/rows/player/\(uuid)")] {
                let response = try server.request(method, path, headers: ["Content-Type": contentType], body: "name=A&score=1")
                #expect(response.status == 415, "\(method) \(path) \(contentType)")
            }
        }
        #expect(try server.request("DELETE", "/v1/rows/player/\(uuid)").status == 415)
        #expect(try server.request("POST", "/demo/refresh").status == 415)
        #expect(try server.request("GET", "/v1/rows/player/\(uuid)").status == 200)
        #expect(try server.request("DELETE", "/v1/rows/player/\(uuid)", headers: jsonHeaders).status == 204)
        #expect(try server.request("POST", "/demo/refresh", headers: jsonHeaders).status == 200)
    }

    @Test func withATokenChangesNeedTheToken() throws {
        let folder = try TemporaryFolder()
        _ = FileManager.default.createFile(atPath: folder.path("token"),
                                       contents: Data("s3cret-token".utf8), attributes: [.posixPermissions: 0o600])
        let server = try ServerProcess(["--token-file", "token", "--demo"], folder: folder)
        let bearer = ["Authorization": "Bearer s3cret-token"]
        #expect(try server.request("POST", "/demo/refresh", headers: ["Content-Type": "text/plain"]).status == 401)
        #expect(try server.request("POST", "/demo/refresh", headers: jsonHeaders).status == 401)
        #expect(try server.request("POST", "/demo/refresh", headers: bearer).status == 200)
        #expect(try server.request("POST", "/v1/sync/changes", headers: jsonHeaders, body: #"{"changes":[],"protocolVersion":1}"#).status == 401)
        let uuid = try #require(try server.request("GET", "/v1/sync/rows?limit=1", headers: bearer).body
            .split(separator: "\"").first { UUID(uuidString: String($0)) != nil })
        #expect(try server.request("DELETE", "/v1/rows/player/\(uuid)", headers: bearer).status == 204)
    }

    @Test func theDemoRefreshIsOutsideTheVersionedAPIAndOffByDefault() throws {
        let server = try ServerProcess([])
        #expect(try server.request("POST", "/v1/refresh", headers: jsonHeaders).status == 404)
        #expect(try server.request("POST", "/demo/refresh", headers: jsonHeaders).status == 404)
        let demo = try ServerProcess(["--demo"])
        #expect(try demo.request("POST", "/v1/refresh", headers: jsonHeaders).status == 404)
        let refreshed = try demo.request("POST", "/demo/refresh", headers: jsonHeaders)
        #expect(refreshed.status == 200)
        #expect(refreshed.body.hasPrefix(#"{"version":"#))
    }
}
