import Foundation
import SyncSchema
import Testing

/// The access rules of a declaration (format 2): each read and written
/// back, and each refused where the other tables break it.
@Suite struct SyncTableAccessTests {
    /// Notebooks owned, notes in their notebook's group, members of a notebook.
    static func declaration(notebook: String = #"{"rule": "owner"}"#, note: String = #"{"rule": "group", "column": "notebook"}"#,
                            member: String = #"{"rule": "membership", "group": "notebook", "user": "user"}"#,
                            userType: String = "text") -> String {
        """
        {
          "format": 2,
          "tables": [
            { "name": "notebook", "primaryKey": "id", "conflicts": "server-wins", "access": \(notebook),
              "columns": [ { "name": "id", "type": "uuid", "required": true },
                           { "name": "name", "type": "text", "maximumLength": 100 } ] },
            { "name": "note", "primaryKey": "id", "conflicts": "merge-by-column", "access": \(note),
              "columns": [ { "name": "id", "type": "uuid", "required": true },
                           { "name": "notebook", "type": "uuid", "required": true, "references": { "table": "notebook", "onDelete": "cascade" } },
                           { "name": "title", "type": "text", "maximumLength": 100 } ] },
            { "name": "member", "primaryKey": "id", "conflicts": "server-wins", "access": \(member),
              "columns": [ { "name": "id", "type": "uuid", "required": true },
                           { "name": "notebook", "type": "uuid", "required": true, "references": { "table": "notebook", "onDelete": "cascade" } },
                           { "name": "user", "type": "\(userType)", "required": true\(userType == "text" ? #", "maximumLength": 100"# : "") } ] }
          ]
        }
        """
    }

    @Test func theOwnerGroupAndMembershipRulesAreReadAndWrittenBack() throws {
        let schema = try SyncSchema(json: Data(Self.declaration().utf8))
        #expect(schema.table("notebook")?.access == .owner)
        #expect(schema.table("note")?.access == .group(column: "notebook"))
        #expect(schema.table("member")?.access == .membership(group: "notebook", user: "user"))
        #expect(try SyncSchema(json: schema.json()) == schema)
    }

    @Test func aGroupsColumnMustBeARequiredReferenceToAnOwnerTable() throws {
        let notAReference = Self.declaration(note: #"{"rule": "group", "column": "title"}"#)
        #expect(throws: SyncSchemaError.invalidAccess(table: "note", "its group column title must be a required reference (cascade or restrict)")) {
            try SyncSchema(json: Data(notAReference.utf8))
        }
        let ofASharedTable = Self.declaration(notebook: #"{"rule": "shared", "writers": ["editor"]}"#)
        #expect(throws: SyncSchemaError.invalidAccess(table: "note", "its group column notebook must reference a table whose rule is owner")) {
            try SyncSchema(json: Data(ofASharedTable.utf8))
        }
        let undeclared = Self.declaration(note: #"{"rule": "group", "column": "folder"}"#)
        #expect(throws: SyncSchemaError.invalidAccess(table: "note", "its group column folder is not declared")) {
            try SyncSchema(json: Data(undeclared.utf8))
        }
    }

    @Test func aMembershipsUserColumnMustBeRequiredText() throws {
        #expect(throws: SyncSchemaError.invalidAccess(table: "member", "its user column user must be a declared, required text column")) {
            try SyncSchema(json: Data(Self.declaration(userType: "integer").utf8))
        }
    }

    /// A key of another rule would be ignored without a word: refused.
    @Test func aKeyOfAnotherRuleIsRefused() throws {
        let stray = Self.declaration(notebook: #"{"rule": "owner", "writers": ["editor"]}"#)
        let error = #expect(throws: SyncSchemaError.self) { try SyncSchema(json: Data(stray.utf8)) }
        #expect(error?.description.contains(#"the access rule owner takes no "writers""#) == true, "\(error?.description ?? "")")
        let missing = Self.declaration(member: #"{"rule": "membership", "group": "notebook"}"#)
        let missingError = #expect(throws: SyncSchemaError.self) { try SyncSchema(json: Data(missing.utf8)) }
        #expect(missingError?.description.contains("access.user") == true, "\(missingError?.description ?? "")")
    }
}
