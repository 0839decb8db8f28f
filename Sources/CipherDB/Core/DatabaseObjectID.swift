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

    /// `"main"."player"`: the object named in SQL, in its schema.
    var qualifiedSQL: String {
        "\(schemaID.name.quotedDatabaseIdentifier).\(name.quotedDatabaseIdentifier)"
    }
}
