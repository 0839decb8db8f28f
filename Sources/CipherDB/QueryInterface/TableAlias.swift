import Synchronization

/// One occurrence of a table in a query, so that columns can be qualified
/// with it: the base class of ``TableAlias``.
///
/// Requests and associations each have their own alias. A column of a
/// request's filter or selection is qualified with the request's alias when
/// the query joins several tables: `"book"."title"`. A query with one table
/// keeps its columns unqualified, unless the alias has a name.
public class TableAliasBase: @unchecked Sendable {
    // @unchecked Sendable: the only mutable state is behind `state`'s mutex;
    // a subclass adds no stored property.
    struct State {
        var tableName: String?
        var userName: String?
        /// The alias this one stands for, after two joins of one
        /// association were merged.
        var base: TableAliasBase?
        var isImplicit: Bool
    }

    let state: Mutex<State>

    /// Whether the alias was made by a request, and not by the user: no
    /// expression of the user refers to it, so that a query can replace it.
    var isImplicit: Bool { root.state.withLock { $0.isImplicit } }

    init(tableName: String? = nil, userName: String? = nil, isImplicit: Bool = false) {
        state = Mutex(State(tableName: tableName, userName: userName, isImplicit: isImplicit))
    }

    /// The alias this one stands for, or itself.
    var root: TableAliasBase {
        state.withLock { $0.base }?.root ?? self
    }

    /// Makes this alias stand for `base`: both refer to one table of the
    /// query. A name given to this alias goes to `base`.
    func becomeProxy(of base: TableAliasBase) {
        let base = base.root
        guard base !== root else { return }
        let root = self.root
        let (tableName, userName, isImplicit) = root.state.withLock { ($0.tableName, $0.userName, $0.isImplicit) }
        base.state.withLock { state in
            if state.tableName == nil { state.tableName = tableName }
            if state.userName == nil { state.userName = userName }
            state.isImplicit = state.isImplicit && isImplicit
        }
        root.state.withLock { $0.base = base }
    }

    /// The table, once the alias is attached to a request.
    var tableName: String {
        let root = self.root
        if root !== self { return root.tableName }
        return state.withLock { state in
            guard let tableName = state.tableName else {
                preconditionFailure("A TableAlias must be given to a request (aliased(_:)) before it is used")
            }
            return tableName
        }
    }

    /// The name given by the user, if any.
    var userName: String? { root.state.withLock { $0.userName } }

    /// The name the query refers to the table by, before disambiguation.
    var identityName: String {
        root.state.withLock { $0.userName ?? $0.tableName ?? "" }
    }

    /// Attaches the alias to a table. An alias refers to one table only.
    func attach(to tableName: String) {
        root.state.withLock { state in
            if let current = state.tableName, current != tableName {
                preconditionFailure("A TableAlias can not refer to two tables (\(current) and \(tableName))")
            }
            state.tableName = tableName
        }
    }
}

extension TableAliasBase: Hashable {
    public static func == (lhs: TableAliasBase, rhs: TableAliasBase) -> Bool {
        lhs.root === rhs.root
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(root))
    }
}

extension TableAliasBase {
    /// A selection qualified with this table: `alias[AllColumns()]`.
    public subscript(_ selectable: some SQLSelectable) -> SQLSelection {
        selectable.sqlSelection.qualified(with: self)
    }

    /// An expression qualified with this table: `alias[Column("name")]` is
    /// `"player"."name"`.
    public subscript(_ expression: some SQLSpecificExpressible & SQLSelectable & SQLOrderingTerm) -> SQLExpression {
        expression.sqlExpression.qualified(with: self)
    }

    /// An ordering qualified with this table: `alias[Column("name").desc]`.
    public subscript(_ ordering: some SQLOrderingTerm) -> SQLOrdering {
        ordering.sqlOrdering.qualified(with: self)
    }

    /// A column of this table: `alias["name"]`.
    public subscript(_ column: String) -> SQLExpression {
        SQLExpression(.qualifiedColumn(column, self))
    }
}

/// A table alias, to refer to a table of a request from elsewhere in the
/// query: another table's filter, an ordering, a selection.
///
/// ```swift
/// // SELECT book.* FROM book
/// // JOIN author ON author.id = book.authorId
/// // ORDER BY author.name, book.title
/// let authorAlias = TableAlias<Author>()
/// let request = Book
///     .joining(required: Book.author.aliased(authorAlias))
///     .order(authorAlias[Column("name")], Column("title"))
///
/// // SELECT p.* FROM player p WHERE p.score > 1000
/// let p = TableAlias(name: "p")
/// let request = Player.aliased(p).filter(p[Column("score")] > 1000)
/// ```
@dynamicMemberLookup
public final class TableAlias<RowDecoder>: TableAliasBase, @unchecked Sendable {
    // @unchecked Sendable: see TableAliasBase.

    /// An alias, with a name that the SQL uses if given.
    public init(name: String? = nil) where RowDecoder == Void {
        super.init(userName: name)
    }

    /// An alias for a record type, with a name that the SQL uses if given.
    public init(name: String? = nil, for record: RowDecoder.Type = RowDecoder.self) {
        super.init(userName: name)
    }

    /// An alias of a table, made by a request.
    init(tableName: String) {
        super.init(tableName: tableName, isImplicit: true)
    }

    /// An alias that stands for `base`, typed for a closure of the user.
    init(proxyOf base: TableAliasBase) {
        super.init(isImplicit: true)
        state.withLock { $0.base = base.root }
    }

    /// Whether a row of the table was joined: for optional joins, whose
    /// columns are NULL when there is no row to join.
    ///
    /// ```swift
    /// // SELECT book.* FROM book LEFT JOIN author ON author.id = book.authorId
    /// // WHERE author.id IS NULL
    /// let authorAlias = TableAlias<Author>()
    /// let orphans = Book
    ///     .joining(optional: Book.author.aliased(authorAlias))
    ///     .filter(!authorAlias.exists)
    /// ```
    public var exists: SQLExpression {
        SQLExpression(.qualifiedExists(self, isNegated: false))
    }
}

extension TableAlias where RowDecoder: TableRecord {
    public typealias DatabaseComponents = RowDecoder.DatabaseComponents

    /// A column of the record, qualified with this table: `authorAlias.name`.
    public subscript<T: SQLSpecificExpressible>(dynamicMember keyPath: KeyPath<DatabaseComponents, T>) -> SQLExpression {
        self[RowDecoder.databaseComponents[keyPath: keyPath].sqlExpression]
    }
}

// MARK: - Qualification

extension SQLExpression {
    /// The expression with its unqualified columns qualified with `alias`.
    func qualified(with alias: TableAliasBase) -> SQLExpression {
        switch impl {
        case .column(let name):
            return SQLExpression(.qualifiedColumn(name, alias))
        case .fastPrimaryKey:
            return SQLExpression(.qualifiedFastPrimaryKey(alias))
        case .qualifiedColumn, .value, .countAll, .subquery, .exists, .qualifiedExists,
             .qualifiedFastPrimaryKey:
            return self
        case .literal(let literal):
            return SQLExpression(.literal(literal.qualified(with: alias)))
        case let .inSubquery(expression, subquery, isNegated):
            return SQLExpression(.inSubquery(expression.qualified(with: alias), subquery, isNegated: isNegated))
        case let .inTable(expression, table, isNegated):
            return SQLExpression(.inTable(expression.qualified(with: alias), table, isNegated: isNegated))
        case let .unary(op, operand):
            return SQLExpression(.unary(op, operand.qualified(with: alias)))
        case let .binary(op, lhs, rhs):
            return SQLExpression(.binary(op, lhs.qualified(with: alias), rhs.qualified(with: alias)))
        case let .escapableBinary(op, lhs, rhs, escape):
            return SQLExpression(.escapableBinary(
                op, lhs.qualified(with: alias), rhs.qualified(with: alias), escape: escape?.qualified(with: alias)))
        case let .associativeBinary(op, operands):
            return SQLExpression(.associativeBinary(op, operands.map { $0.qualified(with: alias) }))
        case let .compare(op, lhs, rhs):
            return SQLExpression(.compare(op, lhs.qualified(with: alias), rhs.qualified(with: alias)))
        case let .inList(expression, list, isNegated):
            return SQLExpression(.inList(
                expression.qualified(with: alias), list.map { $0.qualified(with: alias) }, isNegated: isNegated))
        case let .between(expression, low, high, isNegated):
            return SQLExpression(.between(
                expression.qualified(with: alias), low.qualified(with: alias), high.qualified(with: alias),
                isNegated: isNegated))
        case .not(let expression):
            return SQLExpression(.not(expression.qualified(with: alias)))
        case let .collated(expression, collation):
            return SQLExpression(.collated(expression.qualified(with: alias), collation))
        case let .function(name, arguments):
            return SQLExpression(.function(name, arguments.map { $0.qualified(with: alias) }))
        case let .aggregate(name, arguments, isDistinct):
            return SQLExpression(.aggregate(name, arguments.map { $0.qualified(with: alias) }, isDistinct: isDistinct))
        case let .cast(expression, type):
            return SQLExpression(.cast(expression.qualified(with: alias), type))
        case let .isEmpty(expression, isNegated):
            return SQLExpression(.isEmpty(expression.qualified(with: alias), isNegated: isNegated))
        case let .tableMatch(table, pattern):
            return SQLExpression(.tableMatch(table, pattern.qualified(with: alias)))
        }
    }
}

extension SQLSelection {
    /// The selection with its unqualified columns qualified with `alias`.
    func qualified(with alias: TableAliasBase) -> SQLSelection {
        switch impl {
        case .allColumns: return SQLSelection(.qualifiedAllColumns(alias))
        case .allColumnsExcluding(let excluded): return SQLSelection(.qualifiedAllColumnsExcluding(alias, excluded))
        case .qualifiedAllColumns, .qualifiedAllColumnsExcluding: return self
        case .literal(let literal): return SQLSelection(.literal(literal.qualified(with: alias)))
        case .expression(let expression): return SQLSelection(.expression(expression.qualified(with: alias)))
        case let .aliased(expression, name): return SQLSelection(.aliased(expression.qualified(with: alias), name))
        }
    }
}

extension SQLOrdering {
    /// The ordering with its unqualified columns qualified with `alias`.
    func qualified(with alias: TableAliasBase) -> SQLOrdering {
        switch impl {
        case let .expression(expression, direction): return SQLOrdering(expression.qualified(with: alias), direction)
        case .literal(let literal): return SQLOrdering(literal: literal.qualified(with: alias))
        }
    }
}

extension SQL {
    /// The fragment with the unqualified columns of its interpolated
    /// expressions, selections and orderings qualified with `alias`: in
    /// `"\(Column("name")) || 'foo'"`, `name` belongs to the table of the
    /// request that selects it. Raw SQL text is left as written.
    func qualified(with alias: TableAliasBase) -> SQL {
        SQL(elements: elements.map { element in
            switch element {
            case .expression(let expression): return .expression(expression.qualified(with: alias))
            case .selection(let selection): return .selection(selection.qualified(with: alias))
            case .ordering(let ordering): return .ordering(ordering.qualified(with: alias))
            case .sql, .subquery, .identifier: return element
            }
        })
    }
}

// MARK: - Existence

extension Database {
    /// The columns that are not NULL in every row of a table: the column
    /// that aliases the rowid, or the rowid, or the primary key of a
    /// `WITHOUT ROWID` table or of a view described by the schema source.
    /// For another view: all its columns.
    func existenceCheckColumns(in tableName: String) throws -> [String] {
        let primaryKey: PrimaryKeyInfo
        do {
            primaryKey = try self.primaryKey(tableName)
        } catch let error as DatabaseError where error.resultCode == .SQLITE_ERROR {
            guard try viewExists(tableName) else { throw error }
            return try columns(in: tableName).map(\.name)
        }
        if let rowIDColumn = primaryKey.rowIDColumn { return [rowIDColumn] }
        if primaryKey.tableHasRowID { return [Column.rowID.name] }
        return primaryKey.columns
    }
}
