import Foundation

/// A Python that imports pyarrow, for the tests that check against it: `$AUDITOR_PYARROW_PYTHON`,
/// else the repository's `.venv/bin/python3` (which `.ci/run` makes); nil when neither has it.
public enum PyarrowPython {
    public static let path: String? = {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        var candidates = [repository.appendingPathComponent(".venv/bin/python3").path]
        if let env = ProcessInfo.processInfo.environment["AUDITOR_PYARROW_PYTHON"] { candidates.insert(env, at: 0) }
        for path in candidates where FileManager.default.isExecutableFile(atPath: path) {
            if (try? ChildProcess.run([path, "-c", "import pyarrow"]))?.status == 0 { return path }
        }
        return nil
    }()
}
