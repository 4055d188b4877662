/// One token of an expression, with the byte offset of its first character in the source.
struct ExpressionToken: Sendable, Equatable {
    enum Kind: Sendable, Equatable {
        case number(Double)
        case string(String)
        /// A plain identifier (attribute or function name); keywords are separate kinds.
        case name(String)
        /// A backquoted name: always an attribute, never a keyword or function.
        case quotedName(String)
        case keyword(Keyword)
        case symbol(Symbol)
        case end
    }

    enum Keyword: String, Sendable, CaseIterable {
        case and, or, not, `in`, between, `true`, `false`, null
    }

    enum Symbol: String, Sendable {
        case leftParen = "(", rightParen = ")", leftBracket = "[", rightBracket = "]", comma = ","
        case plus = "+", minus = "-", star = "*", slash = "/", percent = "%"
        case equal = "==", notEqual = "!=", less = "<", lessEqual = "<=", greater = ">", greaterEqual = ">="
    }

    var kind: Kind
    /// Byte offset of the token's first character in the UTF-8 source.
    var offset: Int
}

/// Splits expression source text into tokens.
///
/// Works on UTF-8 bytes. Errors carry the byte offset of the offending character; the
/// compiler turns offsets into `file:line:column`.
struct ExpressionLexer {
    struct Failure: Error {
        var offset: Int
        var message: String
    }

    private let bytes: [UInt8]
    private var i = 0

    init(_ source: String) {
        bytes = Array(source.utf8)
    }

    /// All tokens, ending with `.end`.
    /// - Throws: ``Failure`` at the first character that cannot start or continue a token.
    mutating func tokenize() throws(Failure) -> [ExpressionToken] {
        var tokens = [ExpressionToken]()
        while true {
            skipSpace()
            guard i < bytes.count else {
                tokens.append(ExpressionToken(kind: .end, offset: bytes.count))
                return tokens
            }
            let start = i
            tokens.append(ExpressionToken(kind: try token(), offset: start))
        }
    }

    private mutating func skipSpace() {
        while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x09 || bytes[i] == 0x0A || bytes[i] == 0x0D {
            i += 1
        }
    }

    private func peek(_ k: Int = 0) -> UInt8 { i + k < bytes.count ? bytes[i + k] : 0 }

    private static func isNameStart(_ b: UInt8) -> Bool {
        (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x5F
    }

    private static func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }

    private mutating func token() throws(Failure) -> ExpressionToken.Kind {
        let b = bytes[i]
        if Self.isDigit(b) || (b == 0x2E && Self.isDigit(peek(1))) { return try number() }
        if (b == 0x72 || b == 0x52), peek(1) == 0x22 || peek(1) == 0x27 {   // r"..." raw string
            i += 1
            return .string(try string(raw: true))
        }
        if Self.isNameStart(b) {
            let start = i
            while i < bytes.count, Self.isNameStart(bytes[i]) || Self.isDigit(bytes[i]) { i += 1 }
            let word = String(decoding: bytes[start ..< i], as: UTF8.self)
            if let k = ExpressionToken.Keyword(rawValue: word) { return .keyword(k) }
            // `previous.salary`: the value in the previous snapshot (one name; `.` is no operator).
            if word == LifecycleInput.previousWord, peek() == 0x2E, Self.isNameStart(peek(1)) || peek(1) == 0x60 {
                i += 1
                if peek() == 0x60 { return .name(LifecycleInput.previousName(try quotedName())) }
                let s = i
                while i < bytes.count, Self.isNameStart(bytes[i]) || Self.isDigit(bytes[i]) { i += 1 }
                return .name(LifecycleInput.previousName(String(decoding: bytes[s ..< i], as: UTF8.self)))
            }
            return .name(word)
        }
        switch b {
        case 0x22, 0x27: return .string(try string(raw: false))
        case 0x60: return .quotedName(try quotedName())
        case 0x28: return symbol(.leftParen, 1)
        case 0x29: return symbol(.rightParen, 1)
        case 0x5B: return symbol(.leftBracket, 1)
        case 0x5D: return symbol(.rightBracket, 1)
        case 0x2C: return symbol(.comma, 1)
        case 0x2B: return symbol(.plus, 1)
        case 0x2D: return symbol(.minus, 1)
        case 0x2A: return symbol(.star, 1)
        case 0x2F: return symbol(.slash, 1)
        case 0x25: return symbol(.percent, 1)
        case 0x3D:   // =
            if peek(1) == 0x3D { return symbol(.equal, 2) }
            throw Failure(offset: i, message: "'=' is not an operator; use '==' to compare")
        case 0x21:   // !
            if peek(1) == 0x3D { return symbol(.notEqual, 2) }
            throw Failure(offset: i, message: "'!' is not an operator; use 'not'")
        case 0x3C:   // <
            if peek(1) == 0x3D { return symbol(.lessEqual, 2) }
            if peek(1) == 0x3E { throw Failure(offset: i, message: "'<>' is not an operator; use '!='") }
            return symbol(.less, 1)
        case 0x3E:
            if peek(1) == 0x3D { return symbol(.greaterEqual, 2) }
            return symbol(.greater, 1)
        case 0x26 where peek(1) == 0x26:
            throw Failure(offset: i, message: "'&&' is not an operator; use 'and'")
        case 0x7C where peek(1) == 0x7C:
            throw Failure(offset: i, message: "'||' is not an operator; use 'or'")
        default:
            var m = "unexpected character '\(scalar(at: i))'"
            if b >= 0x80 { m += "; write a name with other characters in backquotes, e.g. `Straße`" }
            throw Failure(offset: i, message: m)
        }
    }

    private mutating func symbol(_ s: ExpressionToken.Symbol, _ width: Int) -> ExpressionToken.Kind {
        i += width
        return .symbol(s)
    }

    /// The Unicode scalar starting at byte `k` (for messages).
    private func scalar(at k: Int) -> String {
        var end = k + 1
        while end < bytes.count, bytes[end] & 0xC0 == 0x80 { end += 1 }
        return String(decoding: bytes[k ..< end], as: UTF8.self)
    }

    /// `[0-9]+(\.[0-9]+)?([eE][+-]?[0-9]+)?`, or `.5`.
    private mutating func number() throws(Failure) -> ExpressionToken.Kind {
        let start = i
        while i < bytes.count, Self.isDigit(bytes[i]) { i += 1 }
        if peek() == 0x2E {
            i += 1
            guard Self.isDigit(peek()) else {
                throw Failure(offset: start, message: "invalid number '\(String(decoding: bytes[start ..< i], as: UTF8.self))'; write digits after the '.'")
            }
            while i < bytes.count, Self.isDigit(bytes[i]) { i += 1 }
        }
        if peek() == 0x65 || peek() == 0x45 {
            var k = 1
            if peek(1) == 0x2B || peek(1) == 0x2D { k = 2 }
            if Self.isDigit(peek(k)) {
                i += k
                while i < bytes.count, Self.isDigit(bytes[i]) { i += 1 }
            }
        }
        if i < bytes.count, Self.isNameStart(bytes[i]) {
            while i < bytes.count, Self.isNameStart(bytes[i]) || Self.isDigit(bytes[i]) { i += 1 }
            throw Failure(offset: start, message: "invalid number '\(String(decoding: bytes[start ..< i], as: UTF8.self))'")
        }
        let text = String(decoding: bytes[start ..< i], as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            throw Failure(offset: start, message: "invalid number '\(text)'")
        }
        // Expression numbers are doubles: refuse a literal a double cannot tell from its
        // neighbours (more than 15 significant digits, unless an integer up to 2^53), rather
        // than compare with a rounded value.
        let mantissa = text.prefix { $0 != "e" && $0 != "E" }.filter { $0 != "." }.drop { $0 == "0" }
        let significant = mantissa.count - mantissa.reversed().prefix { $0 == "0" }.count
        let exactInteger = Int64(text).map { $0 <= 1 << 53 } ?? false
        guard significant <= 15 || exactInteger else {
            throw Failure(offset: start, message: "number '\(text)' has \(significant) significant digits; expressions compute "
                + "with 64-bit doubles, which hold 15 exactly; use min/max/enum on the attribute for exact bounds")
        }
        return .number(value)
    }

    /// A string in `"` or `'`; escapes `\\ \" \' \n \t \r \0 \u{…}` unless raw.
    private mutating func string(raw: Bool) throws(Failure) -> String {
        let quote = bytes[i]
        let start = raw ? i - 1 : i
        i += 1
        var out = [UInt8]()
        while true {
            guard i < bytes.count else {
                let q = quote == 0x22 ? "\"" : "'"
                throw Failure(offset: start, message: "unterminated string; add the closing \(q)")
            }
            let b = bytes[i]
            if b == quote {
                i += 1
                return String(decoding: out, as: UTF8.self)
            }
            if b == 0x5C, !raw {
                out += try escape()
                continue
            }
            out.append(b)
            i += 1
        }
    }

    private mutating func escape() throws(Failure) -> [UInt8] {
        let at = i
        guard at + 1 < bytes.count else {   // a trailing backslash: the caller reports the unterminated string
            i = bytes.count
            return []
        }
        i += 2
        switch bytes[at + 1] {
        case 0x5C: return [0x5C]
        case 0x22: return [0x22]
        case 0x27: return [0x27]
        case 0x6E: return [0x0A]
        case 0x74: return [0x09]
        case 0x72: return [0x0D]
        case 0x30: return [0x00]
        case 0x75 where peek() == 0x7B:   // \u{1F600}
            i += 1
            var value: UInt32 = 0
            var digits = 0
            while i < bytes.count, bytes[i] != 0x7D, digits < 8, let h = Self.hex(bytes[i]) {
                value = value * 16 + h
                digits += 1
                i += 1
            }
            guard peek() == 0x7D, digits > 0, let s = Unicode.Scalar(value) else {
                throw Failure(offset: at, message: "invalid escape '\\u{…}'; write 1 to 6 hexadecimal digits of a Unicode scalar, e.g. '\\u{E9}'")
            }
            i += 1
            return Array(String(Character(s)).utf8)
        default:
            let shown = scalar(at: at + 1)
            throw Failure(offset: at, message: "unknown escape '\\\(shown)' in a string; write '\\\\\(shown)' or use a raw string r\"...\"")
        }
    }

    private static func hex(_ b: UInt8) -> UInt32? {
        switch b {
        case 0x30 ... 0x39: return UInt32(b - 0x30)
        case 0x41 ... 0x46: return UInt32(b - 0x41 + 10)
        case 0x61 ... 0x66: return UInt32(b - 0x61 + 10)
        default: return nil
        }
    }

    /// `` `any name` ``; a backquote inside is written twice.
    private mutating func quotedName() throws(Failure) -> String {
        let start = i
        i += 1
        var out = [UInt8]()
        while true {
            guard i < bytes.count else {
                throw Failure(offset: start, message: "unterminated name; add the closing '`'")
            }
            if bytes[i] == 0x60 {
                if peek(1) == 0x60 {
                    out.append(0x60)
                    i += 2
                    continue
                }
                i += 1
                guard !out.isEmpty else { throw Failure(offset: start, message: "empty name '``'") }
                return String(decoding: out, as: UTF8.self)
            }
            out.append(bytes[i])
            i += 1
        }
    }
}
