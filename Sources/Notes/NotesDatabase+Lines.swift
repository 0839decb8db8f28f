import CipherDB
import Foundation
import SyncSchema

/// Notebooks and notes as JSON Lines (``SyncSchema/SyncRowLine``): every
/// notebook, then every note, one row a line; an import adds them all in
/// one transaction, or nothing.
extension NotesDatabase {
    /// Every notebook, then every note, as lines, without their newlines.
    public func exportLines() throws -> [String] {
        let (notebooks, notes) = try list()
        let declaration = NotesSchema.declaration
        return try notebooks.map { notebook in
            SyncRowLine.text(try declaration.table("notebook")!.row(id: notebook.id, values: ["name": .text(notebook.name)]))
        } + notes.map { note in
            SyncRowLine.text(try declaration.table("note")!.row(id: note.id, values: [
                "notebook": .uuid(note.notebook), "title": .text(note.title), "body": note.body.map(SyncValue.text) ?? .null,
            ]))
        }
    }

    /// Adds the rows of `lines` (an export's, or any app's that writes
    /// them), in one transaction: every one, or none when a line is
    /// refused (``NotesError/badLine(_:_:)``, with its number from 1: not
    /// a row of Notes' declaration, an id that exists, a note whose
    /// notebook is neither there nor on an earlier line). Empty lines are
    /// skipped. Returns how many notebooks and notes were added.
    public func importLines(_ lines: [Substring]) throws -> (notebooks: Int, notes: Int) {
        var rows: [(number: Int, row: SyncRow)] = []
        for (index, line) in lines.enumerated() where !line.allSatisfy(\.isWhitespace) {
            do {
                rows.append((index + 1, try SyncRowLine.row(String(line), schema: NotesSchema.declaration)))
            } catch {
                throw NotesError.badLine(index + 1, error.description)
            }
        }
        return try writer.write { db in
            var added = (notebooks: 0, notes: 0)
            for (number, row) in rows {
                let id = row.id.uuidString
                if row.table == "notebook" {
                    guard try !Notebook.exists(db, key: id) else { throw NotesError.badLine(number, "the notebook \(id) exists already") }
                    try Notebook(id: row.id, name: row.values.text("name")!).insert(db)
                    added.notebooks += 1
                } else {
                    guard try !Note.exists(db, key: id) else { throw NotesError.badLine(number, "the note \(id) exists already") }
                    guard case .uuid(let notebook)? = row.values["notebook"], try Notebook.exists(db, key: notebook.uuidString) else {
                        throw NotesError.badLine(number, "the note's notebook is neither in the database nor on an earlier line")
                    }
                    try Note(id: row.id, notebook: notebook, title: row.values.text("title")!, body: row.values.text("body")).insert(db)
                    added.notes += 1
                }
            }
            return added
        }
    }
}
