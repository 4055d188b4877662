import Auditor

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
    /// An array of fingerprints, each written as a string of 16 lowercase hex digits
    /// (``Fingerprint/hex(_:)``): a report may list hundreds of thousands, and a `String`
    /// each would cost an allocation and 40 bytes before a byte is written.
    case fingerprints([UInt64])

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
///
/// Writes UTF-8 bytes and builds one `String` at the end: a report of a million-row audit
/// lists tens of thousands of fingerprints, and appending scalar by scalar to a `String` made
/// rendering the serial tail of every `--jobs` run (186M of the calling thread's 358M
/// instructions at 200k rows, `Benchmarks/profile.sh 200000 csv 2`).
struct JSONWriter {
    /// Also escape `<`, `>` and `&` (see ``JSONReporter/htmlSafe``).
    var htmlSafe = false
    /// One line: no indentation, no line breaks, `,` and `:` without spaces (JSON Lines).
    var compact = false

    /// The text of `value` with a final newline.
    func write(_ value: JSONValue) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(1 << 16)
        append(value, to: &out, depth: 0)
        out.append(UInt8(ascii: "\n"))
        return String(decoding: out, as: UTF8.self)
    }

    /// The same text, handed to `sink` about 64 KiB at a time: a report listing hundreds of
    /// thousands of fingerprints never exists whole in memory. After `sink` throws, nothing
    /// more is written and the error is rethrown.
    func write(_ value: JSONValue, to sink: (UnsafeRawBufferPointer) throws(AuditError) -> Void) throws(AuditError) {
        var failure: AuditError?
        withoutActuallyEscaping(sink) { sink in
            let flush = { (out: inout [UInt8]) in
                if failure == nil {
                    do throws(AuditError) { try out.withUnsafeBytes { bytes in Result { () throws(AuditError) in try sink(bytes) } }.get() }
                    catch { failure = error }
                }
                out.removeAll(keepingCapacity: true)
            }
            var out: [UInt8] = []
            out.reserveCapacity(1 << 17)
            append(value, to: &out, depth: 0, flush: flush)
            out.append(UInt8(ascii: "\n"))
            flush(&out)
        }
        if let failure { throw failure }
    }

    /// Hands `out` to `flush` once it holds 64 KiB.
    private static func spill(_ out: inout [UInt8], _ flush: ((inout [UInt8]) -> Void)?) {
        if let flush, out.count >= 1 << 16 { flush(&out) }
    }

    private func append(_ value: JSONValue, to out: inout [UInt8], depth: Int, flush: ((inout [UInt8]) -> Void)? = nil) {
        switch value {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let flag): out.append(contentsOf: (flag ? "true" : "false").utf8)
        case .integer(let number): Self.appendDecimal(number, to: &out)
        case .decimal(let number): out.append(contentsOf: (NumberText.jsonDecimal(number) ?? "null").utf8)
        case .string(let text): Self.appendQuoted(text, htmlSafe: htmlSafe, to: &out)
        case .fingerprints(let values) where compact || values.isEmpty:
            out.append(UInt8(ascii: "["))
            for (index, value) in values.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                Self.appendHex(value, to: &out)
                Self.spill(&out, flush)
            }
            out.append(UInt8(ascii: "]"))
        case .fingerprints(let values):
            out.append(contentsOf: "[\n".utf8)
            for (index, value) in values.enumerated() {
                Self.indent(&out, depth + 1)
                Self.appendHex(value, to: &out)
                out.append(contentsOf: (index == values.count - 1 ? "\n" : ",\n").utf8)
                Self.spill(&out, flush)
            }
            Self.indent(&out, depth)
            out.append(UInt8(ascii: "]"))
        case .array(let elements) where compact:
            out.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                append(element, to: &out, depth: depth, flush: flush)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let members) where compact:
            out.append(UInt8(ascii: "{"))
            for (index, member) in members.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                Self.appendQuoted(member.key, htmlSafe: htmlSafe, to: &out)
                out.append(UInt8(ascii: ":"))
                append(member.value, to: &out, depth: depth, flush: flush)
            }
            out.append(UInt8(ascii: "}"))
        case .array(let elements):
            guard !elements.isEmpty else { out.append(contentsOf: "[]".utf8); return }
            out.append(contentsOf: "[\n".utf8)
            for (index, element) in elements.enumerated() {
                Self.indent(&out, depth + 1)
                append(element, to: &out, depth: depth + 1, flush: flush)
                out.append(contentsOf: (index == elements.count - 1 ? "\n" : ",\n").utf8)
                Self.spill(&out, flush)
            }
            Self.indent(&out, depth)
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            guard !members.isEmpty else { out.append(contentsOf: "{}".utf8); return }
            out.append(contentsOf: "{\n".utf8)
            for (index, member) in members.enumerated() {
                Self.indent(&out, depth + 1)
                Self.appendQuoted(member.key, htmlSafe: htmlSafe, to: &out)
                out.append(contentsOf: ": ".utf8)
                append(member.value, to: &out, depth: depth + 1, flush: flush)
                out.append(contentsOf: (index == members.count - 1 ? "\n" : ",\n").utf8)
                Self.spill(&out, flush)
            }
            Self.indent(&out, depth)
            out.append(UInt8(ascii: "}"))
        }
    }

    private static func indent(_ out: inout [UInt8], _ depth: Int) {
        out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * depth))
    }

    /// `"` + the 16 lowercase hex digits of `value` + `"`.
    private static func appendHex(_ value: UInt64, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for shift in stride(from: 60, through: 0, by: -4) {
            let digit = UInt8((value >> UInt64(shift)) & 0xF)
            out.append(digit < 10 ? UInt8(ascii: "0") + digit : UInt8(ascii: "a") + digit - 10)
        }
        out.append(UInt8(ascii: "\""))
    }

    /// The decimal digits of `number`, without building a `String`.
    private static func appendDecimal(_ number: Int64, to out: inout [UInt8]) {
        if number < 0 { out.append(UInt8(ascii: "-")) }
        var magnitude = number.magnitude
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)     // 24 bytes: UInt64.max has 20 digits
        var count = 0
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                buffer[23 - count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
                count += 1
            } while magnitude > 0
            out.append(contentsOf: buffer[(24 - count)...])
        }
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
    /// - Complexity: O(n) in the number of UTF-8 bytes.
    static func quoted(_ text: String, htmlSafe: Bool = false) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count + 2)
        appendQuoted(text, htmlSafe: htmlSafe, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends ``quoted(_:htmlSafe:)``'s bytes: runs of printable ASCII are copied whole, and
    /// only the bytes around an escape or a non-ASCII scalar are looked at one by one.
    static func appendQuoted(_ text: String, htmlSafe: Bool, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { bytes in
            var i = 0
            var run = 0
            while i < bytes.count {
                let b = bytes[i]
                if b >= 0x20, b < 0x7F, b != UInt8(ascii: "\""), b != UInt8(ascii: "\\"),
                   !(htmlSafe && (b == UInt8(ascii: "<") || b == UInt8(ascii: ">") || b == UInt8(ascii: "&"))) {
                    i += 1
                    continue
                }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run ..< i]))
                if b < 0x80 {
                    switch b {
                    case UInt8(ascii: "\""): out.append(contentsOf: #"\""#.utf8)
                    case UInt8(ascii: "\\"): out.append(contentsOf: #"\\"#.utf8)
                    case 0x08: out.append(contentsOf: #"\b"#.utf8)
                    case 0x09: out.append(contentsOf: #"\t"#.utf8)
                    case 0x0A: out.append(contentsOf: #"\n"#.utf8)
                    case 0x0C: out.append(contentsOf: #"\f"#.utf8)
                    case 0x0D: out.append(contentsOf: #"\r"#.utf8)
                    default: hexEscape(UInt32(b), to: &out)
                    }
                    i += 1
                } else {
                    // A native String is valid UTF-8: the lead byte gives the length.
                    let length = b < 0xE0 ? 2 : b < 0xF0 ? 3 : 4
                    var value = UInt32(b) & (length == 2 ? 0x1F : length == 3 ? 0x0F : 0x07)
                    for k in 1 ..< length { value = value << 6 | UInt32(bytes[i + k] & 0x3F) }
                    if let scalar = Unicode.Scalar(value), TerminalText.needsEscape(scalar) {
                        hexEscape(value, to: &out)
                    } else {
                        out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[i ..< i + length]))
                    }
                    i += length
                }
                run = i
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run ..< i]))
        }
        out.append(UInt8(ascii: "\""))
    }

    /// `\u001b`: four lower-case hexadecimal digits (only called for BMP scalars).
    private static func hexEscape(_ value: UInt32, to out: inout [UInt8]) {
        out.append(contentsOf: #"\u"#.utf8)
        for shift in stride(from: 12, through: 0, by: -4) { out.append(hexDigits[Int(value >> UInt32(shift) & 0xF)]) }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)
}
