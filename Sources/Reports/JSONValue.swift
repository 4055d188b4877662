/// A JSON value whose objects keep their members in the order written, so output is
/// deterministic without sorting keys (which would scatter `id` away from the top of a rule).
enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case integer(Int64)
    /// A decimal written in fixed notation (see ``NumberText/jsonDecimal(_:)``); non-finite
    /// values, which JSON cannot represent, are written as `null`.
    case decimal(Double)
    case string(String)
    case array([JSONValue])
    case object([Member])

    /// One object member.
    struct Member: Sendable, Equatable {
        var key: String
        var value: JSONValue
    }

    /// `.string(text)` or `.null`.
    static func string(_ text: String?) -> JSONValue { text.map(JSONValue.string) ?? .null }

    /// `.integer(value)` or `.null`.
    static func integer<I: BinaryInteger>(_ value: I?) -> JSONValue {
        guard let value else { return .null }
        return .integer(Int64(clamping: value))
    }

    /// An object from `key: value` pairs, in this order.
    static func object(_ members: KeyValuePairs<String, JSONValue>) -> JSONValue {
        .object(members.map { Member(key: $0.key, value: $0.value) })
    }
}

/// Serialises a ``JSONValue``: pretty-printed with two spaces, `": "` after keys, `[]` and `{}`
/// for empty containers, strings escaped by ``JSONWriter/quoted(_:htmlSafe:)``.
struct JSONWriter {
    /// Also escape `<`, `>` and `&` (see ``JSONReporter/htmlSafe``).
    var htmlSafe = false
    /// One line: no indentation, no line breaks, `,` and `:` without spaces (JSON Lines).
    var compact = false

    /// The text of `value` with a final newline.
    func write(_ value: JSONValue) -> String {
        var out = ""
        append(value, to: &out, depth: 0)
        out.append("\n")
        return out
    }

    private func append(_ value: JSONValue, to out: inout String, depth: Int) {
        switch value {
        case .null: out.append("null")
        case .bool(let flag): out.append(flag ? "true" : "false")
        case .integer(let number): out.append(String(number))
        case .decimal(let number): out.append(NumberText.jsonDecimal(number) ?? "null")
        case .string(let text): out.append(Self.quoted(text, htmlSafe: htmlSafe))
        case .array(let elements) where compact:
            out.append("[")
            for (index, element) in elements.enumerated() {
                if index > 0 { out.append(",") }
                append(element, to: &out, depth: depth)
            }
            out.append("]")
        case .object(let members) where compact:
            out.append("{")
            for (index, member) in members.enumerated() {
                if index > 0 { out.append(",") }
                out.append(Self.quoted(member.key, htmlSafe: htmlSafe))
                out.append(":")
                append(member.value, to: &out, depth: depth)
            }
            out.append("}")
        case .array(let elements):
            guard !elements.isEmpty else { out.append("[]"); return }
            out.append("[\n")
            for (index, element) in elements.enumerated() {
                indent(&out, depth + 1)
                append(element, to: &out, depth: depth + 1)
                out.append(index == elements.count - 1 ? "\n" : ",\n")
            }
            indent(&out, depth)
            out.append("]")
        case .object(let members):
            guard !members.isEmpty else { out.append("{}"); return }
            out.append("{\n")
            for (index, member) in members.enumerated() {
                indent(&out, depth + 1)
                out.append(Self.quoted(member.key, htmlSafe: htmlSafe))
                out.append(": ")
                append(member.value, to: &out, depth: depth + 1)
                out.append(index == members.count - 1 ? "\n" : ",\n")
            }
            indent(&out, depth)
            out.append("}")
        }
    }

    private func indent(_ out: inout String, _ depth: Int) {
        out.append(String(repeating: "  ", count: depth))
    }

    /// A JSON string literal (RFC 8259) for `text`.
    ///
    /// `"` and `\` are escaped; U+0008, U+0009, U+000A, U+000C, U+000D as `\b \t \n \f \r`;
    /// every other C0 control, DEL and the C1 controls as `\u00XX`; U+2028 and U+2029 as
    /// `\u2028` `\u2029` (valid JSON but line terminators in older JavaScript, and invisible);
    /// the bidirectional controls and U+FEFF too, so the file is as safe to `cat` to a terminal
    /// as the text report (the set is ``TerminalText/needsEscape(_:)``'s); with `htmlSafe`,
    /// `<` `>` `&` as `\u003c` `\u003e` `\u0026`. Everything else, non-BMP text such as emoji
    /// included, is written as UTF-8 (RFC 8259 §8.1), which every JSON parser reads.
    /// - Complexity: O(n) in the number of Unicode scalars.
    static func quoted(_ text: String, htmlSafe: Bool = false) -> String {
        var out = String.UnicodeScalarView()
        out.reserveCapacity(text.unicodeScalars.count + 2)
        out.append("\"")
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out.append(contentsOf: #"\""#.unicodeScalars)
            case "\\": out.append(contentsOf: #"\\"#.unicodeScalars)
            case "\u{08}": out.append(contentsOf: #"\b"#.unicodeScalars)
            case "\t": out.append(contentsOf: #"\t"#.unicodeScalars)
            case "\n": out.append(contentsOf: #"\n"#.unicodeScalars)
            case "\u{0C}": out.append(contentsOf: #"\f"#.unicodeScalars)
            case "\r": out.append(contentsOf: #"\r"#.unicodeScalars)
            case "<" where htmlSafe, ">" where htmlSafe, "&" where htmlSafe:
                out.append(contentsOf: hexEscape(scalar.value).unicodeScalars)
            default:
                if TerminalText.needsEscape(scalar) {
                    out.append(contentsOf: hexEscape(scalar.value).unicodeScalars)
                } else {
                    out.append(scalar)
                }
            }
        }
        out.append("\"")
        return String(out)
    }

    /// `\u001b`: four lower-case hexadecimal digits (only called for BMP scalars).
    private static func hexEscape(_ value: UInt32) -> String {
        let hex = String(value, radix: 16)
        return "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}
