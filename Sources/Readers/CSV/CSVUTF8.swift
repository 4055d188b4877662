/// UTF-8 checks on raw buffer bytes, without building strings.
enum CSVUTF8 {
    private static let highBits: UInt64 = 0x8080_8080_8080_8080

    /// Whether `[from, to)` is well-formed UTF-8 (no overlong forms, surrogates, or values
    /// above U+10FFFF; no truncated sequences).
    /// - Complexity: O(n), skipping ASCII 8 bytes at a time.
    static func isValid(_ base: UnsafePointer<UInt8>, from: Int, to end: Int) -> Bool {
        var i = from
        while i < end {
            while i &+ 8 <= end,
                  UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self) & highBits == 0 {
                i &+= 8
            }
            guard i < end else { return true }
            let lead = base[i]
            if lead < 0x80 {
                i &+= 1
                continue
            }
            let length: Int
            var low: UInt8 = 0x80
            var high: UInt8 = 0xBF
            switch lead {
            case 0xC2 ... 0xDF: length = 2
            case 0xE0: length = 3; low = 0xA0
            case 0xE1 ... 0xEC, 0xEE ... 0xEF: length = 3
            case 0xED: length = 3; high = 0x9F
            case 0xF0: length = 4; low = 0x90
            case 0xF1 ... 0xF3: length = 4
            case 0xF4: length = 4; high = 0x8F
            default: return false
            }
            guard end - i >= length else { return false }
            let second = base[i + 1]
            guard second >= low, second <= high else { return false }
            var k = 2
            while k < length {
                guard base[i + k] & 0xC0 == 0x80 else { return false }
                k += 1
            }
            i &+= length
        }
        return true
    }

    /// The number of characters (Unicode scalars; every byte that is not a continuation byte)
    /// in `[from, to)`, for 1-based columns in messages.
    static func characterCount(_ base: UnsafePointer<UInt8>, from: Int, to end: Int) -> Int {
        var count = 0
        var i = from
        while i < end {
            if base[i] & 0xC0 != 0x80 { count += 1 }
            i += 1
        }
        return count
    }
}
