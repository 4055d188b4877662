/// A decimal number held exactly, at any length: the canonical form of `-?[0-9]+(\.[0-9]+)?`.
///
/// The value is `±0.d₁d₂…dₙ × 10^exponent`, with `d₁` and `dₙ` non-zero (no leading or
/// trailing zeros), so numerically equal texts (`1.0`, `01`, `1.000`) have equal forms and
/// `==`/`<` are the numeric comparisons. Zero has no digits and is never negative (`-0` is 0).
///
/// The engine compares numbers as binary64 doubles where that is exact (see
/// ``isShort``) and falls back to this form where it is not: `0.9999999999999999` is below 1,
/// `100.000000000000000001` is above 100, `9007199254740993` is above `9007199254740992`.
package struct ExactDecimal: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// True for a value below zero.
    public var negative: Bool
    /// The significant digits as ASCII bytes, first and last non-zero; empty for zero.
    public var digits: [UInt8]
    /// The decimal exponent: the value is `0.digits × 10^exponent`.
    public var exponent: Int

    /// Zero.
    public static let zero = ExactDecimal(negative: false, digits: [], exponent: 0)

    init(negative: Bool, digits: [UInt8], exponent: Int) {
        self.negative = negative && !digits.isEmpty
        self.digits = digits
        self.exponent = digits.isEmpty ? 0 : exponent
    }

    /// Parses `-?[0-9]+(\.[0-9]+)?` (the syntax of ``ByteParsers/decimal(_:)``), at any length.
    /// - Returns: `nil` for any other text.
    /// - Complexity: O(n), one allocation for the digits.
    public init?(text p: UnsafeBufferPointer<UInt8>) {
        let n = p.count
        var i = 0
        let negative = n > 0 && p[0] == UInt8(ascii: "-")
        if negative { i = 1 }
        let integerStart = i
        while i < n, p[i] &- 48 <= 9 { i += 1 }
        let point = i
        guard point > integerStart else { return nil }
        var end = n
        if i < n {
            guard p[i] == UInt8(ascii: "."), i + 1 < n else { return nil }
            i += 1
            while i < n, p[i] &- 48 <= 9 { i += 1 }
            guard i == n else { return nil }
        } else {
            end = point
        }
        // The first and the last non-zero digit (skipping the point).
        var first = integerStart
        while first < end, p[first] == UInt8(ascii: "0") || p[first] == UInt8(ascii: ".") { first += 1 }
        guard first < end else {
            self.init(negative: false, digits: [], exponent: 0)
            return
        }
        var last = end - 1
        while p[last] == UInt8(ascii: "0") || p[last] == UInt8(ascii: ".") { last -= 1 }
        var digits = [UInt8]()
        digits.reserveCapacity(last - first + 1)
        for k in first ... last where p[k] != UInt8(ascii: ".") { digits.append(p[k]) }
        // Digits before the point count up; zeros right after the point count down.
        let exponent = first < point ? point - first : -(first - point - 1)
        self.init(negative: negative, digits: digits, exponent: exponent)
    }

    /// Parses a string; see ``init(text:)``.
    public init?(_ text: String) {
        var bytes = Array(text.utf8)
        guard let v = bytes.withUnsafeMutableBufferPointer({ ExactDecimal(text: UnsafeBufferPointer($0)) }) else { return nil }
        self = v
    }

    /// An integer, exactly.
    public init(_ value: Int64) {
        let text = Array(String(value).utf8)
        // `String(Int64)` is always `-?[0-9]+`.
        self = text.withUnsafeBufferPointer { ExactDecimal(text: $0) } ?? .zero
    }

    /// A double by its shortest round-trip decimal form (what SQLite and Python print for a
    /// REAL: `0.1` for the double nearest 0.1), so that a REAL equals the text it was written
    /// from. `nil` for infinities and NaN.
    public init?(_ value: Double) {
        guard value.isFinite else { return nil }
        // Swift prints the shortest round-trip form, as `12.5`, `1e-05` or `1.5e+20`.
        let text = Array(value.description.utf8)
        let e = text.firstIndex(of: UInt8(ascii: "e")) ?? text.count
        guard var mantissa = text[..<e].withUnsafeBufferPointer({ ExactDecimal(text: $0) }) else { return nil }
        if e < text.count, let shift = Int(String(decoding: text[(e + 1)...], as: UTF8.self)), !mantissa.digits.isEmpty {
            mantissa.exponent += shift
        }
        self = mantissa
    }

    /// True when the value has at most 15 significant digits and `digits × 10^k` needs a power
    /// of ten of at most 10^21: its correctly rounded double (``shortDouble``) is then computed
    /// with one rounding, and no two such values share a double (binary64 holds 15 decimal
    /// digits: `DBL_DIG`).
    public var isShort: Bool {
        digits.count <= 15 && abs(exponent - digits.count) <= 21
    }

    /// The correctly rounded double of a value that ``isShort``; `nil` otherwise.
    public var shortDouble: Double? {
        guard isShort else { return nil }
        var m: UInt64 = 0
        for d in digits { m = m * 10 + UInt64(d - 48) }
        let k = exponent - digits.count
        // `m < 10^15` and `10^|k|` (|k| ≤ 21) are exact doubles: one rounding, the correct one.
        let v = k >= 0 ? Double(m) * ByteParsers.powersOfTen[k] : Double(m) / ByteParsers.powersOfTen[-k]
        return negative ? -v : v
    }

    /// -1, 0 or 1 as `a` is below, equal to or above `b`.
    /// - Complexity: O(min(digits)), no allocation.
    public static func compare(_ a: ExactDecimal, _ b: ExactDecimal) -> Int {
        let sa = a.digits.isEmpty ? 0 : a.negative ? -1 : 1
        let sb = b.digits.isEmpty ? 0 : b.negative ? -1 : 1
        if sa != sb { return sa < sb ? -1 : 1 }
        if sa == 0 { return 0 }
        var magnitude = 0
        if a.exponent != b.exponent {
            magnitude = a.exponent < b.exponent ? -1 : 1
        } else {
            let common = min(a.digits.count, b.digits.count)
            for k in 0 ..< common where a.digits[k] != b.digits[k] {
                magnitude = a.digits[k] < b.digits[k] ? -1 : 1
                break
            }
            if magnitude == 0, a.digits.count != b.digits.count { magnitude = a.digits.count < b.digits.count ? -1 : 1 }
        }
        return sa * magnitude
    }

    public static func < (a: ExactDecimal, b: ExactDecimal) -> Bool { compare(a, b) < 0 }

    /// True for a whole number.
    public var isIntegral: Bool { exponent >= digits.count }

    /// The plain decimal text (`-12.5`, `0.001`, `1000`), for messages and tests.
    public var description: String {
        if digits.isEmpty { return "0" }
        var s = negative ? "-" : ""
        let ds = String(decoding: digits, as: UTF8.self)
        if exponent <= 0 {
            s += "0." + String(repeating: "0", count: -exponent) + ds
        } else if exponent >= digits.count {
            s += ds + String(repeating: "0", count: exponent - digits.count)
        } else {
            s += ds.prefix(exponent) + "." + ds.dropFirst(exponent)
        }
        return s
    }

    /// Appends a key that is equal for equal values and different for different ones (sign,
    /// exponent, digit count and digits), for ``KeyTable``.
    func appendKey(to out: inout [UInt8]) {
        out.append(negative ? 1 : 0)
        withUnsafeBytes(of: Int64(exponent).littleEndian) { out.append(contentsOf: $0) }
        withUnsafeBytes(of: UInt32(digits.count).littleEndian) { out.append(contentsOf: $0) }
        out.append(contentsOf: digits)
    }
}

/// A date-time held exactly: seconds since 1970-01-01T00:00:00Z (floor) and the fraction's
/// digits without trailing zeros (`00.500Z` and `00.5Z` are the same instant).
package struct ExactInstant: Sendable, Hashable, Comparable {
    public var seconds: Int64
    /// ASCII digits of the fraction of a second, no trailing zeros; empty for a whole second.
    public var fraction: [UInt8]

    public init(seconds: Int64, fraction: [UInt8]) {
        self.seconds = seconds
        var f = fraction
        while f.last == UInt8(ascii: "0") { f.removeLast() }
        self.fraction = f
    }

    /// Parses the forms of ``ByteParsers/datetime(_:)``; `nil` for any other text.
    public init?(text p: UnsafeBufferPointer<UInt8>) {
        guard let parts = ByteParsers.datetimeParts(p) else { return nil }
        self.init(seconds: parts.seconds, fraction: Array(p[parts.fraction]))
    }

    public static func < (a: ExactInstant, b: ExactInstant) -> Bool {
        if a.seconds != b.seconds { return a.seconds < b.seconds }
        // Both fractions lack trailing zeros, so digit order is numeric order.
        return a.fraction.lexicographicallyPrecedes(b.fraction)
    }
}
