import Auditor
import Foundation

/// Progress on stderr while reading, only when stderr is a terminal (and not `-q`): records,
/// megabytes, rate, and the share of the input and time left when its size is known. The
/// first line comes after half a second (`AUDITOR_PROGRESS_AFTER=SECONDS` changes that), then
/// at most ten a second and at once for each new source, each redrawing the one before.
///
/// `TERM=dumb` (Emacs' shell, some CI consoles) understands no cursor or line-clearing codes:
/// there each line is plain text ending in a newline, at most one a second, and nothing is
/// cleared at the end.
package enum ProgressDisplay {
    /// Whether the terminal understands no control codes (`TERM=dumb`).
    public static func isDumb(_ environment: [String: String]) -> Bool {
        environment["TERM"] == "dumb"
    }

    /// The progress callback of ``AuditOptions/progress``, or nil when stderr is no terminal.
    public static func make(environment: [String: String] = ProcessInfo.processInfo.environment)
        -> (@Sendable (AuditOptions.Progress) -> Void)? {
        guard isatty(STDERR_FILENO) == 1 else { return nil }
        let after = environment["AUDITOR_PROGRESS_AFTER"].flatMap(Double.init).map { max(0, $0) } ?? 0.5
        let start = ContinuousClock.now
        let throttle = Throttle(next: after)
        let dumb = isDumb(environment)
        return { p in
            let elapsed = ContinuousClock.now - start
            let secs = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            guard throttle.due(secs, source: p.source, interval: dumb ? 1 : 0.1) else { return }
            var line = (dumb ? "" : "\r\u{1B}[2K") + "\(p.source): \(p.records) records"
            let mb = Double(p.bytesRead) / 1_048_576
            line += String(format: ", %.0f MB, %.0f MB/s", mb, mb / max(secs, 0.001))
            if let total = p.totalBytes, total > 0, p.bytesRead > 0 {
                let fraction = min(1, Double(p.bytesRead) / Double(total))
                let eta = secs / fraction - secs
                line += String(format: ", %.0f%%, ETA %.0fs", fraction * 100, max(0, eta))
            }
            if dumb { line += "\n" }
            StandardStream.write(line, to: STDERR_FILENO)
        }
    }

    /// When the next line may be drawn. `@unchecked Sendable`: `next` and `source` are only
    /// accessed with `lock` held.
    private final class Throttle: @unchecked Sendable {
        private let lock = NSLock()
        private let first: Double
        private var next: Double
        private var source: String?

        init(next: Double) {
            first = next
            self.next = next
        }

        /// Whether a line about `source` is due at `now` seconds (after the first delay: each
        /// `interval`, or at once for another source); if so, the next one is due `interval` later.
        func due(_ now: Double, source: String, interval: Double) -> Bool {
            lock.lock()
            defer { lock.unlock() }
            guard now >= first, now >= next || source != self.source else { return false }
            next = now + interval
            self.source = source
            return true
        }
    }

    /// Clears the last progress line (nothing when quiet, not a terminal, or `TERM=dumb`).
    public static func clear(quiet: Bool, environment: [String: String] = ProcessInfo.processInfo.environment) {
        if !quiet, isatty(STDERR_FILENO) == 1, !isDumb(environment) { StandardStream.write("\r\u{1B}[2K", to: STDERR_FILENO) }
    }
}
