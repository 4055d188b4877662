import Auditor

/// The order of a `dateFormat:` column's dates (``ValueFormats/dateFormats``): the day, the
/// month and `YYYY` in any order with one of `.`, `/`, `-` between them (`DD.MM.YYYY`,
/// `MM/DD/YYYY`, `M/D/YYYY`). `DD` and `MM` are two digits; `D` and `M` one or two (`1/2/2024`,
/// `12/25/2024`). A value written so is read as the auditor reads dates, `YYYY-MM-DD`: in
/// place when it has ten bytes (the same bytes, moved), else in the chunk's own bytes; nothing
/// is lost. Other values are left as they are, for a `type: date` rule to report.
///
/// A date-time: the date, a space or `T`, the time (`hh:mm`, `hh:mm:ss`, `h:` for one or two
/// digits of the hour; with seconds, a fraction of up to nine digits may follow), then a space
/// and the offset the values are in, which they do not write (`UTC`, `Z`, `+01:00`):
/// `DD.MM.YYYY hh:mm UTC` reads `31.12.2024 14:05` as `2024-12-31T14:05:00Z`, which
/// `type: datetime` and its bounds judge. `AM/PM` before the offset reads a 12-hour clock
/// (`M/D/YYYY h:mm:ss AM/PM UTC`: `1/28/2008 3:45:00 PM` is `2008-01-28T15:45:00Z`, `12:05 AM`
/// is `00:05`), the hour then from 1 to 12, `AM` and `PM` in either case, as Python's
/// `strptime` reads `%I` and `%p`.
struct CSVDateFormat: Sendable, Hashable {
    /// As written in the options (`DD.MM.YYYY`).
    let text: String
    let separator: UInt8
    /// What each of the three parts is, in order: `y` (four digits), `m` or `d`.
    let parts: (UInt8, UInt8, UInt8)
    /// The fewest digits of each part (`DD` 2, `D` 1); the most are 4 for the year, else 2.
    let least: (Int, Int, Int)
    /// The time of a date-time (nil: a date).
    let time: Time?

    /// The time after a date-time's date.
    struct Time: Sendable, Hashable {
        /// ` ` or `T`, between the date and the time.
        let separator: UInt8
        /// The fewest digits of the hour (`hh` 2, `h` 1).
        let hourLeast: Int
        /// Whether the values write seconds (and may write a fraction after them).
        let seconds: Bool
        /// The offset written after the time: `Z` or `±HH:MM`.
        let zone: [UInt8]
        /// Whether the values write the hour of a 12-hour clock and ` AM` or ` PM` after the time.
        let twelveHour: Bool
    }

    static func == (a: CSVDateFormat, b: CSVDateFormat) -> Bool { a.text == b.text }
    func hash(into hasher: inout Hasher) { hasher.combine(text) }

    /// What a format may be, for messages.
    static let accepted = "DD or D, MM or M, and YYYY in any order, with one of . / - between them (DD.MM.YYYY, MM/DD/YYYY, M/D/YYYY; "
        + "D and M take one or two digits), or such a date, a space or T, hh:mm or hh:mm:ss (h: one or two digits), a space and "
        + "the offset of the values (DD.MM.YYYY hh:mm UTC, YYYY-MM-DD hh:mm:ss +01:00), with AM/PM before the offset for a "
        + "12-hour clock (M/D/YYYY h:mm:ss AM/PM UTC)"

    /// The most bytes ``read(_:length:into:)`` writes: `YYYY-MM-DDThh:mm:ss.fffffffff+hh:mm`.
    var maxOutput: Int { time == nil ? 10 : 35 }

    /// - Returns: nil when `text` is not such a format.
    init?(_ text: String) {
        var date = Substring(text), time: Time?
        if let cut = text.firstIndex(where: { $0 == " " || $0 == "T" }) {
            date = text[..<cut]
            let rest = text[text.index(after: cut)...].split(separator: " ", omittingEmptySubsequences: false)
            let twelveHour = rest.count == 3 && rest[1] == "AM/PM"
            guard rest.count == 2 || twelveHour,
                  let t = Self.time(String(rest[0]), separator: UInt8(ascii: text[cut] == "T" ? "T" : " "), zone: String(rest[rest.count - 1]),
                                    twelveHour: twelveHour) else { return nil }
            time = t
        }
        guard let separator = date.utf8.first(where: { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "-") })
        else { return nil }
        let tokens = date.split(separator: Character(Unicode.Scalar(separator)), omittingEmptySubsequences: false).map(String.init)
        let kinds: [String: (UInt8, Int)] = ["YYYY": (UInt8(ascii: "y"), 4), "MM": (UInt8(ascii: "m"), 2), "M": (UInt8(ascii: "m"), 1),
                                             "DD": (UInt8(ascii: "d"), 2), "D": (UInt8(ascii: "d"), 1)]
        let read = tokens.compactMap { kinds[$0] }
        guard tokens.count == 3, read.count == 3, Set(read.map(\.0)).count == 3 else { return nil }
        self.text = text
        self.separator = separator
        parts = (read[0].0, read[1].0, read[2].0)
        least = (read[0].1, read[1].1, read[2].1)
        self.time = time
    }

    /// `hh:mm`, `hh:mm:ss`, `h:mm` or `h:mm:ss`, and `UTC`, `Z` or `±HH:MM`.
    private static func time(_ text: String, separator: UInt8, zone: String, twelveHour: Bool) -> Time? {
        let hour = text.hasPrefix("hh:") ? 2 : text.hasPrefix("h:") ? 1 : 0
        guard hour > 0, ["mm", "mm:ss"].contains(text.dropFirst(hour + 1)) else { return nil }
        let offset: [UInt8]
        if zone == "UTC" || zone == "Z" {
            offset = [UInt8(ascii: "Z")]
        } else {
            let z = Array(zone.utf8)
            func digits(_ i: Int) -> Int? { z[i] &- 48 < 10 && z[i + 1] &- 48 < 10 ? Int(z[i] - 48) * 10 + Int(z[i + 1] - 48) : nil }
            guard z.count == 6, z[0] == UInt8(ascii: "+") || z[0] == UInt8(ascii: "-"), z[3] == UInt8(ascii: ":"),
                  let h = digits(1), let m = digits(4), h <= 23, m <= 59 else { return nil }
            offset = z
        }
        return Time(separator: separator, hourLeast: hour, seconds: text.hasSuffix(":ss"), zone: offset, twelveHour: twelveHour)
    }

    /// Reads `[p, p + length)` as a date (or date-time) in this order and writes it to `out` as
    /// `YYYY-MM-DD` (or `YYYY-MM-DDThh:mm:ss[.f]` and the offset); `out` may be `p` itself for a
    /// date of ten bytes: every byte is read first.
    /// - Returns: The bytes written, at most ``maxOutput``; 0 when the text is not such a value,
    ///   a day of the calendar (and a time of the day). Any other text, `31.02.2024` included, is
    ///   left as written, for `type: date` or `datetime` to report as the file shows it.
    /// - Complexity: O(length), no allocation (it runs on every value of the column).
    func read(_ p: UnsafePointer<UInt8>, length: Int, into out: UnsafeMutablePointer<UInt8>) -> Int {
        guard length >= least.0 + least.1 + least.2 + 2, length <= (time == nil ? 10 : 43) else { return 0 }
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
            guard n >= fewest else { return 0 }
            if k < 2 {
                guard at < length, p[at] == separator else { return 0 }
                at += 1
            }
            switch kind {
            case UInt8(ascii: "y"): year = (p[start], p[start + 1], p[start + 2], p[start + 3])
            case UInt8(ascii: "m"): month = n == 2 ? (p[start], p[start + 1]) : (zero, p[start])
            default: day = n == 2 ? (p[start], p[start + 1]) : (zero, p[start])
            }
        }
        let dash = UInt8(ascii: "-")
        guard let time else {
            guard at == length else { return 0 }
            var iso = (year.0, year.1, year.2, year.3, dash, month.0, month.1, dash, day.0, day.1)
            let valid = withUnsafeBytes(of: &iso) { ByteParsers.date($0.assumingMemoryBound(to: UInt8.self)) != nil }
            guard valid else { return 0 }
            (out[0], out[1], out[2], out[3], out[4]) = (year.0, year.1, year.2, year.3, dash)
            (out[5], out[6], out[7], out[8], out[9]) = (month.0, month.1, dash, day.0, day.1)
            return 10
        }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 35) { iso in
            func digit(_ i: Int) -> Bool { i < length && p[i] >= zero && p[i] <= UInt8(ascii: "9") }
            (iso[0], iso[1], iso[2], iso[3], iso[4]) = (year.0, year.1, year.2, year.3, dash)
            (iso[5], iso[6], iso[7], iso[8], iso[9]) = (month.0, month.1, dash, day.0, day.1)
            iso[10] = UInt8(ascii: "T")
            guard at < length, p[at] == time.separator, digit(at + 1) else { return 0 }
            at += 1
            // The hour: one or two digits.
            if digit(at + 1) {
                (iso[11], iso[12]) = (p[at], p[at + 1])
                at += 2
            } else {
                guard time.hourLeast == 1 else { return 0 }
                (iso[11], iso[12]) = (zero, p[at])
                at += 1
            }
            let colon = UInt8(ascii: ":")
            guard at < length, p[at] == colon, digit(at + 1), digit(at + 2) else { return 0 }
            (iso[13], iso[14], iso[15]) = (colon, p[at + 1], p[at + 2])
            at += 3
            var n = 19
            if time.seconds {
                guard at < length, p[at] == colon, digit(at + 1), digit(at + 2) else { return 0 }
                (iso[16], iso[17], iso[18]) = (colon, p[at + 1], p[at + 2])
                at += 3
                if at < length, p[at] == UInt8(ascii: ".") {
                    iso[19] = p[at]
                    at += 1
                    n = 20
                    while digit(at), n < 29 {
                        iso[n] = p[at]
                        n += 1
                        at += 1
                    }
                    guard n > 20 else { return 0 }
                }
            } else {
                (iso[16], iso[17], iso[18]) = (colon, zero, zero)
            }
            if time.twelveHour {
                // ` AM` or ` PM`, either case; the hour from 1 to 12 (12 AM is 00, 12 PM 12).
                guard at + 3 == length, p[at] == UInt8(ascii: " "), p[at + 2] | 0x20 == UInt8(ascii: "m") else { return 0 }
                let half = p[at + 1] | 0x20
                guard half == UInt8(ascii: "a") || half == UInt8(ascii: "p") else { return 0 }
                let hour = Int(iso[11] - zero) * 10 + Int(iso[12] - zero)
                guard hour >= 1, hour <= 12 else { return 0 }
                let h = hour % 12 + (half == UInt8(ascii: "p") ? 12 : 0)
                (iso[11], iso[12]) = (zero + UInt8(h / 10), zero + UInt8(h % 10))
                at += 3
            }
            guard at == length else { return 0 }
            for b in time.zone {
                iso[n] = b
                n += 1
            }
            guard ByteParsers.instant(UnsafeBufferPointer(rebasing: iso[..<n])) != nil else { return 0 }
            out.update(from: iso.baseAddress!, count: n)
            return n
        }
    }

    /// The same order with `D`, `M` and `h` for `DD`, `MM` and `hh`.
    var lenient: CSVDateFormat {
        CSVDateFormat(text.replacingOccurrences(of: "DD", with: "D").replacingOccurrences(of: "MM", with: "M")
            .replacingOccurrences(of: "hh:", with: "h:")) ?? self
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
    /// months first, then with one or two; then date-times in those orders and the ISO one,
    /// with minutes or seconds, on a 24- or 12-hour clock (`AM/PM`), which write no offset:
    /// read as UTC (`2024-12-31 14:05:00`, `12/31/2024 2:05 PM`).
    static let candidates: [CSVDateFormat] = {
        let orders = ["DD.MM.YYYY", "DD/MM/YYYY", "MM/DD/YYYY", "DD-MM-YYYY", "MM-DD-YYYY", "YYYY/MM/DD", "YYYY.MM.DD"]
        let times = (orders + ["YYYY-MM-DD"]).flatMap { order in
            ["hh:mm:ss", "hh:mm"].flatMap { time in
                ["\(order) \(time) UTC", "\(order) \(time) AM/PM UTC"] + (order == "YYYY-MM-DD" ? ["\(order)T\(time) UTC"] : [])
            }
        }
        return (orders + times).compactMap(CSVDateFormat.init).flatMap { [$0, $0.lenient] }
    }()

    /// The columns of `chunk` whose values are dates (or date-times) in another order, with that
    /// format, for `auditor profile` to read them so (``ReaderFactory`` `columnReadings`): the
    /// one order in which at least 90 % of the present values are valid (none when two are, as
    /// `01/02/2024` in a column that never shows a day above 12), with two-digit days, months and
    /// hours where they fit, else one or two (`1/2/2024`). The others are outliers.
    static func columns(of chunk: RecordChunk, names: [String]) -> [String: String] {
        var found = [String: String]()
        var buffer = [UInt8](repeating: 0, count: 35)
        for (c, column) in chunk.columns.enumerated() where c < names.count {
            let texts = column.filter { $0.tag == .text }
            guard !texts.isEmpty else { continue }
            let fitting = candidates.filter { format in
                let valid = texts.count { cell in
                    chunk.bytes.withUnsafeBufferPointer { bytes in
                        buffer.withUnsafeMutableBufferPointer { out in
                            Int(cell.payload) + Int(cell.length) <= bytes.count
                                && format.read(bytes.baseAddress! + Int(cell.payload), length: Int(cell.length), into: out.baseAddress!) > 0
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
