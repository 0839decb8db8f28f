/// The name of a table, view, index or trigger, and the schema it belongs
/// to: `main`, `temp`, or an attached database.
public struct DatabaseObjectID: Hashable, Sendable {
    /// The name of the object.
    public var name: String

    /// The schema of the object.
    public var schemaID: DatabaseSchemaID

    public init(name: String, schemaID: DatabaseSchemaID) {
        self.name = name
        self.schemaID = schemaID
    }
}

/// A schema of a connection: `main`, `temp`, or an attached database.
///
/// See <https://www.sqlite.org/lang_attach.html>.
public struct DatabaseSchemaID: Hashable, Sendable {
    /// The name of the schema: `main`, `temp`, or the name given to
    /// `ATTACH DATABASE`.
    public let name: String

    private init(name: String) {
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
}
