import ArgumentParser
import CipherSync
import Foundation
import Notes
import SyncEngine
import SyncSchema
import TerminalText

extension NotesCommand {
    struct Conflicts: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List or settle the local changes that lost to the server's.",
            discussion: """
                A change of a notebook or note that changed on the server since (the same column of a \
                note, or any column of a notebook), or that was deleted there, loses to the server's state \
                and is kept here with both values. Keep it ('resolve ID --keep-local': the next sync pushes \
                it) or drop it ('resolve ID --keep-server').
                """,
            subcommands: [List.self, Resolve.self],
            defaultSubcommand: List.self)
    }
}

extension NotesCommand.Conflicts {
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the conflicts, oldest first, with both values.")

        @OptionGroup var options: NotesOptions
        @Flag(help: "A JSON array: table, id, local and server values, the server's version, when.") var json = false

        func run() async throws {
            let conflicts = try options.open().conflicts()
            if json {
                print(try NotesJSON.text(conflicts.map(Entry.init)))
                return
            }
            guard !conflicts.isEmpty else {
                print("No conflicts.")
                return
            }
            for conflict in conflicts { print(PrintableText.escaping(Self.line(conflict))) }
        }

        /// `note 5C2F…: yours title "Shopping B" (changed 2026-12-06T10:00:00Z);
        /// the server's title "Shopping A" (version 7)`, on one line: the
        /// columns that differed, each side's; every column of a row that
        /// one side deleted; then why the server refused it, if it did.
        static func line(_ conflict: SyncConflict) -> String {
            // The server's row is whole: its columns that differed, unless
            // the local row is deleted.
            let columns = conflict.localValues.map { Set($0.keys) }
            let server = conflict.serverValues.map { values in columns.map { shown in values.filter { shown.contains($0.key) } } ?? values }
            let version = conflict.serverVersion.map { " (version \($0))" } ?? ""
            return "\(conflict.table) \(conflict.rowID.uuidString): yours \(text(conflict.localValues, deleted: "deleted here")) "
                + "(changed \(conflict.changedAt.formatted(.iso8601))); the server's \(text(server, deleted: "deleted on the server"))\(version)"
                + (conflict.refusal.map { "; refused by the server: \($0)" } ?? "")
        }

        /// `title "Shopping", done true`: the columns in order, each value as
        /// JSON writes it, a long text cut at 60 characters.
        static func text(_ values: [String: SyncJSONScalar]?, deleted: String) -> String {
            guard let values else { return deleted }
            guard !values.isEmpty else { return "no column" }
            return values.sorted { $0.key < $1.key }.map { column, value in
                if case .string(let string) = value, string.count > 60 {
                    return "\(column) \(SyncJSONScalar.string(String(string.prefix(60)) + "…"))"
                }
                return "\(column) \(value)"
            }.joined(separator: ", ")
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
            var refusal: String?

            init(_ conflict: SyncConflict) {
                table = conflict.table
                id = conflict.rowID.uuidString
                local = conflict.localValues
                server = conflict.serverValues
                serverVersion = conflict.serverVersion
                changedAt = conflict.changedAt
                detectedAt = conflict.detectedAt
                refusal = conflict.refusal
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
                try container.encodeIfPresent(refusal, forKey: .refusal)
            }

            enum CodingKeys: CodingKey { case table, id, local, server, serverVersion, changedAt, detectedAt, refusal }
        }
    }
}

extension NotesCommand.Conflicts {
    struct Resolve: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Keep the local value of a notebook or note (pushed by the next sync), or the server's.",
            discussion: """
                Keeping a note or notebook that the server deleted brings it back, unless its notebook is \
                deleted too. Example: notes conflicts resolve 0CCF2B1F-9D58-4B77-9ADD-B410E1E65D34 --keep-local
                """)

        @OptionGroup var options: NotesOptions
        @Argument(help: "The notebook's or note's id, as 'notes conflicts' lists it.") var id: UUID
        @Flag(help: "Make the local value the row's value again: the next sync pushes it.") var keepLocal = false
        @Flag(help: "Keep the server's value, and drop the local one.") var keepServer = false

        func validate() throws {
            guard keepLocal != keepServer else { throw ValidationError("Give --keep-local or --keep-server.") }
        }

        func run() async throws {
            try options.open().resolveConflicts(of: id, keepLocal: keepLocal)
            print(keepLocal
                  ? "Kept the local value of \(id.uuidString): the next sync pushes it."
                  : "Kept the server's value of \(id.uuidString).")
        }
    }
}
