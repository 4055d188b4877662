/// Makes data-derived text safe to print on a terminal or into a CI log (CONVENTIONS rule 3).
///
/// Every string that comes from an input or a rules file (values, messages, keys, paths, rule
/// ids, summaries, reader errors) goes through ``escaped(_:)`` before a reporter prints it, so
/// data can never start a new line (a forged `::error` workflow command, a fake "passed" line),
/// move the cursor, or send a terminal escape sequence.
package enum TerminalText {
    /// Returns `text` with every character that could forge lines or control a terminal made
    /// visible as an escape.
    ///
    /// - LF, CR and TAB become `\n`, `\r` and `\t`.
    /// - Every other C0 control (U+0000–U+001F), DEL (U+007F), every C1 control
    ///   (U+0080–U+009F, NEL included), the line and paragraph separators U+2028 and U+2029
    ///   become `\u{1B}`-style escapes (hexadecimal, upper case, no padding).
    /// - So do the bidirectional formatting controls (U+061C, U+200E, U+200F, U+202A–U+202E,
    ///   U+2066–U+2069), which can make a terminal show text in another order than it was read
    ///   ("Trojan Source"), and the byte-order mark U+FEFF, which is invisible.
    ///
    /// Backslashes are left alone on purpose: Windows paths and regular expressions stay
    /// readable, and an ambiguity between a literal `\n` and an escaped line feed cannot forge
    /// anything. The escaping is for safety and visibility; the JSON report is the lossless form.
    ///
    /// - Parameter text: Any string, possibly hostile.
    /// - Returns: A string with no control characters; unchanged when there was nothing to escape.
    /// - Complexity: O(n) in the number of Unicode scalars; no allocation when nothing needs escaping.
    public static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var out = String.UnicodeScalarView()
        out.reserveCapacity(text.unicodeScalars.count + 8)
        for scalar in text.unicodeScalars {
            guard needsEscape(scalar) else {
                out.append(scalar)
                continue
            }
            let escape: String
            switch scalar {
            case "\n": escape = "\\n"
            case "\r": escape = "\\r"
            case "\t": escape = "\\t"
            default: escape = "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            }
            out.append(contentsOf: escape.unicodeScalars)
        }
        return String(out)
    }

    /// Whether a scalar must not reach a terminal as is (see ``escaped(_:)``).
    static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: return true           // C0, DEL, C1
        case 0x2028, 0x2029: return true                      // line / paragraph separator
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: return true  // bidi controls
        case 0xFEFF: return true                              // byte-order mark
        default: return false
        }
    }
}
