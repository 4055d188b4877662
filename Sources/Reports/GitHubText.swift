/// Escaping for GitHub Actions workflow commands and job-summary Markdown (CONVENTIONS rule 3).
enum GitHubText {
    /// `escapeData` of @actions/core: `%` → `%25`, CR → `%0D`, LF → `%0A`; other controls,
    /// separators and bidi controls are made visible as `\u{…}` first, so nothing the data
    /// holds can start a new log line (a forged `::error`) or drive the log viewer.
    static func data(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "%": out += "%25"
            case "\r": out += "%0D"
            case "\n": out += "%0A"
            case "\t": out += "\t"
            default:
                if TerminalText.needsEscape(scalar) {
                    out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }

    /// `escapeProperty` of @actions/core: ``data(_:)`` plus `:` → `%3A` and `,` → `%2C`.
    static func property(_ text: String) -> String {
        data(text).replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
    }

    /// Text for a Markdown table cell or paragraph: controls made visible, `& < >` as HTML
    /// references (GitHub renders some HTML in summaries), and every Markdown-active ASCII
    /// punctuation (`\` `` ` `` `* _ [ ] ( ) # ! ~ | : { }`) backslash-escaped, so data can
    /// neither format, link, nor break out of its table cell.
    static func markdown(_ text: String) -> String {
        var out = ""
        for scalar in TerminalText.escaped(text).unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\\", "`", "*", "_", "[", "]", "(", ")", "#", "!", "~", "|", ":", "{", "}":
                out += "\\"
                out.unicodeScalars.append(scalar)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
