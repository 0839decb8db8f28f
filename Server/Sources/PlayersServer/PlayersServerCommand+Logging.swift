import ArgumentParser
import Foundation
import Logging

extension PlayersServerCommand {
    /// The environment variables that set `--log-level` and `--log-format`
    /// when the options are not given.
    static let logLevelVariable = "PLAYERS_SERVER_LOG_LEVEL"
    static let logFormatVariable = "PLAYERS_SERVER_LOG_FORMAT"

    /// The level and format of the log: the options, else their
    /// environment variables, else `info` and `text`. A variable with
    /// another value is a usage error, as the option would be.
    func logSettings(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> (level: Logger.Level, format: LogFormat) {
        (try logLevel ?? Self.value(of: Self.logLevelVariable, in: environment) ?? .info,
         try logFormat ?? Self.value(of: Self.logFormatVariable, in: environment) ?? .text)
    }

    /// The value of the variable `name`, nil when it is not set or empty.
    private static func value<Value: ExpressibleByArgument>(of name: String, in environment: [String: String]) throws -> Value? {
        guard let text = environment[name], !text.isEmpty else { return nil }
        guard let value = Value(argument: text) else {
            throw ValidationError("\(name) must be one of \(Value.allValueStrings.joined(separator: ", ")), not '\(text)'.")
        }
        return value
    }

    /// Sends the log of every part of the server (Hummingbird, the stores,
    /// the requests) to standard error, at the level and in the format of
    /// ``logSettings(environment:)``, and returns the server's logger.
    func startLogging() throws -> Logger {
        let (level, format) = try logSettings()
        LoggingSystem.bootstrap { label in
            var handler: any LogHandler = switch format {
            case .text: StreamLogHandler.standardError(label: label)
            case .json: JSONLogHandler(label: label)
            }
            handler.logLevel = level
            return handler
        }
        return Logger(label: "players-server")
    }
}
