import Foundation
import TestSupport
import Testing

/// `players` reads its command line as git users expect: usage errors in
/// one line and a hint, `--version`, the database options before the
/// subcommand, suggestions for typos, short flags, completions, and the
/// exit codes of refusals.
@Suite struct CommandLineTests {
    /// A sandbox with a database of one player.
    func sandboxWithAPlayer() async throws -> CLISandbox {
        let sandbox = try CLISandbox()
        try await sandbox.runChecked(["init"])
        try await sandbox.runChecked(["add", "--name", "Arthur", "--score", "42"])
        return sandbox
    }

    @Test(arguments: [
        ["add", "--score", "1"],
        ["add", "--name"],
        ["edit", "1"],
        ["delete"],
        ["sync", "--timeout", "0"],
        ["list", "--order", "age"],
        ["conflicts", "resolve", "not-an-id", "--keep-local"],
    ])
    func aUsageErrorIsOneLineAndAHint(_ arguments: [String]) async throws {
        let sandbox = try await sandboxWithAPlayer()
        let before = sandbox.databaseSnapshot()
        let result = try await sandbox.run(arguments)
        #expect(result.status == 2)
        let lines = result.error.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count == 2, "\(result.error)")
        #expect(lines.first?.hasPrefix("players: ") == true, "\(result.error)")
        #expect(lines.last == "See 'players \(arguments[0] == "conflicts" ? "conflicts resolve" : arguments[0]) --help' for more information.")
        #expect(!result.error.contains("Error:"))
        #expect(sandbox.databaseSnapshot() == before)
    }

    @Test(arguments: [["add", "--name", "Zaphod", "--score", "-5"], ["edit", "1", "-s", "-5"]])
    func aNegativeScoreIsRefusedWithTheRule(_ arguments: [String]) async throws {
        let sandbox = try await sandboxWithAPlayer()
        let before = sandbox.databaseSnapshot()
        let result = try await sandbox.run(arguments)
        #expect(result.status == 2)
        #expect(result.error.hasPrefix("players: the score is -5, outside 0…1000000000: it must be an integer from 0 to 1000000000\n"),
                "\(result.error)")
        #expect(sandbox.databaseSnapshot() == before)
    }

    @Test func versionNamesTheLibrariesAndTheBuild() async throws {
        let result = try await CLISandbox().run(["--version"])
        #expect(result.status == 0)
        #expect(result.output.hasPrefix("players 0.20.0 (SQLCipher 3.4.1"), "\(result.output)")
        #expect(result.output.hasSuffix(", SQLite 3.15.2, debug build)\n"), "\(result.output)")
    }

    /// `players version` and `players -v`, as git has `git version`.
    @Test(arguments: [["version"], ["-v"]])
    func versionHasASubcommandAndAShortFlag(_ arguments: [String]) async throws {
        let sandbox = try CLISandbox()
        let expected = try await sandbox.run(["--version"])
        let result = try await sandbox.run(arguments)
        #expect(result.status == 0 && expected.status == 0)
        #expect(result.output == expected.output)
    }

    @Test func remoteRemoveForgetsTheStoredURL() async throws {
        let sandbox = try await sandboxWithAPlayer()
        try await sandbox.runChecked(["remote", "set", "http://127.0.0.1:8080"])
        let removed = try await sandbox.run(["remote", "remove"])
        #expect(removed.status == 0)
        #expect(removed.output == "Removed the remote http://127.0.0.1:8080: 'players sync' needs --url until 'players remote set URL'.\n")
        await #expect(try sandbox.run(["remote"]).output == "No remote is set: run 'players remote set URL'.\n")
        let again = try await sandbox.run(["remote", "remove"])
        #expect(again.status == 0)
        #expect(again.output == "No remote was set: nothing to remove.\n")
        // Without a remote, a sync asks for a URL instead of using the old one.
        let sync = try await sandbox.run(["sync"])
        #expect(sync.status == 2, "\(sync.error)")
    }

    /// Without a key option, a database of another key meets the default
    /// key file: the error names it, and how to give the right key.
    @Test func aDatabaseTheDefaultKeyFileDoesNotOpenIsToldSo() async throws {
        let sandbox = try await sandboxWithAPlayer()
        let passphrase = try sandbox.writeSecret("team-passphrase", "team secret\n")
        let team = sandbox.root.appendingPathComponent("team.db").path
        try await sandbox.runChecked(["init", "-d", team, "--passphrase-file", passphrase])
        for command in [["list"], ["verify"]] {
            let result = try await sandbox.run(["-d", team] + command)
            #expect(result.status == 3, "\(command): \(result.error)")
            #expect(result.error == "players: the default key file, \(sandbox.keyPath), does not open \(team): the file has another key, "
                + "or is not an encrypted players database; give its key with --key-file, --passphrase-file or PLAYERS_PASSPHRASE\n")
            #expect(!result.error.contains("team secret"))
        }
        await #expect(try sandbox.run(["-d", team, "--passphrase-file", passphrase, "list"]).status == 0)
    }

    /// What `players init` asks on a terminal.
    static func newPassphrasePrompt(_ sandbox: CLISandbox) -> String {
        "New passphrase for \(sandbox.databasePath) (empty for a random key in a key file): "
    }

    /// The answers to `init`'s (and `encrypt`'s) two questions: `passphrase`,
    /// then `again` (the same unless given).
    static func newPassphraseReplies(_ sandbox: CLISandbox, _ passphrase: String, again: String? = nil) -> [(prompt: String, reply: String)] {
        [(newPassphrasePrompt(sandbox), passphrase), ("The same passphrase again: ", again ?? passphrase)]
    }

    /// `players init` on a terminal, without a key option or default key
    /// file, asks for a passphrase twice, as the sqlcipher shell's users
    /// expect; the later commands ask for it, or read it from a file.
    @Test func initOnATerminalAsksForAPassphraseTwice() async throws {
        let sandbox = try CLISandbox()
        let result = try await runOnTerminal(sandbox.makeProcess(["init"]), replies: Self.newPassphraseReplies(sandbox, "team secret\n"))
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("Its key is the passphrase you entered"), "\(result.output)")
        #expect(!result.output.contains("team secret"), "the passphrase was echoed: \(result.output)")
        #expect(!FileManager.default.fileExists(atPath: sandbox.keyPath))
        let passphrase = try sandbox.writeSecret("passphrase", "team secret\n")
        await #expect(try sandbox.run(["list", "--passphrase-file", passphrase]).status == 0)
    }

    /// `players encrypt` takes the key as `players init` does: asked on a
    /// terminal, after the file to import was found acceptable.
    @Test func encryptOnATerminalAsksForAPassphraseTwice() async throws {
        let sandbox = try CLISandbox()
        let source = try await sandbox.makeSeedsPlaintextDatabase("plain.db", "INSERT INTO player (name, score) VALUES ('Arthur', 100);")
        let result = try await runOnTerminal(sandbox.makeProcess(["encrypt", "--quiet", source]),
                                             replies: Self.newPassphraseReplies(sandbox, "team secret\n"))
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("Its key is the passphrase you entered"), "\(result.output)")
        #expect(!FileManager.default.fileExists(atPath: sandbox.keyPath))
        let passphrase = try sandbox.writeSecret("passphrase", "team secret\n")
        let list = try await sandbox.run(["list", "--passphrase-file", passphrase])
        #expect(list.status == 0, "\(list.error)")
        #expect(list.output.contains("Arthur"))
    }

    @Test func encryptOnATerminalWithTwoDifferentPassphrasesCreatesNothing() async throws {
        let sandbox = try CLISandbox()
        let source = try await sandbox.makeSeedsPlaintextDatabase("plain.db")
        let result = try await runOnTerminal(sandbox.makeProcess(["encrypt", source]),
                                             replies: Self.newPassphraseReplies(sandbox, "one\n", again: "another\n"))
        #expect(result.status == 1, "\(result.output)")
        #expect(result.output.contains("players: the two passphrases differ: nothing was created"), "\(result.output)")
        #expect(!FileManager.default.fileExists(atPath: URL(fileURLWithPath: sandbox.databasePath).deletingLastPathComponent().path))
        #expect(!FileManager.default.fileExists(atPath: sandbox.keyPath))
    }

    @Test func encryptAsksNothingForAFileItRefuses() async throws {
        let sandbox = try CLISandbox()
        let source = try sandbox.writeSecret("notes.txt", "not a database\n")
        let result = try await runOnTerminal(sandbox.makeProcess(["encrypt", source]), replies: [])
        #expect(result.status == 1, "\(result.output)")
        #expect(!result.output.contains("passphrase"), "\(result.output)")
        #expect(result.output.contains("is not a plaintext SQLite database: nothing was created"), "\(result.output)")
        #expect(!FileManager.default.fileExists(atPath: sandbox.databasePath))
    }

    @Test func initOnATerminalRefusesTwoDifferentPassphrases() async throws {
        let sandbox = try CLISandbox()
        let result = try await runOnTerminal(sandbox.makeProcess(["init"]),
                                             replies: Self.newPassphraseReplies(sandbox, "one\n", again: "another\n"))
        #expect(result.status == 1, "\(result.output)")
        #expect(result.output.contains("players: the two passphrases differ: nothing was created"), "\(result.output)")
        #expect(!FileManager.default.fileExists(atPath: sandbox.databasePath))
        #expect(!FileManager.default.fileExists(atPath: sandbox.keyPath))
    }

    /// An empty answer keeps the random key, and says where it is.
    @Test func initOnATerminalWithAnEmptyAnswerWritesARandomKeyFile() async throws {
        let sandbox = try CLISandbox()
        let prompt = Self.newPassphrasePrompt(sandbox)
        let result = try await runOnTerminal(sandbox.makeProcess(["init"]), replies: [(prompt, "\n")])
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("Its key is in \(sandbox.keyPath): keep a copy of it in a safe place."), "\(result.output)")
        await #expect(try sandbox.run(["list"]).status == 0)
    }

    @Test func theDatabaseOptionsMayComeBeforeTheSubcommand() async throws {
        let sandbox = try CLISandbox()
        let path = sandbox.root.appendingPathComponent("other.db").path
        await #expect(try sandbox.run(["-d", path, "init"]).status == 0)
        await #expect(try sandbox.run(["--database", path, "add", "-n", "Ford", "-s", "7"]).output == "Added player 1: Ford, 7.\n")
        await #expect(try sandbox.run(["--database=\(path)", "list"]).output == "ID  NAME  SCORE\n 1  Ford      7\n")
        await #expect(try sandbox.run(["-d", path, "--key-file", sandbox.keyPath, "remote", "set", "http://127.0.0.1:8080"]).status == 0)
        let resolve = try await sandbox.run(["-d", path, "conflicts", "resolve", "1", "--keep-local"])
        #expect(resolve.status == 1)
        #expect(resolve.error.hasPrefix("players: no conflict for the player "), "\(resolve.error)")
        // The default database was never created.
        #expect(!FileManager.default.fileExists(atPath: sandbox.databasePath))
    }

    @Test(arguments: [
        (["lsit"], "players: 'lsit' is not a players command; did you mean 'list'?\n"),
        (["conflicts", "reslove"], "players: 'reslove' is not a players conflicts command; did you mean 'resolve'?\n"),
        (["frobnicate"], "players: 'frobnicate' is not a players command; see 'players --help'\n"),
        (["add", "--nmae", "Ford", "--score", "1"], "players: unknown option '--nmae'; did you mean '--name'?\n"),
        (["list", "--bogus"], "players: unknown option '--bogus'; see 'players list --help'\n"),
    ])
    func aMistypedWordGetsTheNearestSuggested(_ arguments: [String], _ message: String) async throws {
        let result = try await CLISandbox().run(arguments)
        #expect(result.status == 2)
        #expect(result.error == message)
    }

    @Test func shortFlagsWorkAndHelpListsThemWithAnExample() async throws {
        let sandbox = try await sandboxWithAPlayer()
        await #expect(try sandbox.run(["edit", "1", "-n", "Arthur Dent", "-s", "4200"]).output == "Player 1: Arthur Dent, 4200.\n")
        let backup = sandbox.root.appendingPathComponent("backup.db").path
        await #expect(try sandbox.run(["backup", "-q", backup]).status == 0)
        await #expect(try sandbox.run(["backup", "-q", "-f", backup]).status == 0)
        let info = try await sandbox.run(["info", "-j"])
        #expect(try JSONSerialization.jsonObject(with: Data(info.output.utf8)) is [String: Any])
        let help = try await sandbox.run(["add", "--help"]).output
        #expect(help.contains("-n, --name <name>") && help.contains("-s, --score <score>") && help.contains("-d, --database <path>"))
        #expect(help.contains("Example: players add -n 'Arthur Dent' -s 42"))
    }

    /// `players` built here prints the pages of this tree's Docs/.
    @Test(arguments: ["cli", "sync", "syncprotocol"])
    func docsPrintsAPageAsItIsInDocs(_ page: String) async throws {
        let result = try await CLISandbox().run(["docs", page])
        #expect(result.status == 0, "\(result.error)")
        let docs = BuiltProducts.packageRoot.appendingPathComponent("Docs")
        let file = try #require(FileManager.default.contentsOfDirectory(atPath: docs.path).first { $0.lowercased() == page + ".md" })
        #expect(result.output == (try String(contentsOf: docs.appendingPathComponent(file), encoding: .utf8)))
    }

    /// An installed `players` (PREFIX/bin/players) prints the pages that
    /// `make install` put in PREFIX/share/doc/players.
    @Test func docsPrintsThePagesInstalledNextToPlayers() async throws {
        let prefix = try TemporaryFolder()
        try FileManager.default.createDirectory(at: prefix.url("bin"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: prefix.url("share/doc/players"), withIntermediateDirectories: true)
        // Copied by cp, not by this process: a child that another test
        // spawns meanwhile would inherit the copy's open descriptor, and
        // running the copy would fail with "Text file busy" until it execs.
        let copy = try await run("/bin/cp", [BuiltProducts.path("players"), prefix.path("bin/players")])
        try #require(copy.status == 0, "\(copy.error)")
        try "# Sync, as installed\n".write(to: prefix.url("share/doc/players/Sync.md"), atomically: true, encoding: .utf8)
        let environment = ["HOME": prefix.path, "PATH": "/usr/bin:/bin"]
        let page = try await run(prefix.path("bin/players"), ["docs", "sync"], environment: environment)
        #expect(page.status == 0, "\(page.error)")
        #expect(page.output == "# Sync, as installed\n")
        await #expect(try run(prefix.path("bin/players"), ["docs"], environment: environment).output == "players docs sync\n")
    }

    @Test func docsListsThePagesOfDocsAndRefusesAnother() async throws {
        let sandbox = try CLISandbox()
        let names = try FileManager.default.contentsOfDirectory(atPath: BuiltProducts.packageRoot.appendingPathComponent("Docs").path)
            .filter { $0.hasSuffix(".md") }.map { String($0.dropLast(3)).lowercased() }.sorted()
        await #expect(try sandbox.run(["docs"]).output == names.map { "players docs \($0)\n" }.joined())
        let unknown = try await sandbox.run(["docs", "nonesuch"])
        #expect(unknown.status == 2)
        #expect(unknown.error == "players: there is no page 'nonesuch': the pages are \(names.joined(separator: ", ")).\n", "\(unknown.error)")
    }

    /// Every command, subcommands of subcommands included, found from the
    /// help's SUBCOMMANDS lists: `--quiet` comes with `-q`, `--json` with
    /// `-j`, as CLI.md says.
    @Test func everyQuietAndJSONFlagHasItsShortFlag() async throws {
        let sandbox = try CLISandbox()
        var commands: [[String]] = [[]], checked = 0
        while let command = commands.popLast() {
            let help = try await sandbox.run(command + ["--help"]).output
            checked += 1
            for (long, short) in [("--quiet", "-q"), ("--json", "-j")] where help.contains(long) {
                #expect(help.contains("\(short), \(long)"), "players \(command.joined(separator: " ")): \(long) without \(short)")
            }
            // The help refers to pages that `players` carries, never to a
            // file of the source tree, which is not installed.
            #expect(!help.contains("Docs/"), "players \(command.joined(separator: " ")) --help names a file of Docs/")
            for page in help.components(separatedBy: "'players docs ").dropFirst().map({ $0.prefix { $0.isLetter } }) {
                await #expect(try sandbox.run(["docs", String(page)]).status == 0, "players \(command.joined(separator: " ")): no page \(page)")
            }
            let subcommands = help.components(separatedBy: "SUBCOMMANDS:\n").dropFirst().first ?? ""
            for line in subcommands.split(separator: "\n") where line.hasPrefix("  ") && !line.hasPrefix("   ") {
                let name = line.split(separator: " ")[0]
                if name != "See", name != "help" { commands.append(command + [String(name)]) }
            }
        }
        #expect(checked > 20, "only \(checked) commands found in the help")
    }

    @Test(arguments: ["bash", "zsh", "fish"])
    func completionScriptsNameTheSubcommands(_ shell: String) async throws {
        let result = try await CLISandbox().run(["--generate-completion-script", shell])
        #expect(result.status == 0)
        for subcommand in ["list", "add", "sync", "conflicts"] { #expect(result.output.contains(subcommand)) }
        if shell == "bash" {
            let script = try TemporaryFolder()
            try result.output.write(to: script.url("players.bash"), atomically: true, encoding: .utf8)
            await #expect(try run("/bin/bash", ["-n", script.path("players.bash")]).status == 0)
        }
    }

    /// What bash offers for the last word of `words`, in a folder that
    /// holds `team.db`: the completion script that `players` generates,
    /// run as bash runs it on a TAB.
    func bashCompletions(_ words: [String]) async throws -> [String] {
        let script = try await CLISandbox().run(["--generate-completion-script", "bash"])
        try #require(script.status == 0)
        let folder = try TemporaryFolder()
        try script.output.write(to: folder.url("players.bash"), atomically: true, encoding: .utf8)
        try #require(FileManager.default.createFile(atPath: folder.path("team.db"), contents: Data()))
        let line = words.joined(separator: " ")
        let quoted = words.map { "'\($0)'" }.joined(separator: " ")
        let session = """
            cd '\(folder.path)' && source players.bash 2>/dev/null
            COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1); COMP_LINE='\(line)'; COMP_POINT=${#COMP_LINE}
            _players players "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}" 2>/dev/null
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        let result = try await run("/bin/bash", ["-c", session])
        try #require(result.status == 0, "\(result.error)")
        return result.output.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
    }

    @Test(arguments: [["players", "-d", ""], ["players", "--database", ""], ["players", "list", "-d", ""], ["players", "--key-file", ""]])
    func bashCompletesTheFileOfADatabaseOptionBeforeOrAfterTheCommand(_ words: [String]) async throws {
        let offered = try await bashCompletions(words)
        #expect(offered.contains("team.db"), "\(offered)")
        #expect(!offered.contains("list"), "\(offered)")
    }

    @Test func bashCompletesVersion() async throws {
        #expect(try await bashCompletions(["players", "--vers"]) == ["--version"])
    }

    @Test func bashCompletesThePagesOfDocs() async throws {
        #expect(try await bashCompletions(["players", "docs", "sync"]) == ["sync", "syncengine", "syncprotocol"])
    }

    @Test(arguments: ["n\n", "whatever\n", ""])
    func aDeclinedConfirmationDeletesNothingAndExitsOne(_ answer: String) async throws {
        let sandbox = try await sandboxWithAPlayer()
        let before = sandbox.databaseSnapshot()
        let result = try await runOnTerminal(try sandbox.makeProcess(["delete", "--all"]), input: answer)
        #expect(result.status == 1)
        #expect(result.output.contains("Delete all 1 players from \(sandbox.databasePath)? [y/N] "))
        #expect(result.output.hasSuffix("players: Aborted: nothing deleted.\n"), "\(result.output)")
        if answer.isEmpty {
            // After Ctrl-D, which the terminal does not echo, on a line of its own.
            #expect(result.output.hasSuffix("[y/N] \nplayers: Aborted: nothing deleted.\n"), "\(result.output)")
        }
        #expect(sandbox.databaseSnapshot() == before)
    }

    @Test func aConfirmedDeletionDeletesEveryPlayer() async throws {
        let sandbox = try await sandboxWithAPlayer()
        let result = try await runOnTerminal(try sandbox.makeProcess(["delete", "--all"]), input: "y\n")
        #expect(result.status == 0)
        #expect(result.output.hasSuffix("Deleted all players.\n"))
        let info = try await JSONSerialization.jsonObject(with: Data(try sandbox.run(["info", "--json"]).output.utf8)) as? [String: Any]
        #expect(info?["playerCount"] as? Int == 0)
    }

    @Test func aBackupWithAnotherKeyIsRefusedWithExitCodeThree() async throws {
        let sandbox = try await sandboxWithAPlayer()
        let passphrase = try sandbox.writeSecret("backup-passphrase", "another passphrase")
        let backup = sandbox.root.appendingPathComponent("backup.db").path
        await #expect(try sandbox.run(["backup", "--quiet", "--to-passphrase-file", passphrase, backup]).status == 0)
        let before = sandbox.databaseSnapshot()

        let result = try await sandbox.run(["restore", "--quiet", backup])
        #expect(result.status == 3)
        #expect(result.error == "players: \(backup) does not open with the given key, or is not a players database: nothing was restored; "
            + "give the key it was made with (--from-key-file or --from-passphrase-file)\n")
        #expect(sandbox.databaseSnapshot() == before)
        await #expect(try sandbox.run(["restore", "--quiet", "--from-passphrase-file", passphrase, backup]).status == 0)
    }
}
