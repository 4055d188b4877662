import Foundation

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
        let inputFile = folder.appendingPathComponent("in.json"), outputFile = folder.appendingPathComponent("out.json")
        let scriptFile = folder.appendingPathComponent("oracle.py")
        try JSONEncoder().encode(input).write(to: inputFile)
        try Data(script.utf8).write(to: scriptFile)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = [scriptFile.path]
        process.standardInput = try FileHandle(forReadingFrom: inputFile)
        _ = FileManager.default.createFile(atPath: outputFile.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: outputFile)
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(description: "python3 exited with \(process.terminationStatus)")
        }
        return try JSONDecoder().decode(Output.self, from: Data(contentsOf: outputFile))
    }
}
