import AppFiles
import Foundation

extension SecretFiles {
    /// `$XDG_CONFIG_HOME/players/key`, or `~/.config/players/key`.
    public static func defaultKeyURL(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        XDGBaseDirectory.config.url(environment: environment)
            .appendingPathComponent("players", isDirectory: true)
            .appendingPathComponent("key")
    }
}
