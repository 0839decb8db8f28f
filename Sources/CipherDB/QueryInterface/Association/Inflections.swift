// English singular and plural forms, for the default keys of associations
// (`author` for a to-one association to the `authors` table, `books` for a
// to-many association to `book`). The rules cover regular nouns and the
// usual irregular ones; give a key to the association for other words.
// Trailing digits are kept as they are: `ds1` → `d1`.

extension String {
    /// The plural form of the last word: `book` → `books`, `category` →
    /// `categories`, `child` → `children`.
    var pluralized: String {
        inflected(by: Inflections.plurals, irregular: Inflections.irregularPlurals)
    }

    /// The singular form of the last word: `books` → `book`, `categories`
    /// → `category`, `people` → `person`.
    var singularized: String {
        inflected(by: Inflections.singulars, irregular: Inflections.irregularSingulars)
    }

    private func inflected(by rules: [(suffix: String, replacement: String)], irregular: [String: String]) -> String {
        // Trailing digits stay: `books2` → `book2`.
        let digits = reversed().prefix(while: \.isASCIIDigit).count
        if digits == count { return self }
        if digits > 0 {
            return String(dropLast(digits)).inflected(by: rules, irregular: irregular) + suffix(digits)
        }
        let lowercased = self.lowercased()
        // The last word, in camelCase or snake_case: `bookAuthor`, `book_author`.
        let wordStart = lastIndex(where: { $0.isUppercase || $0 == "_" }) ?? startIndex
        let word = String(lowercased[wordStart...]).trimmingLeadingUnderscore
        let prefix = String(self[..<index(endIndex, offsetBy: -word.count)])
        let original = String(self[index(endIndex, offsetBy: -word.count)...])
        if Inflections.uncountables.contains(word) { return self }
        if let replacement = irregular[word] {
            return prefix + original.prefix(1) + replacement.dropFirst()
        }
        for rule in rules where word.hasSuffix(rule.suffix) {
            return prefix + original.dropLast(rule.suffix.count) + rule.replacement
        }
        return self
    }

    private var trimmingLeadingUnderscore: String {
        hasPrefix("_") ? String(dropFirst()) : self
    }
}

private enum Inflections {
    static let uncountables: Set<String> = [
        "equipment", "information", "rice", "money", "species", "series", "fish", "sheep", "jeans", "police", "data",
    ]

    static let irregularPlurals: [String: String] = [
        "person": "people", "man": "men", "woman": "women", "child": "children", "mouse": "mice",
        "ox": "oxen", "foot": "feet", "tooth": "teeth", "goose": "geese",
    ]

    static let irregularSingulars = Dictionary(uniqueKeysWithValues: irregularPlurals.map { ($1, $0) })

    /// (suffix, replacement), the first matching rule applies.
    static let plurals: [(suffix: String, replacement: String)] = [
        ("quiz", "quizzes"), ("ies", "ies"), ("ss", "sses"), ("sh", "shes"), ("ch", "ches"),
        ("x", "xes"), ("ay", "ays"), ("ey", "eys"), ("oy", "oys"), ("uy", "uys"), ("y", "ies"),
        ("us", "uses"), ("is", "es"), ("s", "s"), ("", "s"),
    ]

    static let singulars: [(suffix: String, replacement: String)] = [
        ("quizzes", "quiz"), ("sses", "ss"), ("shes", "sh"), ("ches", "ch"), ("xes", "x"),
        ("ies", "y"), ("ss", "ss"), ("us", "us"), ("is", "is"), ("s", ""),
    ]
}

extension Character {
    fileprivate var isASCIIDigit: Bool {
        ("0"..."9").contains(self)
    }
}
