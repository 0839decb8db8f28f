/// A schema of a connection: `main`, `temp`, or an attached database.
///
/// See <https://www.sqlite.org/lang_attach.html>.
public struct DatabaseSchemaID: Hashable, Sendable {
    /// The name of the schema: `main`, `temp`, or the name given to
    /// `ATTACH DATABASE`.
    public let name: String

    init(name: String) {
        self.name = name
    }

    /// The schema of the database file.
    public static let main = DatabaseSchemaID(name: "main")

    /// The schema of temporary objects.
    public static let temp = DatabaseSchemaID(name: "temp")

    /// The schema of an attached database.
    public static func attached(_ name: String) -> DatabaseSchemaID {
        DatabaseSchemaID(name: name)
    }

    /// The table that describes the schema: `sqlite_master`,
    /// `sqlite_temp_master`, or `name.sqlite_master`.
    public var schemaTableName: String {
        switch name {
        case "main": return "sqlite_master"
        case "temp": return "sqlite_temp_master"
        default: return "\(name).sqlite_master"
        }
    }

    /// The schema table, quoted for SQL.
    var quotedSchemaTableSQL: String {
        switch name {
        case "main": return "sqlite_master"
        case "temp": return "sqlite_temp_master"
        default: return "\(name.quotedDatabaseIdentifier).sqlite_master"
        }
    }

    /// `view playerView`, `temporary view playerView` or
    /// `view attached.playerView`, as error messages name a view.
    func viewDescription(_ viewName: String) -> String {
        switch name {
        case "main": return "view \(viewName)"
        case "temp": return "temporary view \(viewName)"
        default: return "view \(name).\(viewName)"
        }
    }
}
