import ArgumentParser
import CipherSync
import Foundation
import Notes
import SyncEngine
import SyncSchema

extension NotesCommand {
    struct Conflicts: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the local changes that lost to the server's, with both values.")

        @OptionGroup var options: NotesOptions
        @Flag(help: "A JSON array: table, id, local and server values, the server's version, when.") var json = false

        func run() async throws {
            let conflicts = try options.open().conflicts()
            if json {
                print(try NotesJSON.text(conflicts.map(Entry.init)))
                return
            }
            for conflict in conflicts {
                let local = conflict.localValues.map { "\($0)" } ?? "deleted here"
                let server = conflict.serverValues.map { "\($0)" } ?? "deleted on the server"
                print(PrintableText.escaping("\(conflict.table) \(conflict.rowID.uuidString): yours \(local), the server's \(server)"))
            }
        }

        /// One conflict of `conflicts --json`.
        struct Entry: Encodable {
            var table: String
            var id: String
            var local: [String: SyncJSONScalar]?
            var server: [String: SyncJSONScalar]?
            var serverVersion: Int64?
            var changedAt: Date
            var detectedAt: Date

            init(_ conflict: SyncConflict) {
                table = conflict.table
                id = conflict.rowID.uuidString
                local = conflict.localValues
                server = conflict.serverValues
                serverVersion = conflict.serverVersion
                changedAt = conflict.changedAt
                detectedAt = conflict.detectedAt
            }

            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(table, forKey: .table)
                try container.encode(id, forKey: .id)
                try container.encode(local, forKey: .local)
                try container.encode(server, forKey: .server)
                try container.encode(serverVersion, forKey: .serverVersion)
                try container.encode(changedAt, forKey: .changedAt)
                try container.encode(detectedAt, forKey: .detectedAt)
            }

            enum CodingKeys: CodingKey { case table, id, local, server, serverVersion, changedAt, detectedAt }
        }
    }
}
