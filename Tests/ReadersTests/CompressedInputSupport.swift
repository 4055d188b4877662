import Foundation
import TestSupport
@_spi(Testing) import AuditorReaders
import Auditor

/// Compressed fixtures made with the system's `gzip` and `zstd` tools (as users make them).
enum CompressedFixture {
    /// True when `tool` is on the PATH (`zstd` is not installed everywhere).
    static func has(_ tool: String) -> Bool {
        (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").contains {
            FileManager.default.isExecutableFile(atPath: "\($0)/\(tool)")
        }
    }

    /// `data` piped through `tool arguments` (e.g. `gzip -c`).
    static func run(_ tool: String, _ arguments: [String], input data: Data) throws -> Data {
        let run = try ChildProcess.run([tool] + arguments, input: data)
        guard run.status == 0 else { throw ChildProcess.Failure(description: "\(run)") }
        return run.stdout
    }

    static func gzip(_ data: Data) throws -> Data { try run("gzip", ["-c", "-n"], input: data) }
    static func zstd(_ data: Data) throws -> Data { try run("zstd", ["-c", "-q"], input: data) }

    /// Every byte of a source, read `step` bytes at a time.
    static func readAll(_ source: any ByteSource, step: Int = 1 << 16) throws -> Data {
        var out = Data()
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: step)
        defer { buffer.deallocate() }
        while true {
            let n = try source.read(into: buffer, count: step)
            if n == 0 { return out }
            out.append(buffer, count: n)
        }
    }

    /// A CSV text of `rows` records with quoted fields, line breaks inside quotes and UTF-8.
    static func csv(rows: Int, seed: Int = 1) -> String {
        var text = "id,name,city,note\n"
        for i in 0..<rows {
            let k = (i * 7919 + seed) % 97
            let note = k % 11 == 0 ? "\"two\nlines, \"\"quoted\"\"\"" : (k % 5 == 0 ? "Zürich ✓" : "n\(k)")
            text += "\(i),name\(k),city\(k % 13),\(note)\n"
        }
        return text
    }
}
