import Auditor

/// The numbers of a `decimalComma:` column (``CSVOptions/decimalComma``), rewritten in place
/// in the read buffer as the auditor reads numbers: `12,50` → `12.50`, `1.234,5` → `1234.5`,
/// `1.234` → `1234`; and of a `thousandsComma:` column (``CSVOptions/thousandsComma``):
/// `1,234.50` → `1234.50`. Only the text changes, and only to get shorter, so the rewrite is
/// exact (no digit is lost or rounded) and needs no copy.
enum CSVDecimalComma {
    /// How a column writes its numbers.
    enum Style: Sendable, Equatable {
        /// `1.234,50`: `.` between groups of three digits, `,` before the fraction.
        case decimalComma
        /// `1,234.50`: `,` between groups of three digits, `.` before the fraction.
        case thousandsComma

        var grouping: UInt8 { self == .decimalComma ? UInt8(ascii: ".") : UInt8(ascii: ",") }
        var decimal: UInt8 { self == .decimalComma ? UInt8(ascii: ",") : UInt8(ascii: ".") }
    }

    enum Outcome: Equatable {
        /// Not a number of this form (`7`, `abc`, `12,5x`): the text is left as it is.
        case unchanged
        /// The number with a decimal point and no grouping, in the first `length` bytes.
        case rewritten(length: Int)
        /// A number written with a decimal point (`1.5`, `3.25`): left as it is, and reported.
        case decimalPoint
    }

    /// Rewrites `[p, p + length)` when it is `[+-]` then digits, or 1 to 3 digits followed by
    /// groups of the grouping character and three digits, then optionally the decimal one and
    /// digits (`style`'s; `.decimalPoint` is only a `decimalComma` column's outcome).
    /// - Complexity: O(length).
    static func rewrite(_ p: UnsafeMutablePointer<UInt8>, length n: Int, style: Style = .decimalComma) -> Outcome {
        let grouping = style.grouping, decimal = style.decimal
        func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }
        var i = 0
        if n > 0, p[0] == UInt8(ascii: "+") || p[0] == UInt8(ascii: "-") { i = 1 }
        let signEnd = i
        // Digits, and grouping marks between groups of three (the first group 1 to 3 digits).
        var group = 0, groups = 0, grouped = true
        while i < n, isDigit(p[i]) || p[i] == grouping {
            if p[i] == grouping {
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
        if i < n, p[i] == decimal {
            i += 1
            let start = i
            while i < n, isDigit(p[i]) { i += 1 }
            fraction = start ..< i
        }
        let matches = i == n && integerEnd > signEnd && grouped && fraction.map { !$0.isEmpty } ?? true
        guard matches else {
            guard style == .decimalComma else { return .unchanged }
            // A number written the other way: only digits, signs, points, commas and exponents, with a point.
            var point = false, digit = false
            for k in 0 ..< n {
                let b = p[k]
                if b == UInt8(ascii: ".") { point = true } else if isDigit(b) { digit = true }
                guard isDigit(b) || b == grouping || b == decimal || b == UInt8(ascii: "+") || b == UInt8(ascii: "-")
                    || b == UInt8(ascii: "e") || b == UInt8(ascii: "E") else { return .unchanged }
            }
            return point && digit ? .decimalPoint : .unchanged
        }
        guard groups > 0 || fraction != nil else { return .unchanged }
        // Write behind the read position: the text only loses its grouping marks.
        var w = signEnd
        for k in signEnd ..< integerEnd where p[k] != grouping {
            p[w] = p[k]
            w += 1
        }
        if let fraction {
            p[w] = UInt8(ascii: ".")
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
    /// The columns of `chunk` whose values are numbers written in `style`, for `auditor profile`
    /// to read them so (``ReaderFactory`` `columnReadings`): at least 90 % of the present values
    /// are such numbers or integers, and some has a comma that tells the style. With a decimal
    /// comma: a comma followed by other than three digits, or after grouping dots (`1,234`
    /// alone may be a thousand written with a grouping comma). With grouping commas: two commas,
    /// or a point after one (`1,234,567`, `1,234.5`). The others are the profile's outliers.
    static func columns(of chunk: RecordChunk, names: [String], style: Style = .decimalComma) -> [String] {
        var found = [String]()
        let comma = UInt8(ascii: ","), point = UInt8(ascii: ".")
        for (c, column) in chunk.columns.enumerated() where c < names.count {
            var present = 0, numbers = 0, commas = 0, unambiguous = 0
            var buffer = [UInt8]()
            for cell in column where cell.tag == .text {
                present += 1
                guard cell.length > 0 else { continue }
                buffer.removeAll(keepingCapacity: true)
                buffer.append(contentsOf: chunk.bytes[Int(cell.payload) ..< Int(cell.payload) + Int(cell.length)])
                // Before the rewrite changes it: the commas, and the points before and after the first.
                let first = buffer.firstIndex(of: comma)
                let tells = first.map { at in
                    style == .decimalComma ? buffer.count - at - 1 != 3 || buffer[..<at].contains(point)
                        : buffer.count { $0 == comma } >= 2 || buffer[at...].contains(point)
                } ?? false
                let signs = buffer.prefix { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-") }.count
                let integer = signs <= 1 && signs < buffer.count && buffer.dropFirst(signs).allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
                switch buffer.withUnsafeMutableBufferPointer({ rewrite($0.baseAddress!, length: $0.count, style: style) }) {
                case .decimalPoint:
                    break
                case .rewritten:
                    numbers += 1
                    if first != nil {
                        commas += 1
                        if tells { unambiguous += 1 }
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
