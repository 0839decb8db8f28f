import Foundation

/// Runs a program to its end and returns its exit status, standard output
/// and standard error. Standard input gets `input` (then end of file).
/// Both outputs are read at once, so that a program that fills one pipe
/// while the other is read cannot block.
public func run(_ executable: String, _ arguments: [String], environment: [String: String]? = nil,
                input: String? = nil) throws -> (status: Int32, output: String, error: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    if let environment { process.environment = environment }
    return try run(process, input: input)
}

/// Runs a configured process the same way; `onOutput`, if given, gets
/// the standard output received so far each time more arrives.
public func run(_ process: Process, input: String? = nil,
                onOutput: (@Sendable (String) -> Void)? = nil) throws -> (status: Int32, output: String, error: String) {
    let outputPipe = Pipe(), errorPipe = Pipe(), inputPipe = Pipe()
    process.standardOutput = outputPipe
    process.standardError = errorPipe
    process.standardInput = inputPipe
    try process.run()
    if let input { inputPipe.fileHandleForWriting.write(Data(input.utf8)) }
    try inputPipe.fileHandleForWriting.close()
    let errorData = ErrorCollector()
    let errorReader = Thread { errorData.set(errorPipe.fileHandleForReading.readDataToEndOfFile()) }
    errorReader.start()
    var output = Data()
    if let onOutput {
        var chunk = outputPipe.fileHandleForReading.availableData
        while !chunk.isEmpty {
            output.append(chunk)
            onOutput(String(decoding: output, as: UTF8.self))
            chunk = outputPipe.fileHandleForReading.availableData
        }
    } else {
        output = outputPipe.fileHandleForReading.readDataToEndOfFile()
    }
    process.waitUntilExit()
    let error = errorData.wait()
    return (process.terminationStatus, String(decoding: output, as: UTF8.self), String(decoding: error, as: UTF8.self))
}

/// The standard error read on another thread. `Sendable` through its
/// semaphore: `set` happens once, before `wait` returns.
private final class ErrorCollector: @unchecked Sendable {
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    func set(_ data: Data) {
        self.data = data
        done.signal()
    }

    func wait() -> Data {
        done.wait()
        return data
    }
}
