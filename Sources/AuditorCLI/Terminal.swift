import Auditor
import Foundation

/// Progress on stderr while reading, only when stderr is a terminal (and not `-q`).
enum ProgressDisplay {
    static func make() -> (@Sendable (AuditOptions.Progress) -> Void)? {
        guard isatty(STDERR_FILENO) == 1 else { return nil }
        let start = ContinuousClock.now
        return { p in
            let elapsed = ContinuousClock.now - start
            let secs = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            guard secs > 0.5 else { return }
            var line = "\r\u{1B}[2K\(p.source): \(p.records) records"
            let mb = Double(p.bytesRead) / 1_048_576
            line += String(format: ", %.0f MB, %.0f MB/s", mb, mb / secs)
            if let total = p.totalBytes, total > 0, p.bytesRead > 0 {
                let fraction = Double(p.bytesRead) / Double(total)
                let eta = secs / fraction - secs
                line += String(format: ", %.0f%%, ETA %.0fs", fraction * 100, max(0, eta))
            }
            FileHandle.standardError.write(Data(line.utf8))
        }
    }

    static func clear(quiet: Bool) {
        if !quiet, isatty(STDERR_FILENO) == 1 { FileHandle.standardError.write(Data("\r\u{1B}[2K".utf8)) }
    }
}
