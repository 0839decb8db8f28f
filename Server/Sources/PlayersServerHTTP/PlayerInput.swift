import Foundation
import Hummingbird
import PlayersProtocol
import SyncSchema

/// The body of `POST /v1/players` and `PUT /v1/players/{uuid}`, checked
/// strictly: a JSON object in UTF-8 whose `name` and `score` pass
/// ``PlayerValidator``, the rule of the command line and of a sync.
struct PlayerInput {
    var uuid: UUID?
    var name: String?
    var score: Int?
    /// The version the client last saw: an update of a player changed
    /// since then is a conflict.
    var version: Int64?

    static func parse(_ data: Data, requireAll: Bool) throws -> PlayerInput {
        // UTF-8 already (PlayersAPI.body refuses any other bytes).
        guard let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else {
            throw APIError.badRequest("the body must be a JSON object")
        }
        do {
            // No key twice, integers written as integers; the keys are
            // checked below.
            try StrictJSON.check(data)
        } catch {
            throw APIError.badRequest("\(error)")
        }
        var input = PlayerInput()
        for (key, value) in object {
            switch key {
            case "uuid":
                guard let text = value as? String, let uuid = UUID(uuidString: text) else {
                    throw APIError.badRequest("'uuid' must be a UUID string")
                }
                input.uuid = uuid
            case "name":
                guard let name = value as? String else {
                    throw APIError.badRequest("'name' must be \(PlayerValidationError.nameRule)")
                }
                do { input.name = try PlayerValidator.validName(name) } catch { throw badRequest(error) }
            case "score":
                guard let score = integer(value) else {
                    throw APIError.badRequest("'score' must be \(PlayerValidationError.scoreRule)")
                }
                do { try PlayerValidator.validateScore(score) } catch { throw badRequest(error) }
                input.score = score
            case "version":
                guard let version = integer(value) else { throw APIError.badRequest("'version' must be an integer") }
                input.version = Int64(version)
            default:
                throw APIError.badRequest("unknown field '\(key.prefix(40))'")
            }
        }
        if requireAll && (input.name == nil || input.score == nil) {
            throw APIError.badRequest("'name' and 'score' are required")
        }
        if !requireAll && input.name == nil && input.score == nil {
            throw APIError.badRequest("give 'name', 'score', or both")
        }
        return input
    }

    /// A 400 that says which field breaks the rule, how, and what it
    /// accepts.
    private static func badRequest(_ error: PlayerValidationError) -> APIError {
        APIError.badRequest("'\(error.field)' \(error.problem): it must be \(error.rule)")
    }

    /// An integer, not a boolean, a fraction or a string.
    private static func integer(_ value: Any) -> Int? {
        // JSON booleans are NSNumbers too, of Objective-C type "c".
        guard let number = value as? NSNumber, String(cString: number.objCType) != "c" else { return nil }
        let double = number.doubleValue
        guard double.rounded() == double, abs(double) < 9e15 else { return nil }
        return Int(exactly: double)
    }
}
