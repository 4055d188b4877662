import Auditor

/// JSON numbers judged by their value (README "JSON Lines"): the literal is read exactly, as
/// a sign, a significand of decimal digits and a power of ten, never through a `Double`.
///
/// - An integral value in Int64's range (`12`, `-0`, `12.0`, `1e3`, `1.5e1`) becomes an
///   `.integer` cell: an `integer` rule accepts it, a `decimal` rule compares it exactly.
/// - Every other value becomes `.text` in plain decimal notation without an exponent or
///   redundant zeros (`12.5`, `0.001` for `1e-3`, `12345678901234567890` for `1.2345678901234567890e19`),
///   which the text formats' decimal parser then reads exactly: an `integer` rule rejects
///   `12.5` and accepts the 20-digit integer (as it accepts that text in a CSV), a `decimal`
///   rule compares `0.1` as one tenth.
/// - A value whose plain notation would exceed ``maxPlainDigits`` digits (`1e400000`) is
///   kept as written; numeric rules then reject it.
enum JSONLNumber {
    /// The longest plain notation written out (digits, before sign and point).
    static let maxPlainDigits = 400

    /// The cell for a JSON number literal that the scanner checked against the JSON grammar.
    /// - Parameters:
    ///   - p: The literal's bytes (`-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`).
    ///   - bytes: The chunk's byte buffer, where a text form is appended.
    /// - Returns: An `.integer` or `.text` cell.
    /// - Complexity: O(length of the literal) plus O(``maxPlainDigits``) for a written-out text.
    static func cell(_ p: UnsafeBufferPointer<UInt8>, appendingTo bytes: inout [UInt8]) -> Cell {
        var i = 0
        let n = p.count
        let negative = n > 0 && p[0] == UInt8(ascii: "-")
        if negative { i = 1 }
        // Fast path: a plain integer of at most 18 digits.
        var value: Int64 = 0
        var j = i
        while j < n, j - i < 18, p[j] &- 48 < 10 {
            value = value &* 10 &+ Int64(p[j] &- 48)
            j += 1
        }
        if j == n, j > i { return .integer(negative ? -value : value) }
        return general(p, negative: negative, from: i, appendingTo: &bytes)
    }

    /// ``cell(_:appendingTo:)`` for every literal.
    private static func general(_ p: UnsafeBufferPointer<UInt8>, negative: Bool, from start: Int,
                                appendingTo bytes: inout [UInt8]) -> Cell {
        let n = p.count
        var digits = [UInt8]()
        var i = start
        var fractionDigits = 0
        var inFraction = false
        while i < n {
            let b = p[i]
            if b &- 48 < 10 {
                if !(digits.isEmpty && b == 48) { digits.append(b) }   // leading zeros dropped
                if inFraction { fractionDigits += 1 }
            } else if b == UInt8(ascii: ".") {
                inFraction = true
            } else {
                break
            }
            i += 1
        }
        var exponent = 0
        if i < n {  // [eE][+-]?[0-9]+
            i += 1
            var expNegative = false
            if i < n, p[i] == UInt8(ascii: "-") || p[i] == UInt8(ascii: "+") {
                expNegative = p[i] == UInt8(ascii: "-")
                i += 1
            }
            var e = 0
            while i < n {
                if e < 1_000_000_000 { e = e * 10 + Int(p[i] &- 48) }
                i += 1
            }
            exponent = expNegative ? -e : e
        }
        if digits.isEmpty { return .integer(0) }
        exponent -= fractionDigits
        while let last = digits.last, last == 48 {
            digits.removeLast()
            exponent += 1
        }
        // value = digits × 10^exponent
        if exponent >= 0, digits.count + exponent <= 19 {
            var v: Int64 = 0
            var overflow = false
            for d in digits {
                let (m, o1) = v.multipliedReportingOverflow(by: 10)
                let (s, o2) = m.addingReportingOverflow(Int64(d &- 48))
                v = s
                overflow = overflow || o1 || o2
            }
            for _ in 0 ..< exponent where !overflow {
                let (m, o) = v.multipliedReportingOverflow(by: 10)
                v = m
                overflow = o
            }
            if !overflow { return .integer(negative ? -v : v) }
            // Int64.min is the one negative value whose magnitude overflows: kept as text.
        }
        let offset = bytes.count
        let plainDigits = exponent >= 0 ? digits.count + exponent : max(digits.count, -exponent)
        if plainDigits > maxPlainDigits || exponent < -maxPlainDigits {
            bytes.append(contentsOf: p)
            return .text(offset: offset, length: bytes.count - offset)
        }
        if negative { bytes.append(UInt8(ascii: "-")) }
        if exponent >= 0 {
            bytes.append(contentsOf: digits)
            bytes.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: exponent))
        } else {
            let integerDigits = digits.count + exponent
            if integerDigits > 0 {
                bytes.append(contentsOf: digits[..<integerDigits])
                bytes.append(UInt8(ascii: "."))
                bytes.append(contentsOf: digits[integerDigits...])
            } else {
                bytes.append(UInt8(ascii: "0"))
                bytes.append(UInt8(ascii: "."))
                bytes.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: -integerDigits))
                bytes.append(contentsOf: digits)
            }
        }
        return .text(offset: offset, length: bytes.count - offset)
    }
}
