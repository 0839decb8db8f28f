/// A relationship between two record types, which requests use to join
/// tables: ``BelongsToAssociation``, ``HasOneAssociation``,
/// ``HasManyAssociation``.
///
/// ```swift
/// struct Book: TableRecord {
///     static let author = belongsTo(Author.self)
/// }
/// // SELECT book.* FROM book JOIN author ON author.id = book.authorId
/// // WHERE author.country = 'FR'
/// let request = Book.joining(required: Book.author.filter(Column("country") == "FR"))
/// ```
///
/// An association is also a request of its destination: it can be
/// filtered, ordered, and can select columns, which apply to the joined
/// table.
public protocol Association: DerivableRequest, Sendable {
    /// The record type the association starts from.
    associatedtype OriginRowDecoder

    /// What the association joins: its key, condition and destination.
    var _sqlAssociation: _SQLAssociation { get set }

    /// The association with another key: the name of the joined table in
    /// the query, and of its scope in fetched rows.
    func forKey(_ key: String) -> Self
}

/// An association to at most one record: ``BelongsToAssociation``,
/// ``HasOneAssociation``.
public protocol AssociationToOne: Association {}

/// An association to any number of records: ``HasManyAssociation``,
/// ``HasManyThroughAssociation``. Its records can be prefetched with
/// ``JoinableRequest/including(all:)``.
public protocol AssociationToMany: Association {}

/// What an association joins. Its content is internal to CipherDB.
public struct _SQLAssociation: Sendable {
    /// The tables to join, from the origin: one for a direct association;
    /// the pivots, then the destination, for `hasMany(_:through:using:)`.
    var steps: [SQLAssociationStep]

    init(key: SQLAssociationKey, condition: SQLAssociationCondition, query: SQLQuery, isToMany: Bool) {
        steps = [SQLAssociationStep(key: key, condition: condition, query: query, isToMany: isToMany)]
    }

    init(steps: [SQLAssociationStep]) {
        self.steps = steps
    }

    /// The table the association leads to.
    var destination: SQLAssociationStep {
        get { steps[steps.count - 1] }
        set { steps[steps.count - 1] = newValue }
    }

    /// `target`, reached from the origin of `pivot` through `pivot`.
    func through(_ pivot: _SQLAssociation) -> _SQLAssociation {
        _SQLAssociation(steps: pivot.steps + steps)
    }

    /// The keys of the steps, from the origin: where prefetched rows are
    /// stored in ``Row/prefetchedRows``.
    var keyPath: [String] {
        steps.map(\.keyName)
    }

    /// The query of the destination, joined back to the first step through
    /// the intermediate tables, which are not selected:
    ///
    /// ```sql
    /// -- Author.countries, through Author.books
    /// SELECT country.* FROM country JOIN book ON book.countryCode = country.code
    /// ```
    ///
    /// The caller filters the first step by the keys of the origin rows.
    func destinationQuery() -> SQLQuery {
        var query = steps[0].query
        for (previous, step) in zip(steps, steps.dropFirst()) {
            query.joins = query.unselectedJoins
            // The `grdb_` key does not collide with the keys of the user.
            let join = SQLJoin(
                key: "grdb_" + previous.keyName, kind: .required, isSelected: false,
                condition: step.condition.reversed, query: query)
            query = step.query.appending(join)
        }
        return query
    }

    /// The join of the association to its origin: the pivots are joined,
    /// never selected, and the destination is joined under the last one.
    ///
    /// A joined table has a singular key (a row joins one row of it: the
    /// scope `book` of `Author.including(required: Author.books)`), and
    /// prefetched rows a plural one (`books` for `including(all:)`). The
    /// pivots of a prefetched association are bridges, named after their
    /// own association, so that a to-one pivot does not take the key of a
    /// to-many association of the same table.
    func join(_ kind: SQLJoin.Kind, isSelected: Bool) -> SQLJoin {
        let isPrefetched = kind == .all
        var join = SQLJoin(
            key: isPrefetched ? destination.key.pluralizedName : destination.key.singularizedName,
            kind: kind, isSelected: isSelected, condition: destination.condition, query: destination.query)
        for step in steps.dropLast().reversed() {
            join = SQLJoin(
                key: isPrefetched ? step.keyName : step.key.singularizedName,
                kind: isPrefetched ? .bridge : kind, isSelected: false,
                condition: step.condition, query: step.query.appending(join))
        }
        return join
    }
}

/// One table of an association.
struct SQLAssociationStep: Sendable {
    var key: SQLAssociationKey
    /// How the table joins the previous one.
    var condition: SQLAssociationCondition
    /// The table, with the filters, order and selection of the association.
    var query: SQLQuery
    var isToMany: Bool

    /// The name of the joined table in the query, and of its scope.
    var keyName: String {
        isToMany ? key.pluralizedName : key.singularizedName
    }
}

/// The name of an association, inflected to singular or plural unless it
/// was given by the user.
enum SQLAssociationKey: Sendable {
    /// The table name: `author` for one, `books` for many.
    case inflected(String)
    /// A name given for an association to one.
    case fixedSingular(String)
    /// A name given for an association to many.
    case fixedPlural(String)
    /// A name given with `forKey(_:)`, never inflected.
    case fixed(String)

    var singularizedName: String {
        switch self {
        case .inflected(let name), .fixedPlural(let name): return name.singularized
        case .fixedSingular(let name), .fixed(let name): return name
        }
    }

    var pluralizedName: String {
        switch self {
        case .inflected(let name), .fixedSingular(let name): return name.pluralized
        case .fixedPlural(let name), .fixed(let name): return name
        }
    }
}

// MARK: - Derivation

extension Association {
    /// A copy of the association, with its destination query changed.
    func withQuery(_ update: (inout SQLQuery) -> Void) -> Self {
        var association = self
        update(&association._sqlAssociation.destination.query)
        return association
    }

    /// The association under another key. The key of a to-many
    /// association is singularized where it joins one row
    /// (`including(required:)`); the key of a to-one association is
    /// pluralized where it leads to prefetched rows.
    public func forKey(_ key: String) -> Self {
        var association = self
        let destination = association._sqlAssociation.destination
        association._sqlAssociation.destination.key = destination.isToMany ? .fixedPlural(key) : .fixedSingular(key)
        return association
    }

    /// The association with the name of a coding key.
    public func forKey(_ codingKey: some CodingKey) -> Self {
        forKey(codingKey.stringValue)
    }

    public var databaseTableName: String { _sqlAssociation.destination.query.tableName }

    public func selectWhenConnected(_ selection: @escaping @Sendable (Database) throws -> [any SQLSelectable]) -> Self {
        withQuery { $0 = $0.selectWhenConnected(selection) }
    }

    public func annotatedWhenConnected(
        with selection: @escaping @Sendable (Database) throws -> [any SQLSelectable]) -> Self
    {
        withQuery { $0 = $0.annotatedWhenConnected(with: selection) }
    }

    public func filterWhenConnected(_ predicate: @escaping @Sendable (Database) throws -> any SQLExpressible) -> Self {
        withQuery { $0 = $0.filterWhenConnected(predicate) }
    }

    public func orderWhenConnected(_ orderings: @escaping @Sendable (Database) throws -> [any SQLOrderingTerm]) -> Self {
        withQuery { $0 = $0.orderWhenConnected(orderings) }
    }

    public func reversed() -> Self {
        withQuery { $0 = $0.reversed() }
    }

    public func unordered() -> Self {
        withQuery { $0 = $0.unordered() }
    }

    public func withStableOrder() -> Self {
        withQuery { $0 = $0.withStableOrder() }
    }

    public func groupWhenConnected(_ expressions: @escaping @Sendable (Database) throws -> [any SQLExpressible]) -> Self {
        withQuery { $0 = $0.groupWhenConnected(expressions) }
    }

    public func havingWhenConnected(_ predicate: @escaping @Sendable (Database) throws -> any SQLExpressible) -> Self {
        withQuery { $0 = $0.havingWhenConnected(predicate) }
    }

    public func distinct() -> Self {
        withQuery { $0.isDistinct = true }
    }

    public func with<T>(_ cte: CommonTableExpression<T>) -> Self {
        withQuery { $0 = $0.with(cte.cte) }
    }

    /// The association on an alias of its own, and its selection qualified
    /// with that alias: what `annotated(withOptional:)` and
    /// `annotated(withRequired:)` append to the selection of the request
    /// they refine, instead of a scope.
    func annotation() -> (association: Self, selection: @Sendable (Database) throws -> [any SQLSelectable]) {
        let alias = TableAlias()
        let selection = _sqlAssociation.destination.query.selection
        return (aliased(alias), { db in try selection(db).map { $0.qualified(with: alias) } })
    }

    /// The association, on the table of `alias`, so that other parts of the
    /// query can refer to its columns.
    public func aliased(_ alias: TableAlias<Void>) -> Self {
        withQuery { $0 = $0.aliased(alias) }
    }

    /// The association, on the table of `alias`.
    public func aliased(_ alias: TableAlias<RowDecoder>) -> Self {
        withQuery { $0 = $0.aliased(alias) }
    }

    public func _including(optional association: _SQLAssociation) -> Self {
        withQuery { $0 = $0.appending(association.join(.optional, isSelected: true)) }
    }

    public func _including(required association: _SQLAssociation) -> Self {
        withQuery { $0 = $0.appending(association.join(.required, isSelected: true)) }
    }

    public func _joining(optional association: _SQLAssociation) -> Self {
        withQuery { $0 = $0.appending(association.join(.optional, isSelected: false)) }
    }

    public func _joining(required association: _SQLAssociation) -> Self {
        withQuery { $0 = $0.appending(association.join(.required, isSelected: false)) }
    }

    public func _including(all association: _SQLAssociation) -> Self {
        withQuery { $0 = $0.appending(association.join(.all, isSelected: true)) }
    }
}
