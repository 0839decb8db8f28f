import ArgumentParser

/// The arguments of a command line, read the way git reads them before
/// swift-argument-parser parses them: the options every subcommand takes
/// may come before the subcommand's name (`players --database X list` is
/// `players list --database X`), and a mistyped subcommand gets the nearest
/// one suggested.
public struct CommandLineArguments {
    /// The options that every subcommand accepts, with whether each takes a
    /// value (`--database X`, `-d X`, `--database=X`).
    public var globalOptions: [String: Bool]
    public let root: any ParsableCommand.Type

    public init(root: any ParsableCommand.Type, globalOptions: [String: Bool]) {
        self.root = root
        self.globalOptions = globalOptions
    }

    /// `arguments` (without the program's name) with the global options
    /// that precede the subcommand moved after its name, so that the
    /// subcommand, which declares them, parses them. Throws
    /// ``UnknownWordError`` for a word where a subcommand is expected
    /// that is none, when one is close to it or the command has no default.
    public func normalized(_ arguments: [String]) throws -> [String] {
        var moved: [String] = []
        var index = 0
        // The global options before the first word that is not one.
        while index < arguments.count, let takesValue = globalOption(arguments[index]) {
            moved.append(arguments[index])
            if takesValue && !arguments[index].contains("="), index + 1 < arguments.count {
                moved.append(arguments[index + 1])
                index += 1
            }
            index += 1
        }
        let rest = Array(arguments[index...])
        // The path of subcommands, then the moved options after it.
        let path = try subcommandPath(of: rest).path
        return path + moved + rest[path.count...]
    }

    /// The first long option of `normalized` arguments that their command
    /// does not have, with the nearest one it has; nil when there is none.
    /// Asked once the parser has failed, since it would first complain of
    /// a missing argument (`players add --nmae x` would say that `--name`
    /// is missing); not before, which would cost every run a help screen.
    public func unknownOption(in normalized: [String]) -> UnknownWordError? {
        guard let (command, path) = try? subcommandPath(of: normalized) else { return nil }
        // A group without a subcommand named runs its default one, whose
        // options are the ones given (`players conflicts --json`).
        var parsing = command
        while let defaultSubcommand = parsing.configuration.defaultSubcommand { parsing = defaultSubcommand }
        let help = root.helpMessage(for: parsing, includeHidden: true, columns: 10_000)
        let known = Set(help.split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "-") })
            .filter { $0.hasPrefix("--") && $0.count > 2 }.map(String.init))
        for argument in normalized.dropFirst(path.count) {
            if argument == "--" { return nil }
            guard argument.hasPrefix("--"), argument.count > 2 else { continue }
            let name = String(argument.split(separator: "=", maxSplits: 1)[0])
            if known.contains(name) || name == "--help" || name == "--generate-completion-script" { continue }
            return UnknownWordError(kind: .option, word: name, commandPath: ([root._commandName] + path).joined(separator: " "),
                                    suggestion: Self.nearest(to: name, among: known.sorted()))
        }
        return nil
    }

    /// The subcommands that `words` start with, and the command they lead
    /// to. Throws ``UnknownWordError`` for a word where a subcommand is
    /// expected that is none, when one is close to it or the command has no
    /// default.
    private func subcommandPath(of words: [String]) throws -> (command: any ParsableCommand.Type, path: [String]) {
        var command: any ParsableCommand.Type = root
        var path: [String] = []
        for word in words {
            let subcommands = command.configuration.subcommands
            if subcommands.isEmpty || word.hasPrefix("-") || word == "help" { break }
            if let next = subcommands.first(where: { $0._commandName == word }) {
                command = next
                path.append(word)
                continue
            }
            let names = subcommands.filter { $0.configuration.shouldDisplay }.map { $0._commandName }
            let nearest = Self.nearest(to: word, among: names)
            if nearest != nil || command.configuration.defaultSubcommand == nil {
                throw UnknownWordError(kind: .subcommand, word: word, commandPath: ([root._commandName] + path).joined(separator: " "),
                                       suggestion: nearest)
            }
            break
        }
        return (command, path)
    }

    /// Whether `argument` is a global option, and if so whether it takes a
    /// value; nil otherwise.
    private func globalOption(_ argument: String) -> Bool? {
        let name = argument.split(separator: "=", maxSplits: 1).first.map(String.init) ?? argument
        return globalOptions[name]
    }

    /// The name among `names` closest to `word`, when it is close: at most
    /// 2 edits, and fewer than the word's length.
    public static func nearest(to word: String, among names: [String]) -> String? {
        let scored = names.map { ($0, editDistance(word, $0)) }.filter { $0.1 <= 2 && $0.1 < word.count }
        return scored.min { $0.1 < $1.1 }?.0
    }

    /// The Levenshtein distance, with a swap of two neighbours counted as
    /// one edit (`lsit` is one edit from `list`).
    public static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var distances = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { distances[i][0] = i }
        for j in 0...b.count { distances[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                distances[i][j] = min(distances[i - 1][j] + 1, distances[i][j - 1] + 1, distances[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    distances[i][j] = min(distances[i][j], distances[i - 2][j - 2] + 1)
                }
            }
        }
        return distances[a.count][b.count]
    }
}

/// A word of the command line that the command does not know: a long
/// option it does not have, or a word where a subcommand is expected that
/// is none; with the nearest one it knows, if one is close.
public struct UnknownWordError: Error, CustomStringConvertible {
    public enum Kind: Sendable { case option, subcommand }

    public var kind: Kind
    public var word: String
    /// `players`, `players conflicts`: where the word was read.
    public var commandPath: String
    public var suggestion: String?

    /// `unknown option '--nmae'; did you mean '--name'?`, or
    /// `'lsit' is not a players command; did you mean 'list'?`.
    public var description: String {
        let what = kind == .option ? "unknown option '\(word)'" : "'\(word)' is not a \(commandPath) command"
        return what + (suggestion.map { "; did you mean '\($0)'?" } ?? "; see '\(commandPath) --help'")
    }
}

extension ParsableCommand {
    /// The one or two lines of a usage error: `PROGRAM: what is wrong`
    /// (swift-argument-parser's message, as a sentence of ours), then where
    /// to read more, as git does. Never the whole help screen.
    public static func usageErrorLines(for error: any Error, program: String) -> [String] {
        // The parser lists the allowed values one per line: one line here.
        let parts = self.message(for: error).split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let values = parts.dropFirst().filter { $0.hasPrefix("- ") }.map { $0.dropFirst(2) }
        var message = (parts.first ?? "") + (values.isEmpty ? "" : " " + values.joined(separator: ", "))
        message = message.replacingOccurrences(of: ". Did you mean", with: "; did you mean")
        message = message.replacingOccurrences(of: ". Please provide", with: "; give")
        if message.hasPrefix("Error: ") { message = String(message.dropFirst(7)) }
        if let first = message.first, first.isUppercase,
           message.dropFirst().first.map({ !$0.isUppercase }) ?? true {
            message = first.lowercased() + message.dropFirst()
        }
        if message.hasSuffix("."), !message.hasSuffix("..") { message.removeLast() }
        let hint = fullMessage(for: error).split(separator: "\n")
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .first { $0.hasPrefix("See '") }
        return ["\(program): \(message)"] + (hint.map { [$0] } ?? [])
    }
}
