/// Straight-line parsers for the common text forms of dates and date-times, with exactly the
/// acceptance and values of ``ByteParsers/date(_:)`` and ``ByteParsers/datetime(_:)``
/// (a differential test pins them together), about four times faster.
///
/// `YYYY-MM-DD` is parsed here in full; a date-time is parsed here when it has the form
/// `YYYY-MM-DDTHH:MM:SSZ` (20 bytes ending in `Z`) and handed to ``ByteParsers`` otherwise
/// (fractions, offsets, and every invalid length), so only the common shape is duplicated.
///
/// These belong in ``ByteParsers`` (property rules would get the same speed-up); they live
/// here until they move.
enum TemporalText {
    /// ``ByteParsers/date(_:)``: days since 1970-01-01, or `nil`.
    @inline(__always)
    static func date(_ p: UnsafeBufferPointer<UInt8>) -> Int32? {
        guard p.count == 10, let q = p.baseAddress else { return nil }
        return date(at: q)
    }

    /// ``ByteParsers/datetime(_:)``: seconds since 1970-01-01T00:00:00Z, or `nil`.
    @inline(__always)
    static func datetime(_ p: UnsafeBufferPointer<UInt8>) -> Int64? {
        guard p.count == 20, let q = p.baseAddress, q[19] == UInt8(ascii: "Z"), q[10] == UInt8(ascii: "T") else {
            return ByteParsers.datetime(p)
        }
        // "HH:MM:SS" as one little-endian word: digits in bytes 0, 1, 3, 4, 6, 7, ':' in 2 and 5.
        let w = UnsafeRawPointer(q + 11).loadUnaligned(as: UInt64.self).littleEndian
        guard digits(w, mask: 0xFFFF_00FF_FF00_FFFF), w & 0x0000_FF00_00FF_0000 == 0x0000_3A00_003A_0000,
              let days = date(at: q) else { return nil }
        let hour = Int64(w & 0x0F) * 10 + Int64(w >> 8 & 0x0F)
        let minute = Int64(w >> 24 & 0x0F) * 10 + Int64(w >> 32 & 0x0F)
        let second = Int64(w >> 48 & 0x0F) * 10 + Int64(w >> 56 & 0x0F)
        guard hour <= 23, minute <= 59, second <= 59 else { return nil }
        return Int64(days) * 86400 + hour * 3600 + minute * 60 + second
    }

    /// Whether every byte of `w` selected by `mask` is an ASCII digit: its high nibble is 3,
    /// and it stays below 0x40 when 6 is added (no byte can carry into the next, as every
    /// selected byte is below 0x40 and every other byte is checked by the caller).
    @inline(__always)
    private static func digits(_ w: UInt64, mask: UInt64) -> Bool {
        let high = 0xF0F0_F0F0_F0F0_F0F0 & mask
        let three = 0x3030_3030_3030_3030 & mask
        return w & high == three && (w &+ 0x0606_0606_0606_0606) & high == three
    }

    /// `YYYY-MM-DD` at `q` (10 readable bytes) as a real calendar date.
    @inline(__always)
    private static func date(at q: UnsafePointer<UInt8>) -> Int32? {
        // "YYYY-MM-" as one little-endian word: digits in bytes 0-3, 5, 6; '-' in 4 and 7.
        let w = UnsafeRawPointer(q).loadUnaligned(as: UInt64.self).littleEndian
        let d0 = q[8] &- 48, d1 = q[9] &- 48
        guard w & 0xFF00_00FF_0000_0000 == 0x2D00_002D_0000_0000, digits(w, mask: 0x00FF_FF00_FFFF_FFFF),
              d0 <= 9, d1 <= 9 else { return nil }
        let year = Int(w & 0x0F) * 1000 + Int(w >> 8 & 0x0F) * 100 + Int(w >> 16 & 0x0F) * 10 + Int(w >> 24 & 0x0F)
        let month = Int(w >> 40 & 0x0F) * 10 + Int(w >> 48 & 0x0F)
        let day = Int(d0) * 10 + Int(d1)
        // Month lengths without branches: bit m of 5546 is set for the 31-day months
        // 1, 3, 5, 7, 8, 10, 12; February is 30 − 2 + leap.
        let leap = (year & 3 == 0 ? 1 : 0) & ((year % 100 != 0 ? 1 : 0) | (year % 400 == 0 ? 1 : 0))
        let length = 30 + ((5546 >> month) & 1) - (month == 2 ? 2 - leap : 0)
        guard (1 ... 12).contains(month), (1 ... length).contains(day) else { return nil }
        return Int32(TemporalMath.days(year: year, month: month, day: day))
    }
}

extension TemporalMath {
    /// Days since 1970-01-01 of a date with `year >= 0` (Hinnant's algorithm in unsigned
    /// arithmetic, shifted by one 400-year era so nothing is negative).
    @inline(__always)
    static func days(year: Int, month: Int, day: Int) -> Int {
        let y = UInt32(truncatingIfNeeded: year + 400 - (month <= 2 ? 1 : 0))
        let era = y / 400
        let yoe = y - era * 400
        let mp = UInt32(truncatingIfNeeded: month > 2 ? month - 3 : month + 9)
        let doy = (153 * mp + 2) / 5 + UInt32(truncatingIfNeeded: day) - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return Int(era) * 146097 + Int(doe) - 719468 - 146097
    }

    /// The date of a day number (days since 1970-01-01): Neri and Schneider's algorithm
    /// ("Euclidean affine functions and their application to calendar algorithms", 2022),
    /// multiplications and shifts only; ``CalendarMath/civil(fromDays:)`` outside its range.
    @inline(__always)
    static func civil(_ days: Int32) -> (year: Int, month: Int, day: Int) {
        // s = 82 eras of shift keeps every intermediate value of |days| < 1e9 within 32 bits.
        let k: Int64 = 719468 + 146097 * 82
        let shifted = Int64(days) + k
        guard shifted >= 0, shifted < 1 << 30 else { return CalendarMath.civil(fromDays: Int(days)) }
        let n = UInt32(shifted)
        let n1 = 4 * n + 3
        let century = n1 / 146097
        let nc = n1 % 146097 / 4
        let n2 = 4 * nc + 3
        let p2 = UInt64(2939745) * UInt64(n2)
        let z = UInt32(truncatingIfNeeded: p2 >> 32)
        let ny = UInt32(truncatingIfNeeded: p2) / 2939745 / 4
        let y = 100 * century + z
        let n3 = 2141 * ny + 197913
        let m = n3 >> 16
        let d = (n3 & 0xFFFF) / 2141
        let january = ny >= 306
        return (Int(y) - 400 * 82 + (january ? 1 : 0), Int(january ? m - 12 : m), Int(d) + 1)
    }
}
