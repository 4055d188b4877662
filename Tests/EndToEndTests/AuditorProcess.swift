import Foundation
import TestSupport
import Testing

/// What one run of the `auditor` binary did: its exit status and everything it printed.
struct Execution: Sendable, CustomStringConvertible {
    var arguments: [String]
    var directory: String
    var status: Int32
    var stdout: Data
    var stderr: Data
    var seconds: Double

    var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
    var stderrText: String { String(decoding: stderr, as: UTF8.self) }
    /// The lines of stdout, split on the LF byte only (a CR left in a line is a finding in itself;
    /// splitting the `String` on `"\n"` would not split CRLF, a single `Character`).
    var stdoutLines: [String] { lines(of: stdout) }
    var stderrLines: [String] { lines(of: stderr) }

    /// A short transcript for failure messages: the command, the status and both streams (clipped).
    var description: String {
        func clip(_ s: String) -> String { s.count > 3000 ? String(s.prefix(3000)) + "\n… (\(s.count) characters)" : s }
        return """
            $ (cd \(directory) && auditor \(arguments.joined(separator: " ")))
            exit status \(status) after \(String(format: "%.2f", seconds)) s
            --- stderr ---
            \(clip(stderrText))
            --- stdout ---
            \(clip(stdoutText))
            """
    }
}

/// The lines of UTF-8 bytes, split on LF bytes only (never on CRLF as one `Character`).
func lines(of data: Data) -> [String] {
    data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
}

/// Locates the `auditor` binary that `swift build` / `swift test` built, and runs it.
///
/// The shape of swift-argument-parser's `AssertExecuteCommand`: the executable sits next to the
/// test bundle in the build products directory; it runs as a child process with captured
/// stdout/stderr, and the caller checks the exit status and the output.
enum Auditor {
    /// The package root (this file is `<root>/Tests/EndToEndTests/AuditorProcess.swift`).
    static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The built binary: `$AUDITOR_BINARY`, else `auditor` next to the test bundle, else
    /// `<root>/.build/debug/auditor`.
    static let executable: URL? = locate()

    /// How long a single run may take before it is killed and the test fails.
    static let defaultTimeout: Double = 120

    private static func locate() -> URL? {
        let fm = FileManager.default
        func isProgram(_ url: URL) -> Bool {
            var isDir: ObjCBool = false
            return fm.fileExists(atPath: url.path, isDirectory: &isDir) && !isDir.boolValue
                && fm.isExecutableFile(atPath: url.path)
        }
        if let path = ProcessInfo.processInfo.environment["AUDITOR_BINARY"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        var starts = [Bundle.main.bundleURL]
        if let exe = Bundle.main.executableURL { starts.append(exe.deletingLastPathComponent()) }
        for start in starts {
            // The products directory, or (for a `.xctest` bundle directory) its parent.
            for dir in [start, start.deletingLastPathComponent()] {
                let candidate = dir.appendingPathComponent("auditor")
                if isProgram(candidate) { return candidate }
            }
        }
        let fallback = packageRoot.appendingPathComponent(".build/debug/auditor")
        return isProgram(fallback) ? fallback : nil
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Runs `auditor` with `arguments` in `directory` and waits for it, at most `timeout` seconds.
    ///
    /// A ``ChildProcess``: stdout and stderr go to files, stdin is `/dev/null`, and the colour
    /// variables of the caller's environment are removed so that output does not depend on who
    /// runs the tests. `program` runs another build of the command line (a team's auditor) instead.
    /// - Throws: ``Failure`` when the binary is missing, cannot start, or times out (it is killed).
    static func run(_ arguments: [String], in directory: URL = packageRoot,
                    environment: [String: String] = [:],
                    timeout: Double = defaultTimeout, standardInput: URL? = nil,
                    program: URL? = nil) throws -> Execution {
        guard let executable = program ?? Self.executable else {
            throw Failure(description: "no 'auditor' binary next to the test bundle (\(Bundle.main.bundleURL.path)) nor in .build/debug; run 'swift build' first or set AUDITOR_BINARY")
        }
        var env = ProcessInfo.processInfo.environment
        for key in ["NO_COLOR", "FORCE_COLOR", "CLICOLOR_FORCE", "GITHUB_ACTIONS", "GITHUB_STEP_SUMMARY"] {
            env[key] = nil
        }
        env.merge(environment) { _, new in new }
        let start = ContinuousClock.now
        let result: ChildProcess.Result
        do {
            result = try ChildProcess.run([executable.path] + arguments, directory: directory, environment: env,
                                          inputFile: standardInput?.path, timeout: timeout)
        } catch {
            throw Failure(description: "auditor \(arguments.joined(separator: " ")): \(error)")
        }
        let elapsed = ContinuousClock.now - start
        return Execution(
            arguments: arguments, directory: directory.path, status: result.status, stdout: result.stdout, stderr: result.stderr,
            seconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }
}

/// Runs `auditor` and checks its exit status and, optionally, what stderr says
/// (swift-argument-parser's `AssertExecuteCommand`, for Swift Testing).
///
/// - Parameters:
///   - arguments: The command line after `auditor`.
///   - directory: The working directory (default: the package root).
///   - exitCode: The status the run must end with.
///   - stderrContains: Strings that must each occur on stderr.
///   - stderrMatches: Regular expressions (anchored per line with `^`/`$` if you want) of which
///     each must match some line of stderr.
/// - Returns: The execution, for further checks.
@discardableResult
func assertExecute(_ arguments: [String], in directory: URL = Auditor.packageRoot,
                   exitCode: Int32,
                   stderrContains: [String] = [],
                   stderrMatches: [String] = [],
                   environment: [String: String] = [:],
                   timeout: Double = Auditor.defaultTimeout,
                   sourceLocation: SourceLocation = #_sourceLocation) throws -> Execution {
    let run = try Auditor.run(arguments, in: directory, environment: environment, timeout: timeout)
    #expect(run.status == exitCode, "expected exit status \(exitCode)\n\(run)", sourceLocation: sourceLocation)
    for needle in stderrContains {
        #expect(run.stderrText.contains(needle), "stderr lacks '\(needle)'\n\(run)", sourceLocation: sourceLocation)
    }
    for pattern in stderrMatches {
        let matched = run.stderrLines.contains { $0.range(of: pattern, options: .regularExpression) != nil }
        #expect(matched, "no stderr line matches /\(pattern)/\n\(run)", sourceLocation: sourceLocation)
    }
    return run
}
