import ArgumentParser
import Foundation

extension ParsableCommand {
    /// Runs the command line of `players` or `players-server`, as git users
    /// expect: `--version` (or `-v`) first prints ``VersionReport``; the arguments
    /// are read by ``CommandLineArguments`` (global options before the
    /// subcommand, unknown words with the nearest one suggested); a usage
    /// error is `PROGRAM: what is wrong` and one hint line, exit 2; any
    /// other error is the one line and exit code that `describe` gives.
    /// `printError` writes one line to standard error.
    public static func runCommandLine(
        program: String,
        globalOptions: [String: Bool] = [:],
        printError: @Sendable (String) -> Void,
        describe: @Sendable (any Error) -> (line: String, exitCode: Int32)) async -> Never
    {
        let arguments = Array(CommandLine.arguments.dropFirst())
        let reading = CommandLineArguments(root: self, globalOptions: globalOptions)
        var normalized = arguments
        do {
            if arguments.first == "--version" || arguments.first == "-v" {
                print(VersionReport.line(command: program))
                Foundation.exit(0)
            }
            normalized = try reading.normalized(arguments)
            var command = try parseAsRoot(normalized)
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
            Foundation.exit(0)
        } catch let error as UnknownWordError {
            printError("\(program): \(error.description)")
            Foundation.exit(2)
        } catch {
            let code = exitCode(for: error)
            if code == .success {
                exit(withError: error) // --help, --generate-completion-script
            }
            if code == .validationFailure || error is ValidationError {
                if let unknown = reading.unknownOption(in: normalized) {
                    printError("\(program): \(unknown.description)")
                    Foundation.exit(2)
                }
                usageErrorLines(for: error, program: program).forEach(printError)
                Foundation.exit(2)
            }
            if let exitCode = error as? ExitCode {
                Foundation.exit(exitCode.rawValue)
            }
            let (line, exitCode) = describe(error)
            printError("\(program): \(line)")
            Foundation.exit(exitCode)
        }
    }
}
