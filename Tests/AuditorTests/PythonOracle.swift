import Foundation
import TestSupport

/// Runs Python 3 as a reference implementation (its `decimal`, `datetime` and `re` modules):
/// a script reads JSON on standard input and prints JSON.
enum PythonOracle {
    /// The interpreter, or nil when the machine has none (the tests that need it are skipped).
    static let path: String? = ["/usr/bin/python3", "/usr/local/bin/python3"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Runs `script` with `input` (any JSON value) on standard input; returns its decoded output.
    static func run<Output: Decodable>(_ script: String, input: some Encodable, as: Output.Type) throws -> Output {
        guard let path else { throw Failure(description: "python3 not found") }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("oracle-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let inputFile = folder.appendingPathComponent("in.json")
        let scriptFile = folder.appendingPathComponent("oracle.py")
        try JSONEncoder().encode(input).write(to: inputFile)
        try Data(script.utf8).write(to: scriptFile)
        let run = try ChildProcess.run([path, scriptFile.path], inputFile: inputFile.path)
        guard run.status == 0 else {
            throw Failure(description: "python3 exited with \(run.status): \(run.stderrText)")
        }
        return try JSONDecoder().decode(Output.self, from: run.stdout)
    }
}
