import Foundation

/// One scan of a value's UTF-8 bytes: its length in Unicode scalars and the format classes it
/// belongs to. Each class is decided exactly as its ``FormatClass/pattern`` would match.
struct ShapeScan {
    var scalars = 0
    var blank = true
    /// ``Hashing/bytes(_:)`` of the value, computed in the same pass.
    var hash: UInt64 = 0
    /// Bit `1 << index` per class of ``FormatClass/allCases``.
    var classBits: UInt16 = 0

    /// The classes, for tests and reports.
    var classes: [FormatClass] {
        FormatClass.allCases.enumerated().filter { classBits & (1 << UInt16($0.offset)) != 0 }.map(\.element)
    }

    private mutating func add(_ c: FormatClass) { classBits |= 1 << UInt16(c.index) }

    init() {}

    init<C: Collection>(_ p: C) where C.Element == UInt8, C.Index == Int {
        var digits = true, letters = true, upper = true
        var at = -1, atCount = 0
        var h: UInt64 = 0xcbf29ce484222325
        defer { hash = Hashing.mix(h) }
        var i = p.startIndex
        while i < p.endIndex {
            let b = p[i]
            h = (h ^ UInt64(b)) &* 0x100000001b3
            if b & 0xC0 != 0x80 { scalars += 1 }
            if b != 0x20 && b != 0x09 { blank = false }
            let isDigit = b >= 0x30 && b <= 0x39
            let isUpper = b >= 0x41 && b <= 0x5A
            let isLower = b >= 0x61 && b <= 0x7A
            if !isDigit { digits = false }
            if !(isDigit || isUpper) { upper = false }
            if b == 0x40 { at = i; atCount += 1 }
            if letters {
                if isUpper || isLower || b == 0x20 {
                    // ASCII letter or space
                } else if b == 0xC3, i + 1 < p.endIndex, p[i + 1] >= 0x80, p[i + 1] <= 0xBF,
                          p[i + 1] != 0x97, p[i + 1] != 0xB7 {
                    // U+00C0…U+00FF except × and ÷: À-Ö, Ø-ö, ø-ÿ (counted once, at its lead byte)
                    h = (h ^ UInt64(p[i + 1])) &* 0x100000001b3
                    i += 2
                    continue
                } else {
                    letters = false
                }
            }
            i += 1
        }
        let n = p.count
        guard n > 0 else { return }
        if digits { add(.digits) }
        if letters { add(.letters) }
        if upper { add(.upperCode) }
        if atCount == 1, Self.isEmail(p, at: at) { add(.email) }
        if n == 36, Self.isUUID(p) { add(.uuid) }
        if n == 10 {
            if Self.shape(p, "9999-99-99") { add(.isoDate) }
            if Self.shape(p, "99/99/9999") { add(.slashDate) }
            if Self.shape(p, "99.99.9999") { add(.dotDate) }
        }
        if n >= 19, Self.shape(p.prefix(19), "9999-99-99T99:99:99") { add(.isoDatetime) }
    }

    /// `[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}` (one `@`, the last dot of the domain
    /// before two or more letters).
    static func isEmail<C: Collection>(_ p: C, at: Int) -> Bool where C.Element == UInt8, C.Index == Int {
        func alnum(_ b: UInt8) -> Bool { (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) }
        func alpha(_ b: UInt8) -> Bool { (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) }
        guard at > p.startIndex else { return false }
        for i in p.startIndex ..< at {
            let b = p[i]
            guard alnum(b) || b == 0x2E || b == 0x5F || b == 0x25 || b == 0x2B || b == 0x2D else { return false }
        }
        var lastDot = -1
        for i in at + 1 ..< p.endIndex {
            let b = p[i]
            guard alnum(b) || b == 0x2E || b == 0x2D else { return false }
            if b == 0x2E { lastDot = i }
        }
        guard lastDot > at + 1, p.endIndex - lastDot - 1 >= 2 else { return false }
        for i in lastDot + 1 ..< p.endIndex where !alpha(p[i]) { return false }
        return true
    }

    static func isUUID<C: Collection>(_ p: C) -> Bool where C.Element == UInt8, C.Index == Int {
        for (k, b) in p.enumerated() {
            if k == 8 || k == 13 || k == 18 || k == 23 {
                if b != 0x2D { return false }
            } else if !((b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x46) || (b >= 0x61 && b <= 0x66)) {
                return false
            }
        }
        return true
    }

    /// Whether the bytes have the layout (`9` a digit, anything else itself).
    static func shape<C: Collection>(_ p: C, _ layout: StaticString) -> Bool where C.Element == UInt8 {
        guard p.count == layout.utf8CodeUnitCount else { return false }
        let l = UnsafeBufferPointer(start: layout.utf8Start, count: layout.utf8CodeUnitCount)
        for (b, want) in zip(p, l) {
            if want == 0x39 { if b < 0x30 || b > 0x39 { return false } } else if b != want { return false }
        }
        return true
    }
}

/// 64-bit hashes for distinct counting and key tracking (FNV-1a, then a SplitMix64 finaliser
/// so that every bit is usable by HyperLogLog).
enum Hashing {
    static func bytes<C: Collection>(_ p: C) -> UInt64 where C.Element == UInt8 {
        var h: UInt64 = 0xcbf29ce484222325
        for b in p { h = (h ^ UInt64(b)) &* 0x100000001b3 }
        return mix(h)
    }

    static func tagged(_ tag: UInt64, _ v: UInt64) -> UInt64 { mix(v &+ tag &* 0x9E3779B97F4A7C15) }

    static func mix(_ x: UInt64) -> UInt64 {
        var z = x &+ 0x9E3779B97F4A7C15
        z = (z ^ (z >> 30)) &* 0xBF58476D1CE4E5B9
        z = (z ^ (z >> 27)) &* 0x94D049BB133111EB
        return z ^ (z >> 31)
    }
}

/// HyperLogLog with 2^12 registers (about 1.6 % standard error), with the small-range
/// correction (linear counting).
struct HyperLogLog: Sendable {
    static let bits = 12
    var registers = [UInt8](repeating: 0, count: 1 << bits)

    mutating func add(_ hash: UInt64) {
        let index = Int(hash >> UInt64(64 - Self.bits))
        let rest = (hash << UInt64(Self.bits)) | (1 << UInt64(Self.bits - 1))
        let rank = UInt8(rest.leadingZeroBitCount + 1)
        if rank > registers[index] { registers[index] = rank }
    }

    func estimate() -> Int {
        let m = Double(registers.count)
        var sum = 0.0, zeros = 0
        for r in registers {
            sum += 1 / Double(UInt64(1) << UInt64(r))
            if r == 0 { zeros += 1 }
        }
        let alpha = 0.7213 / (1 + 1.079 / m)
        let e = alpha * m * m / sum
        if e <= 2.5 * m, zeros > 0 { return Int((m * log(m / Double(zeros))).rounded()) }
        return Int(e.rounded())
    }
}

/// A set of 64-bit hashes with open addressing (linear probing): the key tracker's set,
/// without the per-lookup SipHash of `Set<UInt64>` (the hashes are already mixed).
struct HashSet64: Sendable {
    private var slots = [UInt64](repeating: 0, count: 1024)
    private var hasZero = false
    private(set) var count = 0

    /// Inserts `h`; returns false when it was already there.
    mutating func insert(_ h: UInt64) -> Bool {
        if h == 0 {
            defer { hasZero = true }
            if hasZero { return false }
            count += 1
            return true
        }
        if (count + 1) * 4 > slots.count * 3 { grow() }
        let mask = slots.count - 1
        var i = Int(truncatingIfNeeded: h) & mask
        while slots[i] != 0 {
            if slots[i] == h { return false }
            i = (i + 1) & mask
        }
        slots[i] = h
        count += 1
        return true
    }

    func contains(_ h: UInt64) -> Bool {
        if h == 0 { return hasZero }
        let mask = slots.count - 1
        var i = Int(truncatingIfNeeded: h) & mask
        while slots[i] != 0 {
            if slots[i] == h { return true }
            i = (i + 1) & mask
        }
        return false
    }

    private mutating func grow() {
        let old = slots
        slots = [UInt64](repeating: 0, count: old.count * 2)
        let mask = slots.count - 1
        for h in old where h != 0 {
            var i = Int(truncatingIfNeeded: h) & mask
            while slots[i] != 0 { i = (i + 1) & mask }
            slots[i] = h
        }
    }
}

/// Counts per 64-bit hash with open addressing (linear probing), for the exact distinct
/// values of a column: no per-lookup SipHash (the hashes are already mixed).
struct HashCount64: Sendable {
    private var keys = [UInt64](repeating: 0, count: 64)
    private var values = [Int](repeating: 0, count: 64)
    private var zero = 0
    private(set) var count = 0

    /// Adds one to the count of `h` if present; returns false when absent.
    mutating func increment(_ h: UInt64) -> Bool {
        if h == 0 {
            guard zero > 0 else { return false }
            zero += 1
            return true
        }
        let mask = keys.count - 1
        var i = Int(truncatingIfNeeded: h) & mask
        while keys[i] != 0 {
            if keys[i] == h {
                values[i] += 1
                return true
            }
            i = (i + 1) & mask
        }
        return false
    }

    /// Inserts an absent `h` with count 1.
    mutating func insert(_ h: UInt64) {
        count += 1
        if h == 0 { zero = 1; return }
        if count * 4 > keys.count * 3 { grow() }
        let mask = keys.count - 1
        var i = Int(truncatingIfNeeded: h) & mask
        while keys[i] != 0 { i = (i + 1) & mask }
        keys[i] = h
        values[i] = 1
    }

    /// Every hash with its count.
    var entries: [(key: UInt64, value: Int)] {
        var out = [(key: UInt64, value: Int)]()
        if zero > 0 { out.append((0, zero)) }
        for i in 0 ..< keys.count where keys[i] != 0 { out.append((keys[i], values[i])) }
        return out
    }

    private mutating func grow() {
        let oldKeys = keys, oldValues = values
        keys = [UInt64](repeating: 0, count: oldKeys.count * 2)
        values = [Int](repeating: 0, count: oldKeys.count * 2)
        let mask = keys.count - 1
        for j in 0 ..< oldKeys.count where oldKeys[j] != 0 {
            var i = Int(truncatingIfNeeded: oldKeys[j]) & mask
            while keys[i] != 0 { i = (i + 1) & mask }
            keys[i] = oldKeys[j]
            values[i] = oldValues[j]
        }
    }
}
