/// Escaping for the HTML report (CONVENTIONS rule 8).
enum HTMLText {
    /// Text for an HTML text node or a double-quoted attribute value: `& < > " '` become
    /// character references, and characters that could hide or reorder text (controls,
    /// U+2028/U+2029, bidi controls, BOM) are made visible first as `\u{…}`
    /// (``TerminalText/escaped(_:)``); the exact value stays in the embedded JSON.
    /// - Complexity: O(n).
    static func escaped(_ text: String) -> String {
        let visible = TerminalText.escaped(text)
        guard visible.utf8.contains(where: { $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || $0 == 0x22 || $0 == 0x27 })
        else { return visible }
        var out = ""
        out.reserveCapacity(visible.utf8.count + 16)
        for scalar in visible.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
