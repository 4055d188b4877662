import Auditor

/// The order of a `dateFormat:` column's dates (``CSVOptions/dateFormats``): `DD`, `MM` and
/// `YYYY` in any order with one of `.`, `/`, `-` between them (`DD.MM.YYYY`, `MM/DD/YYYY`). A
/// value written so is rewritten in place as the auditor reads dates, `YYYY-MM-DD`: the same
/// ten bytes, moved, so nothing is lost. Other values are left as they are, for a `type: date`
/// rule to report.
struct CSVDateFormat: Sendable, Equatable {
    /// As written in the options (`DD.MM.YYYY`).
    let text: String
    let separator: UInt8
    /// Where the year (four digits), the month and the day (two each) start in a value, and
    /// where the separators are.
    let year: Int, month: Int, day: Int
    let separators: [Int]

    /// What a format may be, for messages.
    static let accepted = "DD, MM and YYYY in any order, with one of . / - between them (DD.MM.YYYY, MM/DD/YYYY, DD-MM-YYYY)"

    /// - Returns: nil when `text` is not such a format.
    init?(_ text: String) {
        guard let separator = text.utf8.first(where: { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "-") })
        else { return nil }
        let parts = text.split(separator: Character(Unicode.Scalar(separator)), omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3, Set(parts) == ["DD", "MM", "YYYY"] else { return nil }
        var offsets = [String: Int](), at = 0
        for part in parts {
            offsets[part] = at
            at += part.count + 1
        }
        separators = [parts[0].count, parts[0].count + 1 + parts[1].count]
        self.text = text
        self.separator = separator
        year = offsets["YYYY"]!
        month = offsets["MM"]!
        day = offsets["DD"]!
    }

    /// Rewrites `[p, p + length)` to `YYYY-MM-DD` when it is a date in this order.
    /// - Returns: Whether it was.
    /// - Complexity: O(1), no allocation (it runs on every value of the column).
    func rewrite(_ p: UnsafeMutablePointer<UInt8>, length: Int) -> Bool {
        guard length == 10 else { return false }
        for i in 0 ..< 10 {
            let b = p[i]
            if i == separators[0] || i == separators[1] {
                guard b == separator else { return false }
            } else {
                guard b >= 0x30, b <= 0x39 else { return false }
            }
        }
        let y0 = p[year], y1 = p[year + 1], y2 = p[year + 2], y3 = p[year + 3]
        let m0 = p[month], m1 = p[month + 1], d0 = p[day], d1 = p[day + 1]
        let dash = UInt8(ascii: "-")
        (p[0], p[1], p[2], p[3], p[4]) = (y0, y1, y2, y3, dash)
        (p[5], p[6], p[7], p[8], p[9]) = (m0, m1, dash, d0, d1)
        return true
    }
}

/// A column whose text is rewritten as it is read: its numbers (`decimalComma:`, `date` nil) or its dates.
struct CSVColumnRewrite: Sendable, Equatable {
    var column: Int
    var date: CSVDateFormat?
}

extension CSVDateFormat {
    /// The orders that a profile tries (ISO dates need none).
    static let candidates = ["DD.MM.YYYY", "DD/MM/YYYY", "MM/DD/YYYY", "DD-MM-YYYY", "MM-DD-YYYY", "YYYY/MM/DD", "YYYY.MM.DD"]
        .compactMap(CSVDateFormat.init)

    /// The columns of `chunk` whose values are dates in another order, with that order, for
    /// `auditor profile` to read them so (``ReaderFactory`` `columnReadings`): the one order in
    /// which at least 90 % of the present values are valid dates (none when two are, as
    /// `01/02/2024` in a column that never shows a day above 12). The others are outliers.
    static func columns(of chunk: RecordChunk, names: [String]) -> [String: String] {
        var found = [String: String]()
        for (c, column) in chunk.columns.enumerated() where c < names.count {
            let texts = column.filter { $0.tag == .text }
            guard !texts.isEmpty else { continue }
            let fitting = candidates.filter { format in
                var buffer = [UInt8](repeating: 0, count: 10)
                let valid = texts.count { cell in
                    guard cell.length == 10 else { return false }
                    for i in 0 ..< 10 { buffer[i] = chunk.bytes[Int(cell.payload) + i] }
                    return buffer.withUnsafeMutableBufferPointer { p in
                        format.rewrite(p.baseAddress!, length: 10) && ByteParsers.date(UnsafeBufferPointer(p)) != nil
                    }
                }
                return valid * 10 >= texts.count * 9
            }
            if fitting.count == 1 { found[names[c]] = fitting[0].text }
        }
        return found
    }
}
