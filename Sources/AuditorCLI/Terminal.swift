import Auditor
import Foundation

/// Terminal behaviour (CONVENTIONS.md rule 5).
enum Terminal {
    /// The colour decision: flag > NO_COLOR > FORCE_COLOR/CLICOLOR_FORCE > TERM=dumb > isatty.
    static func useColor(flag: String, fd: Int32) -> Bool {
        let env = ProcessInfo.processInfo.environment
        switch flag {
        case "always": return true
        case "never": return false
        default: break
        }
        if let v = env["NO_COLOR"], !v.isEmpty { return false }
        if let v = env["FORCE_COLOR"], !v.isEmpty { return true }
        if let v = env["CLICOLOR_FORCE"], !v.isEmpty { return true }
        if env["TERM"] == "dumb" { return false }
        return isatty(fd) == 1
    }

    /// Escapes CR, LF and other control characters so data can never forge lines on stderr.
    static func escapeControls(_ s: String) -> String {
        var out = ""
        for u in s.unicodeScalars {
            switch u {
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where u.value < 0x20 || (0x7F ... 0x9F).contains(u.value) || u == "\u{2028}" || u == "\u{2029}":
                out += "\\u{\(String(u.value, radix: 16))}"
            default: out.unicodeScalars.append(u)
            }
        }
        return out
    }
}

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
