/// What SQL generation needs: the database, the arguments collected so far,
/// and the names of the tables of the query.
final class SQLGenerationContext {
    let db: Database
    /// The context of the query that contains this subquery, if any.
    private let parent: SQLGenerationContext?
    private var ownArguments = StatementArguments()
    private var ownInlinesValues = false
    /// The tables of the query, and the names that tell them apart.
    private var aliases: Set<TableAliasBase> = []
    private var resolvedNames: [TableAliasBase: String] = [:]

    init(_ db: Database) {
        self.db = db
        parent = nil
    }

    private init(parent: SQLGenerationContext) {
        db = parent.db
        self.parent = parent
    }

    /// The arguments of the whole statement, subqueries included.
    var arguments: StatementArguments {
        get { parent?.arguments ?? ownArguments }
        set {
            if let parent { parent.arguments = newValue } else { ownArguments = newValue }
        }
    }

    /// Whether values are written as SQL literals instead of parameters
    /// (schema definitions accept no parameter).
    var inlinesValues: Bool {
        get { parent?.inlinesValues ?? ownInlinesValues }
        set { ownInlinesValues = newValue }
    }

    /// The context of a subquery: its own tables, the statement's
    /// arguments, and the tables of the enclosing queries for correlated
    /// subqueries.
    func subqueryContext() -> SQLGenerationContext {
        SQLGenerationContext(parent: self)
    }

    /// Declares the tables of a query: each is referred to by its alias
    /// name, or its table name, numbered when a name is used twice
    /// (`"author1"`, `"author2"`).
    func declare(_ aliases: [TableAliasBase]) {
        self.aliases = Set(aliases)
        resolvedNames = [:]
        let groups = Dictionary(grouping: aliases) { $0.identityName.lowercased() }
        var usedNames = Set(groups.filter { $0.value.count == 1 }.keys)
        for group in groups.values where group.count > 1 {
            var index = 1
            for alias in group where alias.userName == nil {
                let radical = String(alias.identityName.reversed().drop(while: \.isNumber).reversed())
                var name: String
                repeat {
                    name = radical + String(index)
                    index += 1
                } while usedNames.contains(name.lowercased())
                usedNames.insert(name.lowercased())
                resolvedNames[alias] = name
            }
        }
    }

    /// The name of a table of the query, or of an enclosing query.
    func resolvedName(for alias: TableAliasBase) -> String {
        if let name = resolvedNames[alias] { return name }
        if !aliases.contains(alias), let parent { return parent.resolvedName(for: alias) }
        return alias.identityName
    }

    /// The qualifier of the columns of a table: none when the query has
    /// only this table and the alias has no name of its own.
    func qualifier(for alias: TableAliasBase) -> String? {
        if alias.userName != nil || aliases.count > 1 || !aliases.contains(alias) {
            return resolvedName(for: alias)
        }
        return nil
    }

    /// `"table"`, or `"table" "alias"` when the query refers to the table
    /// by another name.
    func tableSQL(_ alias: TableAliasBase) -> String {
        let name = resolvedName(for: alias)
        if name == alias.tableName { return name.quotedDatabaseIdentifier }
        return alias.tableName.quotedDatabaseIdentifier + " " + name.quotedDatabaseIdentifier
    }
}
