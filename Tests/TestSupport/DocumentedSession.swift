import Foundation

/// The `console` blocks of one page of the documentation, run as a reader
/// would type them, and compared with what the page says they print.
///
/// The rules, for whoever writes a page (Docs/CLI.md repeats them):
/// - every `$ ` line is a command, run by one bash for the whole page, in a
///   temporary home, with the built executables first on `PATH` (then the
///   tests' own `PATH`) and
///   standard input at end of file (not a terminal); standard output and
///   error are read together. The blocks of a page run in order, so that a
///   page can be one session;
/// - the lines after a command, up to the next one, are its output. The
///   temporary home reads as `/home/me`; `…` inside a line matches any
///   text; a line that is only `…` matches any number of lines;
/// - a command that ends with ` &` runs in the background: its output is its
///   first line of standard output (its standard error is not compared),
///   and the next command starts once that line is out. Whatever runs in
///   the background is killed when the page ends;
/// - `8080` is replaced by a free port in the commands, and that port by
///   `8080` in the output, so that a page can start a server on 8080;
/// - `~/CipherDB` is this checkout (for `cd ~/CipherDB` and `make`), and
///   `make install` installs the configuration of the tests (debug in
///   `make test`: `CONFIGURATION` is set);
/// - a command with a heredoc (`cat > main.swift <<'EOF'`) takes the lines
///   that follow, up to the line that is its word alone (`EOF`), as the
///   heredoc's: they are the file a page shows, written by the command,
///   not its output (`<<-` strips their leading tabs, as bash does). A
///   page that ends a block before that line is an error of the page;
/// - a block after the line `<!-- illustration -->` is not run; a block
///   may be indented (in a list item);
/// - a page with a line that starts with `<!-- long tier` (a comment that
///   says why) runs in the long tier only (`CIPHERDB_TEST_TIER=long`,
///   ``TestTier``): a page whose run costs minutes, such as one that
///   builds a package of its own.
public struct DocumentedSession: Sendable {
    /// One `$ ` line and the output written under it.
    public struct Command: Sendable, CustomStringConvertible {
        /// The command, with its heredocs' lines and their ends, if any.
        public var text: String
        public var expected: [String]
        /// The line of the page (from 1).
        public var line: Int
        public var runsInBackground: Bool { text.hasSuffix(" &") }
        /// Its `$ ` line alone: a heredoc's lines are in the page.
        public var description: String { "line \(line): $ \(text.prefix { $0 != "\n" })" }
    }

    /// A command whose output is not what the page says.
    public struct Mismatch: Sendable, CustomStringConvertible {
        public var command: Command
        public var status: Int32?
        public var actual: [String]

        public var description: String {
            "\(command) (exit status \(status.map(String.init) ?? "none: the page stopped before it"))\n"
                + "expected:\n" + command.expected.map { "  | \($0)" }.joined(separator: "\n")
                + "\nactual:\n" + actual.map { "  | \($0)" }.joined(separator: "\n")
        }
    }

    /// The page, from the package root (`Docs/CLI.md`).
    public let page: String
    public let commands: [Command]
    /// Blocks with no command that are not marked as illustrations: errors
    /// of the page itself (their first lines).
    public let blocksWithoutCommands: [Int]
    /// Whether the page runs in the long tier only (`<!-- long tier …`).
    public let runsInLongTierOnly: Bool

    /// The pages whose blocks are run in `tier`: README.md and Docs/*.md,
    /// less, in the correctness tier, those of the long tier only.
    public static func pages(tier: TestTier = .current) throws -> [String] {
        let docs = try FileManager.default.contentsOfDirectory(atPath: BuiltProducts.packageRoot.appendingPathComponent("Docs").path)
        let pages = ["README.md"] + docs.filter { $0.hasSuffix(".md") }.sorted().map { "Docs/\($0)" }
        guard tier == .correctness else { return pages }
        return try pages.filter { try !DocumentedSession(page: $0).runsInLongTierOnly }
    }

    /// Reads the blocks of `page`.
    public init(page: String) throws {
        try self.init(page: page, text: String(contentsOf: BuiltProducts.packageRoot.appendingPathComponent(page), encoding: .utf8))
    }

    /// Reads the blocks of `text`, the page `page`.
    public init(page: String, text: String) throws {
        self.page = page
        var commands: [Command] = []
        /// The ends of the heredocs of the last command still to come
        /// (their words, and whether leading tabs are stripped), in order.
        var heredocEnds: [(word: String, stripsTabs: Bool)] = []
        var blocksWithoutCommands: [Int] = []
        var insideBlock = false, skipped = false, blockStart = 0, blockCommands = 0, indent = 0, longTierOnly = false
        var previous = ""
        for (index, rawLine) in text.components(separatedBy: "\n").enumerated() {
            // A block may be indented, inside a list item.
            let trimmed = String(rawLine.drop { $0 == " " })
            if !insideBlock {
                if trimmed == "```console" {
                    insideBlock = true
                    skipped = previous == "<!-- illustration -->"
                    blockStart = index + 1
                    blockCommands = 0
                    indent = rawLine.count - trimmed.count
                }
                if !trimmed.isEmpty { previous = trimmed }
                if trimmed.hasPrefix("<!-- long tier") { longTierOnly = true }
                continue
            }
            if trimmed.hasPrefix("```") {
                if let end = heredocEnds.first {
                    throw TestFailure("\(page), \(commands[commands.count - 1]): its heredoc has no line '\(end.word)' before the end of its block.")
                }
                insideBlock = false
                if !skipped && blockCommands == 0 { blocksWithoutCommands.append(blockStart) }
                previous = trimmed
                continue
            }
            if skipped { continue }
            let line = String(rawLine.dropFirst(min(indent, rawLine.count - trimmed.count)))
            if let end = heredocEnds.first {
                commands[commands.count - 1].text += "\n" + line
                if (end.stripsTabs ? String(line.drop { $0 == "\t" }) : line) == end.word { heredocEnds.removeFirst() }
            } else if line.hasPrefix("$ ") {
                commands.append(Command(text: String(line.dropFirst(2)), expected: [], line: index + 1))
                heredocEnds = Self.heredocEnds(of: line)
                blockCommands += 1
            } else if !commands.isEmpty, blockCommands > 0 {
                commands[commands.count - 1].expected.append(line)
            }
        }
        self.commands = commands
        self.blocksWithoutCommands = blocksWithoutCommands
        runsInLongTierOnly = longTierOnly
    }

    /// The words that end the heredocs of a command line, in order:
    /// `<<WORD`, `<<'WORD'`, `<<"WORD"`, and `<<-` before any of them
    /// (whose lines may start with tabs). `<<<` is a string, not a heredoc.
    static func heredocEnds(of line: String) -> [(word: String, stripsTabs: Bool)] {
        let word = "[A-Za-z_][A-Za-z0-9_]*"
        let heredoc = try! Regex("(<<<)|<<(-?)[ \t]*(?:'(\(word))'|\"(\(word))\"|(\(word)))")
        return line.matches(of: heredoc).compactMap { match in
            guard match.output[1].substring == nil,
                  let word = (3...5).lazy.compactMap({ match.output[$0].substring }).first else { return nil }
            return (String(word), match.output[2].substring == "-")
        }
    }

    /// Runs every command in a new temporary home, and returns those whose
    /// output differs from the page's. Throws when the page cannot be run
    /// at all, or outlasts `timeout` seconds.
    public func mismatches(timeout: TimeInterval = 600) throws -> [Mismatch] {
        guard !commands.isEmpty else { return [] }
        let folder = try TemporaryFolder()
        let home = folder.url("home")
        let background = folder.url("background")
        for url in [home, background, folder.url("tmp")] {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        }
        try FileManager.default.createSymbolicLink(at: home.appendingPathComponent("CipherDB"), withDestinationURL: BuiltProducts.packageRoot)
        let port = try freeLoopbackPort()

        var script = "exec 2>&1 </dev/null\ncd \"$HOME\"\n"
        for (number, command) in commands.enumerated() {
            let text = command.text.replacingOccurrences(of: "8080", with: String(port))
            script += "printf '\\036B\(number)\\n'\n"
            if command.runsInBackground {
                let output = background.appendingPathComponent("\(number)").path
                script += "\(text.dropLast(2)) >\(shellQuoted(output)) 2>/dev/null &\n"
                // The file appears when the background shell opens it: until
                // then, head's complaint must not reach the page's output.
                script += "for _ in $(seq 1 300); do [ -n \"$(head -n 1 \(shellQuoted(output)) 2>/dev/null)\" ] && break; sleep 0.1; done\n"
                script += "head -n 1 \(shellQuoted(output))\n"
            } else {
                script += "\(text)\n"
            }
            script += "printf '\\n\\036E\(number):%d\\n' $?\n"
        }
        script += "kill -9 $(jobs -p) 2>/dev/null\nwait 2>/dev/null\n"

        let bash = ChildProcess()
        bash.executableURL = URL(fileURLWithPath: "/bin/bash")
        bash.arguments = ["--noprofile", "--norc", "-c", script]
        bash.environment = [
            "HOME": home.path,
            // The built executables first, then the tests' own PATH (swift, for make).
            "PATH": (try BuiltProducts.folders().map(\.path) + [""]).joined(separator: ":")
                + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"),
            "TMPDIR": folder.path("tmp"),
            "LANG": "C.UTF-8",
            "TERM": "dumb",
            // `make install` installs the executables the tests run, already
            // built: no second build, in another configuration, inside a test.
            "CONFIGURATION": BuiltProducts.configuration,
        ]
        let watchdog = DispatchWorkItem { [bash] in if bash.isRunning { kill(bash.processIdentifier, SIGKILL) } }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: watchdog)
        let result = try runBlocking(bash)
        watchdog.cancel()
        if result.status == SIGKILL + 128 || result.status == SIGKILL {
            throw TestFailure("\(page) did not finish within \(Int(timeout)) s.")
        }
        return compare(result.output, home: home.path, port: port)
    }

    /// The output of each command, cut at the markers, and compared.
    private func compare(_ output: String, home: String, port: Int) -> [Mismatch] {
        var mismatches: [Mismatch] = []
        let normalized = output
            .replacingOccurrences(of: home, with: "/home/me")
            .replacingOccurrences(of: String(port), with: "8080")
        for (number, command) in commands.enumerated() {
            var actual: [String] = []
            var status: Int32?
            if let begin = normalized.range(of: "\u{1E}B\(number)\n") {
                let rest = normalized[begin.upperBound...]
                let end = rest.range(of: "\n\u{1E}E\(number):")
                actual = Self.lines(String(end.map { rest[..<$0.lowerBound] } ?? rest))
                if let end {
                    status = Int32(rest[end.upperBound...].prefix { $0 != "\n" })
                }
            }
            if status == nil || !Self.matches(Self.lines(command.expected.joined(separator: "\n")), actual) {
                mismatches.append(Mismatch(command: command, status: status, actual: actual))
            }
        }
        return mismatches
    }

    /// The lines of `text`, without trailing spaces, nor trailing empty lines.
    static func lines(_ text: String) -> [String] {
        var lines = text.components(separatedBy: "\n").map { line in
            String(line.reversed().drop { $0 == " " || $0 == "\r" }.reversed())
        }
        while lines.last?.isEmpty == true { lines.removeLast() }
        return lines
    }

    /// Whether `actual` matches `expected`: `…` in a line is any text, and a
    /// line that is only `…` any number of lines.
    public static func matches(_ expected: [String], _ actual: [String]) -> Bool {
        // matched[i][j]: expected[i...] matches actual[j...].
        var matched = Array(repeating: Array(repeating: false, count: actual.count + 1), count: expected.count + 1)
        matched[expected.count][actual.count] = true
        for i in stride(from: expected.count - 1, through: 0, by: -1) {
            for j in stride(from: actual.count, through: 0, by: -1) {
                if expected[i] == "…" {
                    matched[i][j] = matched[i + 1][j] || (j < actual.count && matched[i][j + 1])
                } else {
                    matched[i][j] = j < actual.count && lineMatches(expected[i], actual[j]) && matched[i + 1][j + 1]
                }
            }
        }
        return matched[0][0]
    }

    /// One line against a pattern whose `…` matches any text.
    static func lineMatches(_ pattern: String, _ line: String) -> Bool {
        let parts = pattern.components(separatedBy: "…")
        guard parts.count > 1 else { return pattern == line }
        guard line.hasPrefix(parts[0]) else { return false }
        var rest = line.dropFirst(parts[0].count)
        for (index, part) in parts.enumerated().dropFirst() {
            if index == parts.count - 1 {
                return rest.count >= part.count && rest.hasSuffix(part)
            }
            guard let found = rest.range(of: part) else { return false }
            rest = rest[found.upperBound...]
        }
        return true
    }
}
