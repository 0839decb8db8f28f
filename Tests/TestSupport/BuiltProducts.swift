import Foundation

/// The executables that `swift build` made (`players`, `players-server`,
/// `players-bench`), in the folder that `swift build --show-bin-path`
/// names: asked once per test process, for the configuration the tests
/// were built in.
public enum BuiltProducts {
    /// The built executable `name`. Throws when SwiftPM cannot name its
    /// products' folder; the executable itself may not exist yet (run
    /// `swift build` first).
    public static func url(_ name: String) throws -> URL {
        try folder.get().appendingPathComponent(name)
    }

    /// The path of the built executable `name`.
    public static func path(_ name: String) throws -> String {
        try url(name).path
    }

    /// The package's root: three levels above this file (where the tests
    /// read Docs/ from).
    public static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The configuration the tests were built in (`debug` or `release`).
    #if DEBUG
    public static let configuration = "debug"
    #else
    public static let configuration = "release"
    #endif

    private static let folder: Result<URL, TestFailure> = {
        let arguments = ["swift", "build", "--package-path", packageRoot.path, "-c", configuration, "--show-bin-path"]
        let command = arguments.joined(separator: " ")
        let result: (status: Int32, output: String, error: String)
        do {
            // SwiftPM leaves empty folders in TMPDIR: it gets one that goes.
            let temporary = try TemporaryFolder()
            let environment = ProcessInfo.processInfo.environment.merging(["TMPDIR": temporary.path]) { $1 }
            // Once, when the first test asks: a short wait.
            result = try runBlocking("/usr/bin/env", arguments, environment: environment)
        } catch {
            return .failure(TestFailure("could not run \(command): \(error)"))
        }
        let path = result.output.trimmingCharacters(in: .whitespacesAndNewlines)
        guard result.status == 0, path.hasPrefix("/") else {
            return .failure(TestFailure("\(command) failed (\(result.status)): \(result.error)"))
        }
        return .success(URL(fileURLWithPath: path, isDirectory: true))
    }()
}
