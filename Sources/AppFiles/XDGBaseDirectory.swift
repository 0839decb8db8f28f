import Foundation

/// The XDG base directories: where a program keeps its data and its
/// configuration.
///
/// See <https://specifications.freedesktop.org/basedir-spec/latest/>.
public enum XDGBaseDirectory {
    /// `$XDG_DATA_HOME`, or `~/.local/share`.
    case data
    /// `$XDG_CONFIG_HOME`, or `~/.config`.
    case config

    /// The folder. A relative path in the variable is invalid, and ignored,
    /// as the specification says.
    public func url(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        let (variable, fallback) = switch self {
        case .data: ("XDG_DATA_HOME", ".local/share")
        case .config: ("XDG_CONFIG_HOME", ".config")
        }
        if let path = environment[variable], path.hasPrefix("/") {
            return URL(fileURLWithPath: path, isDirectory: true)
        }
        let home = environment["HOME"] ?? NSHomeDirectory()
        return URL(fileURLWithPath: home, isDirectory: true).appendingPathComponent(fallback, isDirectory: true)
    }
}
