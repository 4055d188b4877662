#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Auditor

/// The tokens of ``JSONLLineParser``: white space, literals, numbers and strings, each checked
/// against RFC 8259 as it is passed.
extension JSONLLineParser {
    @inline(__always)
    mutating func skipSpace() {
        while i < end {
            let b = p[i]
            guard b == 0x20 || b == 0x09 || b == 0x0D else { return }
            i += 1
        }
    }

    mutating func literal(_ word: StaticString) -> Bool {
        let n = word.utf8CodeUnitCount
        if end - i >= n, memcmp(p + i, word.utf8Start, n) == 0 {
            i += n
            return true
        }
        return fail(expecting: "a value")
    }

    /// Checks a number against the JSON grammar.
    mutating func scanNumber() -> (start: Int, end: Int)? {
        let start = i
        if p[i] == UInt8(ascii: "-") { i += 1 }
        guard i < end, p[i] &- 48 < 10 else { _ = fail("a number needs a digit after '-'"); return nil }
        if p[i] == UInt8(ascii: "0") {
            i += 1
        } else {
            while i < end, p[i] &- 48 < 10 { i += 1 }
        }
        if i < end, p[i] == UInt8(ascii: ".") {
            i += 1
            guard i < end, p[i] &- 48 < 10 else { _ = fail("a number needs a digit after '.'"); return nil }
            while i < end, p[i] &- 48 < 10 { i += 1 }
        }
        if i < end, p[i] | 0x20 == UInt8(ascii: "e") {
            i += 1
            if i < end, p[i] == UInt8(ascii: "+") || p[i] == UInt8(ascii: "-") { i += 1 }
            guard i < end, p[i] &- 48 < 10 else { _ = fail("a number needs a digit in its exponent"); return nil }
            while i < end, p[i] &- 48 < 10 { i += 1 }
        }
        return (start, i)
    }

    /// Checks a string (escapes, control characters, UTF-8) and moves past its closing quote.
    /// - Returns: The bytes between the quotes, and whether they hold escapes.
    mutating func scanString() -> (start: Int, end: Int, escaped: Bool)? {
        i += 1
        let start = i
        var escaped = false
        while i < end {
            // Eight bytes at a time while none is a quote, a backslash, a control byte or non-ASCII;
            // then straight to the first one that is.
            while end - i >= 8 {
                let w = UnsafeRawPointer(p + i).loadUnaligned(as: UInt64.self)
                let ones: UInt64 = 0x0101_0101_0101_0101
                let high: UInt64 = 0x8080_8080_8080_8080
                let quote = w ^ (ones &* 0x22)
                let slash = w ^ (ones &* 0x5C)
                let special = ((quote &- ones) & ~quote) | ((slash &- ones) & ~slash) | (w &- ones &* 0x20) | w
                if special & high != 0 {
                    // The lowest flagged byte is a real one (borrows only flag bytes above it).
                    i += (special & high).trailingZeroBitCount >> 3
                    break
                }
                i += 8
            }
            guard i < end else { break }
            let b = p[i]
            if b == UInt8(ascii: "\"") {
                let stop = i
                i += 1
                return (start, stop, escaped)
            }
            if b == UInt8(ascii: "\\") {
                escaped = true
                guard scanEscape() else { return nil }
            } else if b < 0x20 {
                _ = fail("\(Self.describe(b)) must be escaped inside a string (a control character)")
                return nil
            } else if b >= 0x80 {
                let n = Self.utf8Length(p, i, end)
                guard n > 0 else {
                    problem = .encoding(at: i, reason: "the byte \(Self.hex(b)) does not continue valid UTF-8")
                    return nil
                }
                i += n
            } else {
                i += 1
            }
        }
        problem = .malformed(at: start - 1, reason: "the string that starts here is never closed: the line ends inside it")
        return nil
    }

    /// Checks the escape at `i` and moves past it (a surrogate pair counts as one).
    mutating func scanEscape() -> Bool {
        guard i + 1 < end else { return fail("the line ends inside an escape") }
        switch p[i + 1] {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
             UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            i += 2
            return true
        case UInt8(ascii: "u"):
            guard let unit = hex4(i + 2) else { return fail("'\\u' needs four hexadecimal digits") }
            if unit >= 0xDC00, unit <= 0xDFFF {
                problem = .encoding(at: i, reason: "the escape \\u\(Self.hex4Text(unit)) is a lone low surrogate, not a character")
                return false
            }
            if unit >= 0xD800, unit <= 0xDBFF {
                guard i + 7 < end, p[i + 6] == UInt8(ascii: "\\"), p[i + 7] == UInt8(ascii: "u"),
                      let low = hex4(i + 8), low >= 0xDC00, low <= 0xDFFF else {
                    problem = .encoding(at: i, reason: "the escape \\u\(Self.hex4Text(unit)) is a high surrogate without its low half, not a character")
                    return false
                }
                i += 12
                return true
            }
            i += 6
            return true
        default:
            return fail("a backslash followed by \(Self.describe(p[i + 1])) is not a JSON escape (\\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)")
        }
    }

    func hex4(_ at: Int) -> UInt32? {
        Self.hex4(p, at, end)
    }

    /// The four hexadecimal digits at `at`, or nil.
    static func hex4(_ p: UnsafePointer<UInt8>, _ at: Int, _ end: Int) -> UInt32? {
        guard at + 4 <= end else { return nil }
        var v: UInt32 = 0
        for k in at ..< at + 4 {
            let b = p[k]
            let d: UInt8
            switch b {
            case UInt8(ascii: "0") ... UInt8(ascii: "9"): d = b - 48
            case UInt8(ascii: "a") ... UInt8(ascii: "f"): d = b - 87
            case UInt8(ascii: "A") ... UInt8(ascii: "F"): d = b - 55
            default: return nil
            }
            v = v << 4 | UInt32(d)
        }
        return v
    }

    /// Unescapes a checked string `[start, stop)` into `out`.
    ///
    /// Static, with the bytes passed in: an instance method called with `&bytes` (a stored
    /// property) would copy `self` for the call, so that `bytes` is no longer uniquely
    /// referenced and every append copies the whole chunk buffer (measured: 9 % of a run).
    static func decode(_ p: UnsafePointer<UInt8>, _ start: Int, _ stop: Int, into out: inout [UInt8]) {
        var k = start
        var run = start
        while k < stop {
            guard p[k] == UInt8(ascii: "\\") else {
                k += 1
                continue
            }
            out.append(contentsOf: UnsafeBufferPointer(start: p + run, count: k - run))
            let e = p[k + 1]
            switch e {
            case UInt8(ascii: "b"): out.append(8)
            case UInt8(ascii: "f"): out.append(12)
            case UInt8(ascii: "n"): out.append(10)
            case UInt8(ascii: "r"): out.append(13)
            case UInt8(ascii: "t"): out.append(9)
            case UInt8(ascii: "u"):
                var scalar = hex4(p, k + 2, stop) ?? 0xFFFD
                if scalar >= 0xD800, scalar <= 0xDBFF {
                    let low = hex4(p, k + 8, stop) ?? 0xDC00
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    k += 6
                }
                Self.appendUTF8(scalar, to: &out)
                k += 4
            default: out.append(e)  // " \ /
            }
            k += 2
            run = k
        }
        out.append(contentsOf: UnsafeBufferPointer(start: p + run, count: stop - run))
    }
}
