import AppCommandLine
import Foundation

extension PlayersCommand {
    /// The error for the first argument that is not valid UTF-8, if any.
    /// Swift reads arguments as UTF-8 and replaces invalid bytes with
    /// U+FFFD, so such an argument would silently become another name or
    /// path: it is refused instead, before anything is parsed.
    static func invalidArgumentError() -> CLIError? {
        for index in 1..<Int(CommandLine.argc) {
            guard let argument = CommandLine.unsafeArgv[index] else { continue }
            let bytes = UnsafeRawBufferPointer(start: argument, count: strlen(argument)).bindMemory(to: UInt8.self)
            guard String(validating: bytes, as: UTF8.self) == nil else { continue }
            return .usage("argument \(index) ('\(CommandLine.arguments[index])') is not valid UTF-8: give names and paths as UTF-8 text")
        }
        return nil
    }
}
