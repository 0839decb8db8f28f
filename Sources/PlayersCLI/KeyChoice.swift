import Foundation
import Players

/// The key of a new database: the one given, or the default key file
/// (created if needed).
enum KeyChoice {
    static func keyForNewDatabase(_ options: DatabaseOptions) throws -> (ResolvedKey, createdKeyFile: URL?) {
        if let explicit = try options.explicitKey() { return (explicit, nil) }
        let keyURL = SecretFiles.defaultKeyURL(environment: options.environment)
        if FileManager.default.fileExists(atPath: keyURL.path) {
            return (.rawKey(try SecretFiles.readKey(keyURL.path), origin: "default key file"), nil)
        }
        return (.rawKey(try SecretFiles.createKey(at: keyURL), origin: "default key file"), keyURL)
    }
}
