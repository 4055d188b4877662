import Auditor

/// The numbers of a `decimalComma:` column (``CSVOptions/decimalComma``), rewritten in place
/// in the read buffer as the auditor reads numbers: `12,50` → `12.50`, `1.234,5` → `1234.5`,
/// `1.234` → `1234`. Only the text changes, and only to get shorter, so the rewrite is exact
/// (no digit is lost or rounded) and needs no copy.
enum CSVDecimalComma {
    enum Outcome: Equatable {
        /// Not a number of this form (`7`, `abc`, `12,5x`): the text is left as it is.
        case unchanged
        /// The number with a decimal point and no grouping, in the first `length` bytes.
        case rewritten(length: Int)
        /// A number written with a decimal point (`1.5`, `3.25`): left as it is, and reported.
        case decimalPoint
    }

    /// Rewrites `[p, p + length)` when it is `[+-]` then digits, or 1 to 3 digits followed by
    /// groups of `.` and three digits, then optionally `,` and digits.
    /// - Complexity: O(length).
    static func rewrite(_ p: UnsafeMutablePointer<UInt8>, length n: Int) -> Outcome {
        let dot = UInt8(ascii: "."), comma = UInt8(ascii: ",")
        func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }
        var i = 0
        if n > 0, p[0] == UInt8(ascii: "+") || p[0] == UInt8(ascii: "-") { i = 1 }
        let signEnd = i
        // Digits, and dots between groups of three (the first group 1 to 3 digits).
        var group = 0, groups = 0, grouped = true
        while i < n, isDigit(p[i]) || p[i] == dot {
            if p[i] == dot {
                if group == 0 || group > 3 && groups == 0 || group != 3 && groups > 0 { grouped = false }
                groups += 1
                group = 0
            } else {
                group += 1
            }
            i += 1
        }
        if groups > 0, group != 3 { grouped = false }
        let integerEnd = i
        var fraction: Range<Int>?
        if i < n, p[i] == comma {
            i += 1
            let start = i
            while i < n, isDigit(p[i]) { i += 1 }
            fraction = start ..< i
        }
        let matches = i == n && integerEnd > signEnd && grouped && fraction.map { !$0.isEmpty } ?? true
        guard matches else {
            // A number written the other way: only digits, signs, points, commas and exponents, with a point.
            var point = false, digit = false
            for k in 0 ..< n {
                let b = p[k]
                if b == dot { point = true } else if isDigit(b) { digit = true }
                guard isDigit(b) || b == dot || b == comma || b == UInt8(ascii: "+") || b == UInt8(ascii: "-")
                    || b == UInt8(ascii: "e") || b == UInt8(ascii: "E") else { return .unchanged }
            }
            return point && digit ? .decimalPoint : .unchanged
        }
        guard groups > 0 || fraction != nil else { return .unchanged }
        // Write behind the read position: the text only loses its dots.
        var w = signEnd
        for k in signEnd ..< integerEnd where p[k] != dot {
            p[w] = p[k]
            w += 1
        }
        if let fraction {
            p[w] = dot
            w += 1
            for k in fraction {
                p[w] = p[k]
                w += 1
            }
        }
        return .rewritten(length: w)
    }
}

extension CSVDecimalComma {
    /// The columns of `chunk` whose values are numbers written with a decimal comma, for
    /// `auditor profile` to read them so (``ReaderFactory`` `columnReadings`): at least 90 %
    /// of the present values are such numbers or integers, and some has a decimal comma followed
    /// by other than three digits or after grouping dots (`1,234` alone may be a thousand
    /// written with a grouping comma). The others are the profile's outliers.
    static func columns(of chunk: RecordChunk, names: [String]) -> [String] {
        var found = [String]()
        for (c, column) in chunk.columns.enumerated() where c < names.count {
            var present = 0, numbers = 0, commas = 0, unambiguous = 0
            var buffer = [UInt8]()
            for cell in column where cell.tag == .text {
                present += 1
                guard cell.length > 0 else { continue }
                buffer.removeAll(keepingCapacity: true)
                buffer.append(contentsOf: chunk.bytes[Int(cell.payload) ..< Int(cell.payload) + Int(cell.length)])
                // Before the rewrite changes it: where the comma is, and whether dots group the digits before it.
                let comma = buffer.firstIndex(of: UInt8(ascii: ","))
                let grouped = comma.map { buffer[..<$0].contains(UInt8(ascii: ".")) } ?? false
                let fractionDigits = comma.map { buffer.count - $0 - 1 } ?? 0
                let signs = buffer.prefix { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-") }.count
                let integer = signs <= 1 && signs < buffer.count && buffer.dropFirst(signs).allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
                switch buffer.withUnsafeMutableBufferPointer({ rewrite($0.baseAddress!, length: $0.count) }) {
                case .decimalPoint:
                    break
                case .rewritten:
                    numbers += 1
                    if comma != nil {
                        commas += 1
                        if fractionDigits != 3 || grouped { unambiguous += 1 }
                    }
                case .unchanged:
                    if integer { numbers += 1 }
                }
            }
            if commas > 0, unambiguous > 0, numbers * 10 >= present * 9 { found.append(names[c]) }
        }
        return found
    }
}
