/// Escaping for the XML reports (CONVENTIONS rule 1).
enum XMLText {
    /// Whether XML 1.0 allows `scalar` at all (production `Char`): not even a character
    /// reference such as `&#1;` may stand for the others, and libxml2 rejects the whole
    /// document if one appears.
    static func isLegal(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x9, 0xA, 0xD, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: return true
        default: return false
        }
    }

    /// Data for XML text or a double-quoted attribute value.
    ///
    /// Controls, separators and bidi controls are first made visible as `\u{…}`
    /// (``TerminalText/escaped(_:)``), and so are the noncharacters U+FFFE and U+FFFF: that
    /// removes every character XML forbids while showing the reader that the data had one
    /// (rule 1 says "strip"; a visible escape strips it from the document and keeps the
    /// evidence). Then `& < > " '` become references. A last pass drops anything still
    /// illegal, so the result is always well-formed.
    /// - Complexity: O(n).
    static func escaped(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count + 8)
        for scalar in TerminalText.escaped(text).unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\u{FFFE}", "\u{FFFF}": out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default: if isLegal(scalar) { out.unicodeScalars.append(scalar) }
            }
        }
        return out
    }
}
