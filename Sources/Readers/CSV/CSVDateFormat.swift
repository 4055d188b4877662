import Auditor

/// The order of a `dateFormat:` column's dates (``CSVOptions/dateFormats``): the day, the
/// month and `YYYY` in any order with one of `.`, `/`, `-` between them (`DD.MM.YYYY`,
/// `MM/DD/YYYY`, `M/D/YYYY`). `DD` and `MM` are two digits; `D` and `M` one or two (`1/2/2024`,
/// `12/25/2024`). A value written so is read as the auditor reads dates, `YYYY-MM-DD`: in
/// place when it has ten bytes (the same bytes, moved), else in the chunk's own bytes; nothing
/// is lost. Other values are left as they are, for a `type: date` rule to report.
struct CSVDateFormat: Sendable, Hashable {
    /// As written in the options (`DD.MM.YYYY`).
    let text: String
    let separator: UInt8
    /// What each of the three parts is, in order: `y` (four digits), `m` or `d`.
    let parts: (UInt8, UInt8, UInt8)
    /// The fewest digits of each part (`DD` 2, `D` 1); the most are 4 for the year, else 2.
    let least: (Int, Int, Int)

    static func == (a: CSVDateFormat, b: CSVDateFormat) -> Bool { a.text == b.text }
    func hash(into hasher: inout Hasher) { hasher.combine(text) }

    /// What a format may be, for messages.
    static let accepted = "DD or D, MM or M, and YYYY in any order, with one of . / - between them (DD.MM.YYYY, MM/DD/YYYY, M/D/YYYY; "
        + "D and M take one or two digits)"

    /// - Returns: nil when `text` is not such a format.
    init?(_ text: String) {
        guard let separator = text.utf8.first(where: { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "-") })
        else { return nil }
        let tokens = text.split(separator: Character(Unicode.Scalar(separator)), omittingEmptySubsequences: false).map(String.init)
        let kinds: [String: (UInt8, Int)] = ["YYYY": (UInt8(ascii: "y"), 4), "MM": (UInt8(ascii: "m"), 2), "M": (UInt8(ascii: "m"), 1),
                                             "DD": (UInt8(ascii: "d"), 2), "D": (UInt8(ascii: "d"), 1)]
        let read = tokens.compactMap { kinds[$0] }
        guard tokens.count == 3, read.count == 3, Set(read.map(\.0)).count == 3 else { return nil }
        self.text = text
        self.separator = separator
        parts = (read[0].0, read[1].0, read[2].0)
        least = (read[0].1, read[1].1, read[2].1)
    }

    /// Reads `[p, p + length)` as a date in this order and writes it to `out` as `YYYY-MM-DD`
    /// (ten bytes; `out` may be `p` itself when `length` is 10: every byte is read first).
    /// - Returns: Whether it was such a date, a day of the calendar. Any other text, `31.02.2024`
    ///   included, is left as written, for `type: date` to report as the file shows it.
    /// - Complexity: O(1), no allocation (it runs on every value of the column).
    func read(_ p: UnsafePointer<UInt8>, length: Int, into out: UnsafeMutablePointer<UInt8>) -> Bool {
        guard length >= least.0 + least.1 + least.2 + 2, length <= 10 else { return false }
        let zero = UInt8(ascii: "0")
        var year: (UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0)
        var month: (UInt8, UInt8) = (zero, 0), day: (UInt8, UInt8) = (zero, 0)
        var at = 0
        for k in 0 ..< 3 {
            let kind = k == 0 ? parts.0 : k == 1 ? parts.1 : parts.2
            let fewest = k == 0 ? least.0 : k == 1 ? least.1 : least.2
            let start = at
            while at < length, p[at] >= zero, p[at] <= UInt8(ascii: "9"), at - start < (kind == UInt8(ascii: "y") ? 4 : 2) { at += 1 }
            let n = at - start
            guard n >= fewest else { return false }
            if k < 2 {
                guard at < length, p[at] == separator else { return false }
                at += 1
            }
            switch kind {
            case UInt8(ascii: "y"): year = (p[start], p[start + 1], p[start + 2], p[start + 3])
            case UInt8(ascii: "m"): month = n == 2 ? (p[start], p[start + 1]) : (zero, p[start])
            default: day = n == 2 ? (p[start], p[start + 1]) : (zero, p[start])
            }
        }
        guard at == length else { return false }
        let dash = UInt8(ascii: "-")
        var iso = (year.0, year.1, year.2, year.3, dash, month.0, month.1, dash, day.0, day.1)
        let valid = withUnsafeBytes(of: &iso) { ByteParsers.date($0.assumingMemoryBound(to: UInt8.self)) != nil }
        guard valid else { return false }
        (out[0], out[1], out[2], out[3], out[4]) = (year.0, year.1, year.2, year.3, dash)
        (out[5], out[6], out[7], out[8], out[9]) = (month.0, month.1, dash, day.0, day.1)
        return true
    }

    /// The same order with `D` and `M` for `DD` and `MM`.
    var lenient: CSVDateFormat {
        CSVDateFormat(text.replacingOccurrences(of: "DD", with: "D").replacingOccurrences(of: "MM", with: "M")) ?? self
    }

    /// Whether `other` is this order with other widths (`D.M.YYYY` and `DD.MM.YYYY`).
    func sameOrder(_ other: CSVDateFormat) -> Bool { lenient.text == other.lenient.text }
}

/// A column whose text is rewritten as it is read: its numbers (`decimalComma:`, `thousandsComma:`;
/// `date` nil) or its dates.
struct CSVColumnRewrite: Sendable, Equatable {
    var column: Int
    var date: CSVDateFormat?
    var numbers: CSVDecimalComma.Style = .decimalComma
}

extension CSVDateFormat {
    /// The orders that a profile tries (ISO dates need none), each with two-digit days and
    /// months first, then with one or two.
    static let candidates = ["DD.MM.YYYY", "DD/MM/YYYY", "MM/DD/YYYY", "DD-MM-YYYY", "MM-DD-YYYY", "YYYY/MM/DD", "YYYY.MM.DD"]
        .compactMap(CSVDateFormat.init).flatMap { [$0, $0.lenient] }

    /// The columns of `chunk` whose values are dates in another order, with that order, for
    /// `auditor profile` to read them so (``ReaderFactory`` `columnReadings`): the one order in
    /// which at least 90 % of the present values are valid dates (none when two are, as
    /// `01/02/2024` in a column that never shows a day above 12), with two-digit days and months
    /// where they fit, else one or two (`1/2/2024`). The others are outliers.
    static func columns(of chunk: RecordChunk, names: [String]) -> [String: String] {
        var found = [String: String]()
        var buffer = [UInt8](repeating: 0, count: 10)
        for (c, column) in chunk.columns.enumerated() where c < names.count {
            let texts = column.filter { $0.tag == .text }
            guard !texts.isEmpty else { continue }
            let fitting = candidates.filter { format in
                let valid = texts.count { cell in
                    chunk.bytes.withUnsafeBufferPointer { bytes in
                        buffer.withUnsafeMutableBufferPointer { out in
                            Int(cell.payload) + Int(cell.length) <= bytes.count
                                && format.read(bytes.baseAddress! + Int(cell.payload), length: Int(cell.length), into: out.baseAddress!)
                                && ByteParsers.date(UnsafeBufferPointer(out)) != nil
                        }
                    }
                }
                return valid * 10 >= texts.count * 9
            }
            if let first = fitting.first, fitting.allSatisfy(first.sameOrder) { found[names[c]] = first.text }
        }
        return found
    }
}
