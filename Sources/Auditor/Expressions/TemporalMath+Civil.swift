extension TemporalMath {
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
