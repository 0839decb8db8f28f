import Foundation
import Hummingbird
import SyncSchema
import SyncServer

/// The server's rows, one at a time, for scripts (Docs/Server.md): any
/// declared table's row read, created, updated on the version it was
/// edited on, or deleted. A view of the engine's store, not a second
/// protocol: each write is a change of the engine (``SyncRowEdit``),
/// applied by the rules of a push, and the devices pull it as any other.
///
/// ```console
/// $ curl -s 127.0.0.1:8080/v1/rows/player/F5C26609-7F7B-4D7C-AD4B-D020CE548EFD
/// {"id":"F5C26609-…","table":"player","values":{"name":"Arthur","score":42},"version":21}
/// ```
extension SyncServerAPI {
    static let rowsPath = "/v1/rows/:table"
    static let rowPath = "/v1/rows/:table/:id"
    /// The header of a request's mutation id: its answer is kept as a
    /// push's is, and the same request sent again gets it again.
    static let mutationIDHeader = HTTPFields.Element.Name("Mutation-ID")!

    /// `GET /v1/rows/{table}/{id}`: the live row, or 404.
    @Sendable func getRow(_ request: Request, _ context: SyncRequestContext) async throws -> SyncJSONAnswer {
        let (table, id) = try pathRow(context)
        guard let stored = try await engine.row(SyncRowKey(table: table.name, id: id)),
              try await SyncRowEdit.isRead(stored, by: context.user, in: engine),
              let row = try SyncRowEdit.served(stored, in: engine.schema) else {
            throw APIError.notFound("no row of \(table.name) has the id \(id.uuidString)")
        }
        return SyncJSONAnswer(body: row.jsonData())
    }

    /// `POST /v1/rows/{table}`: creates a row from `{"values": …}` (every
    /// required column; `"id"` when the client made it); 201 with the row.
    @Sendable func createRow(_ request: Request, _ context: SyncRequestContext) async throws -> SyncJSONAnswer {
        let table = try pathTable(context)
        let mutationID = try requestMutationID(request)
        let edit = try await rowRequest(request, table: table, carrying: .whole, id: UUID())
        if edit.version != nil { throw APIError.badRequest("'version' is for PUT: a creation has none") }
        if mutationID != nil, !edit.namesID {
            throw APIError.badRequest("a creation with a Mutation-ID names its row's \"id\": sent again, it must be the same change")
        }
        return try await answer(SyncRowEdit.create(edit.row, mutationID: mutationID), status: .created, context)
    }

    /// `PUT /v1/rows/{table}/{id}`: sets the columns of `{"values": …}`,
    /// the others kept; with `"version"`, 409 if the row changed since.
    @Sendable func updateRow(_ request: Request, _ context: SyncRequestContext) async throws -> SyncJSONAnswer {
        let (table, id) = try pathRow(context)
        let mutationID = try requestMutationID(request)
        let edit = try await rowRequest(request, table: table, carrying: .changed, id: id)
        if edit.row.id != id { throw APIError.badRequest("the body's id differs from the path's") }
        if mutationID != nil, edit.version == nil {
            throw APIError.badRequest("an update with a Mutation-ID gives the \"version\" it was made on: sent again, it must be the same change")
        }
        return try await answer(SyncRowEdit.update(edit.row, expectedVersion: edit.version, mutationID: mutationID), status: .ok, context)
    }

    /// `DELETE /v1/rows/{table}/{id}[?version=N]`: 204, leaving a
    /// tombstone; 404 if no row has the id; 409 if it changed since
    /// `version`.
    @Sendable func deleteRow(_ request: Request, _ context: SyncRequestContext) async throws -> SyncJSONAnswer {
        let (table, id) = try pathRow(context)
        let mutationID = try requestMutationID(request)
        let version = try request.uri.queryParameters.get("version").map { text -> Int64 in
            guard let version = Int64(text), version > 0, String(version) == text else {
                throw APIError.badRequest("'version' must be a positive integer")
            }
            return version
        }
        if mutationID != nil, version == nil {
            throw APIError.badRequest("a delete with a Mutation-ID gives the ?version= it was made on: sent again, it must be the same change")
        }
        let edit = try SyncRowEdit.delete(SyncRowKey(table: table.name, id: id), in: table, expectedVersion: version, mutationID: mutationID)
        return try await answer(edit, status: .noContent, context)
    }

    // MARK: - Parts

    /// Applies `edit` as the request's user's (403 when their rights
    /// refuse it), and answers as its outcome says.
    private func answer(_ edit: SyncRowEdit, status: HTTPResponse.Status, _ context: SyncRequestContext) async throws -> SyncJSONAnswer {
        let outcome: SyncRowEdit.Outcome
        do {
            outcome = try await edit.apply(to: engine, by: context.user)
        } catch let error as SyncChangeError {
            switch error {
            case .mutationIDReused: throw APIError(.conflict, error.description)
            case .unknownTable, .incompleteRow: throw APIError.badRequest(error.description)
            case .storedRowRefused, .storedRowDamaged, .storedAnswerDamaged: throw error
            }
        }
        switch outcome {
        case .saved(let row):
            return SyncJSONAnswer(body: row.jsonData(), status: status)
        case .deleted:
            return SyncJSONAnswer(body: Data(), status: status)
        case .notFound:
            throw APIError.notFound("no row of \(edit.table) has the id \(edit.id.uuidString)")
        case .refused(let reason):
            throw APIError.forbidden(reason)
        case .conflict(_?, let version?):
            throw APIError(.conflict, "the row \(edit.id.uuidString) of \(edit.table) is at version \(version), not the one this edit was made on",
                           extra: ["version": String(version)])
        case .conflict(_, let version?):
            throw APIError(.conflict, "the row \(edit.id.uuidString) of \(edit.table) was deleted (version \(version)): a deleted row's id "
                + "is never reused; to bring it back, push an upsert with base version \(version) (POST /v1/sync/changes)",
                extra: ["version": String(version)])
        case .conflict:
            throw APIError(.conflict, "the row \(edit.id.uuidString) of \(edit.table) refers to a row that is not alive")
        }
    }

    /// The declared table the path names.
    private func pathTable(_ context: SyncRequestContext) throws -> SyncTable {
        guard let name = context.parameters.get("table"), let table = engine.schema.table(name) else {
            throw APIError.notFound("this server syncs no table named \(context.parameters.get("table") ?? ""): "
                + "its tables are \(engine.schema.tables.map(\.name).joined(separator: ", "))")
        }
        return table
    }

    /// The declared table and the row id the path names.
    private func pathRow(_ context: SyncRequestContext) throws -> (SyncTable, UUID) {
        let table = try pathTable(context)
        guard let text = context.parameters.get("id"), let id = UUID(parsing: text) else {
            throw APIError.badRequest("the path must end with the row's id, a UUID")
        }
        return (table, id)
    }

    /// The body of a row's edit, read by its table's declaration.
    private func rowRequest(_ request: Request, table: SyncTable, carrying: SyncTable.RowColumns, id: UUID) async throws -> SyncRowRequest {
        let data = try await body(request, upTo: configuration.maximumRowBodySize)
        do {
            return try SyncRowRequest.decode(data, table: table, carrying: carrying, id: id)
        } catch {
            throw APIError.badRequest(error.description)
        }
    }

    /// The request's `Mutation-ID`, if it has one.
    private func requestMutationID(_ request: Request) throws -> UUID? {
        guard let text = request.headers[Self.mutationIDHeader] else { return nil }
        guard let id = UUID(parsing: text) else { throw APIError.badRequest("the Mutation-ID header must be a UUID") }
        return id
    }
}
