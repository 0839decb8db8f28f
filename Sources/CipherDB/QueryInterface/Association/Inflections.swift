import Foundation
import Synchronization

/// The singular and plural forms of words, which give associations their
/// default keys: `author` for a to-one association to the `authors` table,
/// `books` for a to-many association to `book`.
///
/// The default inflections are GRDB's (English, from Ruby on Rails), so
/// that the keys of associations, and the `Decodable` properties named
/// after them, are the same as with GRDB. An app can add its own words,
/// once, before it builds requests:
///
/// ```swift
/// Inflections.default.irregularSuffix("cactus", "cacti")
/// Inflections.default.uncountableWords(["metadata"])
/// ```
///
/// Only the last word is inflected (`bookAuthor` → `bookAuthors`,
/// `book_author` → `book_authors`), and trailing digits stay
/// (`book2` → `books2`).
public struct Inflections: Sendable {
    /// A regular expression and its replacement template.
    private struct Rule: Sendable {
        let regex: NSRegularExpression
        let template: String
    }

    private var pluralRules: [Rule] = []
    private var singularRules: [Rule] = []
    /// Lowercased.
    private var uncountables: Set<String> = []

    /// Inflections without any rule: words stay as they are.
    public init() {}

    // MARK: - Rules

    /// Adds a rule of plural forms, which takes precedence over the rules
    /// added before it.
    ///
    /// ```swift
    /// var inflections = Inflections()
    /// inflections.plural("$", "s")
    /// inflections.pluralize("player") // "players"
    /// ```
    ///
    /// - parameters:
    ///     - pattern: A regular expression.
    ///     - options: Its options (case-insensitive by default).
    ///     - template: The replacement of the match (`$1` for the first
    ///       group).
    public mutating func plural(
        _ pattern: String, options: NSRegularExpression.Options = [.caseInsensitive], _ template: String)
    {
        pluralRules.append(Rule(regex: Self.regex(pattern, options), template: template))
    }

    /// Adds a rule of singular forms, which takes precedence over the
    /// rules added before it.
    ///
    /// ```swift
    /// var inflections = Inflections()
    /// inflections.singular("s$", "")
    /// inflections.singularize("players") // "player"
    /// ```
    public mutating func singular(
        _ pattern: String, options: NSRegularExpression.Options = [.caseInsensitive], _ template: String)
    {
        singularRules.append(Rule(regex: Self.regex(pattern, options), template: template))
    }

    /// Adds words that have no plural form: `sheep`, `information`.
    public mutating func uncountableWords(_ words: [String]) {
        uncountables.formUnion(words.map { $0.lowercased() })
    }

    /// Adds a pair of forms that rules do not give, applied to the end of
    /// a word: `irregularSuffix("man", "men")` also gives `women`.
    /// The first letter keeps its case.
    public mutating func irregularSuffix(_ singular: String, _ plural: String) {
        guard let singularFirst = singular.first, let pluralFirst = plural.first else { return }
        let singularRest = NSRegularExpression.escapedPattern(for: String(singular.dropFirst()))
        let pluralRest = NSRegularExpression.escapedPattern(for: String(plural.dropFirst()))
        if singularFirst.lowercased() == pluralFirst.lowercased() {
            // One first letter: keep it as it is written.
            let first = NSRegularExpression.escapedPattern(for: String(singularFirst))
            self.plural("(\(first))\(singularRest)$", "$1" + plural.dropFirst())
            self.plural("(\(first))\(pluralRest)$", "$1" + plural.dropFirst())
            self.singular("(\(first))\(singularRest)$", "$1" + singular.dropFirst())
            self.singular("(\(first))\(pluralRest)$", "$1" + singular.dropFirst())
        } else {
            // Two first letters: give the replacement the case of the match.
            for (from, fromRest) in [(singularFirst, singularRest), (pluralFirst, pluralRest)] {
                for isUppercase in [true, false] {
                    let letter = isUppercase ? from.uppercased() : from.lowercased()
                    let pattern = NSRegularExpression.escapedPattern(for: letter) + "(?i)" + fromRest + "$"
                    let pluralForm = (isUppercase ? pluralFirst.uppercased() : pluralFirst.lowercased()) + plural.dropFirst()
                    let singularForm = (isUppercase ? singularFirst.uppercased() : singularFirst.lowercased()) + singular.dropFirst()
                    self.plural(pattern, options: [], pluralForm)
                    self.singular(pattern, options: [], singularForm)
                }
            }
        }
    }

    // MARK: - Inflecting

    /// The plural form of the last word of `string`.
    ///
    /// ```swift
    /// Inflections.default.pluralize("bookAuthor") // "bookAuthors"
    /// ```
    public func pluralize(_ string: String) -> String {
        inflect(string, with: pluralRules)
    }

    /// The singular form of the last word of `string`.
    ///
    /// ```swift
    /// Inflections.default.singularize("people") // "person"
    /// ```
    public func singularize(_ string: String) -> String {
        inflect(string, with: singularRules)
    }

    private func inflect(_ string: String, with rules: [Rule]) -> String {
        let wordStart = Self.startOfLastWord(string)
        let wordEnd = Self.endOfDigitlessRadical(string)
        guard wordStart < wordEnd else { return string }
        let word = String(string[wordStart..<wordEnd])
        if isUncountable(word) { return string }
        return string[..<wordStart] + Self.apply(rules, to: word) + string[wordEnd...]
    }

    /// Whether the word ends with an uncountable word: `sheep`,
    /// `black sheep`, but not `xsheep`.
    private func isUncountable(_ word: String) -> Bool {
        let lowercased = word.lowercased()
        return uncountables.contains { uncountable in
            guard lowercased.hasSuffix(uncountable) else { return false }
            let before = lowercased.dropLast(uncountable.count).last
            return before.map { !($0.isLetter || $0.isNumber || $0 == "_") } ?? true
        }
    }

    /// The word, changed by the last rule that matches it.
    private static func apply(_ rules: [Rule], to word: String) -> String {
        let range = NSRange(word.startIndex..., in: word)
        for rule in rules.reversed() where rule.regex.firstMatch(in: word, range: range) != nil {
            return rule.regex.stringByReplacingMatches(in: word, range: range, withTemplate: rule.template)
        }
        return word
    }

    /// Where the last word starts: after the last space or underscore, or
    /// at the last capital letter of camelCase (`fooBar` → `Bar`).
    static func startOfLastWord(_ string: String) -> String.Index {
        let range = NSRange(string.startIndex..., in: string)
        func matchStart(_ regex: NSRegularExpression, offset: Int) -> String.Index? {
            guard let match = regex.firstMatch(in: string, range: range),
                  let matched = Range(match.range, in: string) else { return nil }
            return string.index(matched.lowerBound, offsetBy: offset)
        }
        let candidates = [
            matchStart(lastWordRegex, offset: 0),
            matchStart(afterUnderscoreRegex, offset: 1),
            matchStart(camelCaseWordRegex, offset: 1),
        ]
        return candidates.compactMap { $0 }.max() ?? string.startIndex
    }

    /// Where the trailing digits start: `book12` → `book`.
    static func endOfDigitlessRadical(_ string: String) -> String.Index {
        string.reversed().prefix(while: { ("0"..."9").contains($0) }).endIndex.base
    }

    private static let lastWordRegex = regex("\\b\\w+$", [])
    private static let afterUnderscoreRegex = regex("_[^_]+$", [])
    private static let camelCaseWordRegex = regex("[^A-Z][A-Z]+[a-z1-9]+$", [])

    private static func regex(_ pattern: String, _ options: NSRegularExpression.Options) -> NSRegularExpression {
        do {
            return try NSRegularExpression(pattern: pattern, options: options)
        } catch {
            preconditionFailure("invalid inflection pattern \(pattern): \(error)")
        }
    }
}

// MARK: - Default inflections

extension Inflections {
    /// The default inflections, for the keys of associations. Change them
    /// once, early, before building requests: the keys of the associations
    /// built before the change keep their former forms.
    public static var `default`: Inflections {
        get { defaultStorage.withLock { $0.inflections } }
        set { defaultStorage.withLock { $0 = DefaultInflections(inflections: newValue) } }
    }

    /// The default inflections and the forms they gave, which association
    /// keys ask for again and again.
    private struct DefaultInflections: ~Copyable {
        let inflections: Inflections
        var forms: [Word: String] = [:]
    }

    private struct Word: Hashable {
        var string: String
        var isPlural: Bool
    }

    private static let defaultStorage = Mutex(DefaultInflections(inflections: .english))

    /// The plural or singular form of `string` by the default inflections.
    static func defaultForm(of string: String, plural isPlural: Bool) -> String {
        defaultStorage.withLock { storage in
            let word = Word(string: string, isPlural: isPlural)
            if let form = storage.forms[word] { return form }
            let form = isPlural ? storage.inflections.pluralize(string) : storage.inflections.singularize(string)
            storage.forms[word] = form
            return form
        }
    }
}

extension String {
    /// The plural form of the last word: `book` → `books`, `category` →
    /// `categories`, `child` → `children`.
    var pluralized: String { Inflections.defaultForm(of: self, plural: true) }

    /// The singular form of the last word: `books` → `book`, `categories`
    /// → `category`, `people` → `person`.
    var singularized: String { Inflections.defaultForm(of: self, plural: false) }
}
