import AppCommandLine
import ArgumentParser
import Foundation
import Players

extension PlayersCommand {
    struct Conflicts: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List or settle the local changes that lost to the server's.",
            discussion: """
                When a sync pushes a change to a player that changed on the server since, the \\
                server's value wins on every client and the local value is kept here. Keep it \\
                ('resolve ID --keep-local': the next sync pushes it again) or drop it \\
                ('resolve ID --keep-server'); a player deleted here is named by its uuid. See 'players docs sync'.

                Example: players conflicts resolve 27 --keep-local
                """,
            subcommands: [List.self, Resolve.self],
            defaultSubcommand: List.self)

        struct List: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "List the conflicts, oldest first.",
                discussion: "Example: players conflicts -j")

            @OptionGroup var options: DatabaseOptions

            @Flag(name: [.long, .customShort("j")], help: "Print a JSON array instead of lines.")
            var json = false

            func run() async throws {
                let (appDatabase, _) = try options.openDatabase()
                defer { try? appDatabase.close() }
                let conflicts: [PlayerConflict]
                do {
                    conflicts = try appDatabase.conflicts()
                } catch {
                    throw CLIError.from(error)
                }
                if json {
                    print(try JSONOutput.string(conflicts.map(ConflictOutput.init)))
                } else if conflicts.isEmpty {
                    print("No conflicts.")
                } else {
                    for conflict in conflicts { Terminal.printLine(ConflictOutput(conflict).line) }
                }
            }
        }

        struct Resolve: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Keep the local value of a player (pushed by the next sync), or the server's.",
                discussion: "Example: players conflicts resolve 27 --keep-server")

            @OptionGroup var options: DatabaseOptions

            @Argument(help: ArgumentHelp(
                "The player: its id here, or its uuid as 'players conflicts' lists it (the uuid for a player deleted here).",
                valueName: "id-or-uuid"))
            var player: String

            @Flag(help: "Make the local value the player's value again: the next sync pushes it.")
            var keepLocal = false

            @Flag(help: "Keep the server's value, and drop the local one.")
            var keepServer = false

            func validate() throws {
                guard UUID(uuidString: player) != nil || Int64(player) != nil else {
                    throw ValidationError("Give the player's id or uuid, such as 27 or 0CCF2B1F-9D58-4B77-9ADD-B410E1E65D34.")
                }
                guard keepLocal != keepServer else {
                    throw ValidationError("Give --keep-local or --keep-server.")
                }
            }

            func run() async throws {
                let (appDatabase, _) = try options.openDatabase()
                defer { try? appDatabase.close() }
                let uuid: UUID
                let resolved: Bool
                do {
                    uuid = try await playerUUID(in: appDatabase)
                    resolved = try appDatabase.resolveConflicts(of: uuid, keepLocal: keepLocal)
                } catch {
                    throw CLIError.from(error)
                }
                guard resolved else {
                    throw CLIError.failure("no conflict for the player \(uuid.uuidString): nothing was changed")
                }
                print(keepLocal
                      ? "Kept the local value of \(uuid.uuidString): the next sync pushes it."
                      : "Kept the server's value of \(uuid.uuidString).")
            }

            /// The uuid given, or the one of the player with the id given.
            func playerUUID(in appDatabase: AppDatabase) async throws -> UUID {
                if let uuid = UUID(uuidString: player) { return uuid }
                let id = Int64(player)!
                guard let uuid = try await appDatabase.reader.read({ db in try Player.fetchOne(db, id: id)?.uuid }) else {
                    throw CLIError.failure("no player with id \(id): give the uuid that 'players conflicts' lists")
                }
                return uuid
            }
        }
    }
}

/// A conflict as `players conflicts` prints it.
struct ConflictOutput: Encodable {
    struct Value: Encodable {
        var deleted: Bool
        var name: String?
        var score: Int?
        var version: Int64?
    }

    var uuid: UUID
    /// The player's name: the server's, or the local one when the server
    /// deleted the player.
    var name: String?
    var local: Value
    var server: Value
    var changedAt: Date
    var detectedAt: Date
    /// Why the server refused the change; absent for a change that lost
    /// to another.
    var refusal: String?

    init(_ conflict: PlayerConflict) {
        uuid = conflict.playerUUID
        name = conflict.serverName ?? conflict.localName
        local = Value(deleted: conflict.localIsDeletion, name: conflict.localName, score: conflict.localScore)
        server = Value(deleted: conflict.serverIsDeletion, name: conflict.serverName, score: conflict.serverScore, version: conflict.serverVersion)
        changedAt = conflict.changedAt
        detectedAt = conflict.detectedAt
        refusal = conflict.refusal
    }

    /// `UUID  Arthur: local 120 (changed 2026-11-23T10:00:00Z), server 150 (version 7)`,
    /// then `; refused by the server: …` for a change it refused.
    var line: String {
        func text(_ value: Value) -> String {
            guard !value.deleted, let name = value.name, let score = value.score else { return "deleted" }
            return "\(name), \(score)"
        }
        let version = server.version.map { " (version \($0))" } ?? ""
        return "\(uuid.uuidString)  \(name ?? "?"): local \(text(local)) (changed \(Self.timestamp(changedAt))), server \(text(server))\(version)"
            + (refusal.map { "; refused by the server: \($0)" } ?? "")
    }

    static func timestamp(_ date: Date) -> String {
        date.formatted(.iso8601)
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(uuid, forKey: .uuid)
        try container.encode(name, forKey: .name)
        try container.encode(local, forKey: .local)
        try container.encode(server, forKey: .server)
        try container.encode(Self.timestamp(changedAt), forKey: .changedAt)
        try container.encode(Self.timestamp(detectedAt), forKey: .detectedAt)
        try container.encodeIfPresent(refusal, forKey: .refusal)
    }

    private enum CodingKeys: String, CodingKey {
        case uuid, name, local, server, changedAt, detectedAt, refusal
    }
}
