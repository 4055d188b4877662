/// Escapes and bracket classes.
extension PatternParser {
    /// What an escape stands for.
    enum EscapeValue {
        /// One scalar (`\t`, `\x41`, `\.`); may be a range endpoint in a class.
        case scalar(UInt32)
        /// A shorthand class (`\d`, `\W`); may not be a range endpoint.
        case set(ScalarSet)
    }

    /// A bracket class `[…]` or `[^…]` at the current `[`.
    ///
    /// `]` right after `[` or `[^` is literal, so is `-` first or last. A range endpoint must
    /// be a single scalar. An unescaped `[` and `&&` are rejected because engines disagree
    /// on them (nested classes, POSIX classes, intersection).
    /// - Returns: the set of scalars the class matches.
    mutating func parseClass() throws(PatternError) -> ScalarSet {
        let open = index
        index += 1
        let negated = consume("^")
        var ranges: [ClosedRange<UInt32>] = []
        var isFirst = true
        while true {
            guard let c = peek else {
                throw error("unterminated character class '\(text(from: open))'; add the missing ']'", at: open)
            }
            if c == "]", !isFirst {
                index += 1
                break
            }
            isFirst = false
            let itemStart = index
            let item = try parseClassItem()
            let hyphenStartsRange = peek == "-" && index + 1 < scalars.count && scalars[index + 1] != "]"
            switch item {
            case .set(let set):
                if hyphenStartsRange {
                    throw error("invalid range '\(text(from: itemStart, to: index + 2))': a class shorthand "
                                + "cannot be a range endpoint; escape a literal hyphen as '\\-'", at: itemStart)
                }
                ranges += set.ranges
            case .scalar(let low) where hyphenStartsRange:
                index += 1
                let high = try parseClassItem()
                let rangeText = text(from: itemStart, to: index)
                guard case .scalar(let highValue) = high else {
                    throw error("invalid range '\(rangeText)': a class shorthand cannot be a range endpoint; "
                                + "escape a literal hyphen as '\\-'", at: itemStart)
                }
                guard low <= highValue else {
                    throw error("range out of order '\(rangeText)' in character class", at: itemStart)
                }
                ranges.append(low...highValue)
                if peek == "-", index + 1 < scalars.count, scalars[index + 1] != "]" {
                    throw error("ambiguous '-' after range '\(rangeText)'; escape a literal hyphen as '\\-'",
                                at: index)
                }
            case .scalar(let value):
                ranges.append(value...value)
            }
        }
        let set = ScalarSet(ranges)
        return negated ? set.inverted() : set
    }

    /// One scalar or escape inside a class.
    private mutating func parseClassItem() throws(PatternError) -> EscapeValue {
        let start = index
        let c = scalars[index]  // callers check that a scalar is left
        let next = index + 1 < scalars.count ? scalars[index + 1] : nil
        switch c {
        case "\\":
            return try parseEscape(inClass: true)
        case "[":
            let detail = next == ":" || next == "=" || next == "." ? "POSIX class" : "nested class"
            throw error("'[' inside a character class is not supported (\(detail) syntax differs between "
                        + "engines); escape a literal bracket as '\\['", at: start)
        case "&" where next == "&":
            throw error("class intersection '&&' is not supported; escape a literal ampersand as '\\&'", at: start)
        default:
            index += 1
            return .scalar(c.value)
        }
    }

    /// An escape at the current `\`.
    /// - Parameter inClass: whether the escape stands inside a bracket class.
    mutating func parseEscape(inClass: Bool) throws(PatternError) -> EscapeValue {
        let start = index
        guard index + 1 < scalars.count else {
            throw error("pattern ends with an incomplete escape '\\'; write '\\\\' for a literal backslash", at: start)
        }
        let c = scalars[index + 1]
        index += 2
        let token = "\\\(c)"
        switch c {
        case "d": return .set(.digit)
        case "D": return .set(ScalarSet.digit.inverted())
        case "w": return .set(.word)
        case "W": return .set(ScalarSet.word.inverted())
        case "s": return .set(.space)
        case "S": return .set(ScalarSet.space.inverted())
        case "t": return .scalar(0x09)
        case "n": return .scalar(0x0A)
        case "v": return .scalar(0x0B)
        case "f": return .scalar(0x0C)
        case "r": return .scalar(0x0D)
        case "x": return .scalar(try parseHexEscape(start: start))
        case "u": return .scalar(try parseHexDigits(count: 4, start: start))
        case "0":
            throw error("octal escape '\\0' is not supported; use '\\x00'", at: start)
        case "1"..."9":
            throw error("backreference '\(token)' is not supported", at: start)
        case "k", "g":
            throw error("backreference '\(token)' is not supported", at: start)
        case "b" where inClass:
            throw error("escape '\\b' is not supported in a character class; use '\\x08' for a backspace",
                        at: start)
        case "b", "B":
            throw error("word boundary '\(token)' is not supported", at: start)
        case "A", "z", "Z", "G":
            throw error("anchor '\(token)' is not supported; a pattern always matches the whole value", at: start)
        case "p", "P":
            var end = index
            if end < scalars.count, scalars[end] == "{" {
                while end < scalars.count, scalars[end] != "}", end - start < 40 { end += 1 }
                end = min(end + 1, scalars.count)
            } else {
                end = min(end + 1, scalars.count)
            }
            throw error("Unicode property '\(text(from: start, to: end))' is not supported; "
                        + "list the ranges instead, such as 'À-ÖØ-öø-ÿ'", at: start)
        case "Q", "E":
            throw error("quoting '\(token)' is not supported; escape each metacharacter with '\\'", at: start)
        default:
            // Any escaped ASCII punctuation or space is that character (PCRE and ICU agree).
            if c.isASCII, c.value >= 0x20, c.value < 0x7F, !PatternParser.isNameScalar(c) {
                return .scalar(c.value)
            }
            throw error("escape '\(token)' is not supported", at: start)
        }
    }

    /// The rest of `\xHH` or `\x{H…}` (1 to 6 hex digits), after the `x`.
    private mutating func parseHexEscape(start: Int) throws(PatternError) -> UInt32 {
        guard consume("{") else { return try parseHexDigits(count: 2, start: start) }
        var value: UInt32 = 0
        var digits = 0
        while let c = peek, let digit = PatternParser.hexValue(c) {
            value = digits < 8 ? value << 4 | digit : UInt32.max
            digits += 1
            index += 1
        }
        guard digits > 0, consume("}") else {
            throw error("invalid hexadecimal escape '\(text(from: start, to: min(index + 1, scalars.count)))'; "
                        + "write '\\x{H…}' with 1 to 6 hex digits", at: start)
        }
        return try validScalar(value, start: start)
    }

    /// Exactly `count` hex digits (`\xHH`, `\uHHHH`).
    private mutating func parseHexDigits(count: Int, start: Int) throws(PatternError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<count {
            guard let c = peek, let digit = PatternParser.hexValue(c) else {
                let form = count == 2 ? "'\\xHH' with 2" : "'\\uHHHH' with 4"
                throw error("invalid hexadecimal escape '\(text(from: start, to: min(index + 1, scalars.count)))'; "
                            + "write \(form) hex digits", at: start)
            }
            value = value << 4 | digit
            index += 1
        }
        return try validScalar(value, start: start)
    }

    /// `value` if it is a Unicode scalar value (not a surrogate, at most U+10FFFF).
    private func validScalar(_ value: UInt32, start: Int) throws(PatternError) -> UInt32 {
        guard Unicode.Scalar(value) != nil else {
            throw error("escape '\(text(from: start, to: index))' is not a valid Unicode scalar value", at: start)
        }
        return value
    }

    /// The value of a hex digit.
    private static func hexValue(_ c: Unicode.Scalar) -> UInt32? {
        switch c {
        case "0"..."9": return c.value - 0x30
        case "a"..."f": return c.value - 0x61 + 10
        case "A"..."F": return c.value - 0x41 + 10
        default: return nil
        }
    }
}
