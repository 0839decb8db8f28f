// The English rules of GRDB's default inflections, which come from Ruby on
// Rails (ActiveSupport's inflections.rb, MIT license, © David Heinemeier
// Hansson) with GRDB's additions. They are data that association keys
// depend on: changing one changes keys that apps decode, so they stay as
// GRDB has them. Later rules take precedence.

extension Inflections {
    static let english: Inflections = {
        var inflections = Inflections()
        for (pattern, template) in [
            ("$", "s"),
            ("s$", "s"),
            ("^(ax|test)is$", "$1es"),
            ("(octop|vir)us$", "$1i"),
            ("(octop|vir)i$", "$1i"),
            ("(alias|bias|canvas|focus|gas|lens|status)$", "$1es"),
            ("(bu)s$", "$1ses"),
            ("(buffal|tomat|her)o$", "$1oes"),
            ("([ti])um$", "$1a"),
            ("([ti])a$", "$1a"),
            ("sis$", "ses"),
            ("(?:([^f])fe|([lr])f)$", "$1$2ves"),
            ("(hive)$", "$1s"),
            ("([^aeiouy]|qu)y$", "$1ies"),
            ("(x|ch|ss|sh)$", "$1es"),
            ("(matr|vert|ind)(?:ix|ex)$", "$1ices"),
            ("^(m|l)ouse$", "$1ice"),
            ("^(m|l)ice$", "$1ice"),
            ("^(ox)$", "$1en"),
            ("^(oxen)$", "$1"),
            ("(quiz)$", "$1zes"),
            ("(canva)s$", "$1ses"),
        ] {
            inflections.plural(pattern, template)
        }
        for (pattern, template) in [
            ("s$", ""),
            ("(ss)$", "$1"),
            ("(n)ews$", "$1ews"),
            ("([ti])a$", "$1um"),
            ("((a)naly|(b)a|(d)iagno|(p)arenthe|(p)rogno|(s)ynop|(t)he)(sis|ses)$", "$1sis"),
            ("(^analy)(sis|ses)$", "$1sis"),
            ("([^f])ves$", "$1fe"),
            ("(hive)s$", "$1"),
            ("(tive)s$", "$1"),
            ("([lr])ves$", "$1f"),
            ("([^aeiouy]|qu)ies$", "$1y"),
            ("(s)eries$", "$1eries"),
            ("(m)ovies$", "$1ovie"),
            ("(x|ch|ss|sh)es$", "$1"),
            ("^(m|l)ice$", "$1ouse"),
            ("(bus)(es)?$", "$1"),
            ("(o)es$", "$1"),
            ("(shoe)s$", "$1"),
            ("(cris|test)(is|es)$", "$1is"),
            ("^(a)x[ie]s$", "$1xis"),
            ("(octop|vir)(us|i)$", "$1us"),
            ("(alias|bias|canvas|focus|gas|lens|status)(es)?$", "$1"),
            ("^(ox)en$", "$1"),
            ("(vert|ind)ices$", "$1ex"),
            ("(matr)ices$", "$1ix"),
            ("(quiz)zes$", "$1"),
            ("(database)s$", "$1"),
        ] {
            inflections.singular(pattern, template)
        }
        inflections.uncountableWords([
            "advice", "corps", "dice", "equipment", "fish", "information", "jeans", "kudos",
            "money", "offspring", "police", "rice", "sheep", "species",
        ])
        for (singular, plural) in [
            ("child", "children"), ("foot", "feet"), ("leaf", "leaves"), ("man", "men"), ("move", "moves"),
            ("person", "people"), ("sex", "sexes"), ("specimen", "specimens"), ("zombie", "zombies"),
        ] {
            inflections.irregularSuffix(singular, plural)
        }
        return inflections
    }()
}
