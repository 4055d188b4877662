import Auditor

/// The few ANSI SGR styles the text report uses, and nothing else.
///
/// Styles wrap text that has already been escaped and padded: padding is computed on the
/// plain text, so columns line up with and without colour. When colour is off every method
/// returns its argument unchanged, so the plain report contains no escape byte at all.
struct ANSIStyle: Sendable {
    /// Whether to emit escape sequences.
    var enabled: Bool

    enum Code: String {
        case bold = "1"
        case red = "1;31"
        case green = "1;32"
        case yellow = "1;33"
        case cyan = "1;36"
        case dim = "2"
    }

    /// `text` wrapped in `ESC[<code>m … ESC[0m` when enabled.
    func apply(_ code: Code, _ text: String) -> String {
        guard enabled, !text.isEmpty else { return text }
        return "\u{1B}[\(code.rawValue)m\(text)\u{1B}[0m"
    }

    /// A severity word in its colour: error red, warning yellow, info cyan.
    func severity(_ severity: Severity, _ text: String) -> String {
        switch severity {
        case .error: return apply(.red, text)
        case .warning: return apply(.yellow, text)
        case .info: return apply(.cyan, text)
        }
    }

    /// A rule id (bold).
    func ruleID(_ text: String) -> String { apply(.bold, text) }

    /// A verdict word: passed green, failed and incomplete red.
    func outcome(_ outcome: AuditReport.Outcome, _ text: String) -> String {
        switch outcome {
        case .passed: return apply(.green, text)
        case .failed, .incomplete: return apply(.red, text)
        }
    }
}

/// Pads `text` on the right with spaces to `width` characters (no-op when longer).
func padded(_ text: String, _ width: Int) -> String {
    let count = text.count
    return count >= width ? text : text + String(repeating: " ", count: width - count)
}
