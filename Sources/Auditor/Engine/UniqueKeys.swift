/// The keys a `unique` rule has seen so far, each with the location of its first occurrence:
/// all a unique rule asks of its key set is "was this key seen before, and where?".
///
/// Integer keys (the common case: `id`) are held in one of two forms, with the first location
/// as 32 bits (``UniqueKeys/wide`` keeps the rare ones that do not fit):
/// - **A range** while the keys are dense (at least one key per four values of the range they
///   span, as ids 1…n are): slot `key - low` of one array holds the key's location, 4 bytes
///   per value, no hashing, and ids in order are written in order. 100M ids take 400 MB.
/// - **A hash table** once they are not: the key and its location in the table's own slots,
///   12 bytes a slot, no dense index or key array as in ``KeyTable``. At its load (0.57–0.85,
///   about 0.75 when sized from the input's size) a key costs 14–21 bytes, a ``KeyTable``
///   key about 32. It is split into 64 parts by the top bits of the hash, each grown on its
///   own (×1.5, to any size), so that a growth briefly holds one part twice, not the table.
///
/// That is what keeps a 100-million-row audit under 2 GB (issue 20). Keys that are not `Int64`
/// (text, composite keys, integers beyond 64 bits) go to a ``KeyTable`` of their own; an
/// integer key never equals a byte key (``KeyEncoder``).
///
/// A value type, mutated only by the accumulator's merge on the audit thread.
package struct UniqueKeys {
    /// Whether the integer keys are in ``range`` (else in ``parts``).
    private var ranged = true
    /// The range form: slot `key - low` holds key's location code (0 = absent).
    private var range: [UInt32] = []
    private var low: Int64 = 0
    private var rangeCount = 0
    private var parts: [Part] = []
    private var byteKeys: KeyTable?
    /// First locations that do not fit a slot's 32 bits (negative rowids, beyond 4G lines), by key.
    private var wideLocations: [Int64: Int64] = [:]
    private let expected: Int
    /// The last ``prefetch(_:)``'s folded slots; read by nothing.
    private var touched: UInt32 = 0

    private static let partBits = 6
    /// Grow a part when its load would pass 0.85.
    private static let maxLoad = 0.85
    /// Parts sized from an expected count start at this load.
    private static let sizedLoad = 0.78
    /// A slot's location that is kept in ``wideLocations``.
    private static let wide = UInt32.max
    /// A range may span this many values per key (4 bytes a value: at most 16 bytes a key)…
    private static let spread = 4
    /// …or this many values, whatever its count.
    private static let smallRange = 1 << 16

    /// - Parameter expected: the keys the input probably holds (from its size), to size the
    ///   table once; nil grows it from small.
    package init(expected: Int? = nil) {
        self.expected = max(0, expected ?? 0)
    }

    /// The number of distinct keys.
    package var count: Int { rangeCount + parts.reduce(0) { $0 + $1.count } + (byteKeys?.count ?? 0) }

    /// Bytes held by the slots and side tables, from their counts: the same on every run over
    /// the same keys, as ``KeyTable/memoryBytes``.
    package var memoryBytes: Int {
        range.count * 4 + parts.reduce(0) { $0 + $1.slots.count * 4 }
            + (byteKeys?.memoryBytes ?? 0) + wideLocations.capacity * 24
    }

    /// Inserts an integer key if absent.
    /// - Returns: the first occurrence's location if the key was already present, else nil.
    @inline(__always)
    package mutating func insert(_ key: Int64, location: Int64) -> Int64? {
        let stored = location >= 0 && location < Int64(Self.wide) - 1 ? UInt32(location + 1) : Self.wide
        let found: UInt32?
        if ranged, key >= low, case let d = UInt64(bitPattern: key) &- UInt64(bitPattern: low), d < UInt64(range.count) {
            found = insertRanged(Int(truncatingIfNeeded: d), stored)
        } else {
            found = insertOutside(key, stored)
        }
        guard let found else {
            if stored == Self.wide { wideLocations[key] = location }
            return nil
        }
        return found == Self.wide ? wideLocations[key] : Int64(found) - 1
    }

    /// A key outside the range: widens the range if it stays dense enough, else moves every
    /// key to the hash table (for good); then inserts.
    private mutating func insertOutside(_ key: Int64, _ stored: UInt32) -> UInt32? {
        if ranged {
            if range.isEmpty {
                let count = max(expected, 1024)
                low = min(key, Int64.max - Int64(count - 1))
                range = Array(repeating: 0, count: count)
                return insertRanged(slot(key), stored)
            }
            if let widened = widenedRange(to: key) {
                var fresh = [UInt32](repeating: 0, count: widened.count)
                let shift = Int(UInt64(bitPattern: low) &- UInt64(bitPattern: widened.low))
                fresh.withUnsafeMutableBufferPointer { f in
                    range.withUnsafeBufferPointer { r in
                        for j in 0 ..< r.count { f[shift + j] = r[j] }
                    }
                }
                range = fresh
                low = widened.low
                return insertRanged(slot(key), stored)
            }
            toHashTable()
        }
        let h = KeyTable.hash(key)
        let p = Int(truncatingIfNeeded: h >> UInt64(64 - Self.partBits))
        return parts[p].insert(key, h &<< UInt64(Self.partBits), stored)
    }

    /// Inserts at slot `d` of the range (below its count) if empty; returns the slot if not.
    @inline(__always)
    private mutating func insertRanged(_ d: Int, _ stored: UInt32) -> UInt32? {
        let found: UInt32? = range.withUnsafeMutableBufferPointer { r in
            let s = r[d]
            if s != 0 { return s }
            r[d] = stored
            return nil
        }
        if found == nil { rangeCount &+= 1 }
        return found
    }

    /// The range slot of a key the range holds.
    private func slot(_ key: Int64) -> Int { Int(UInt64(bitPattern: key) &- UInt64(bitPattern: low)) }

    /// The range that also holds `key` (at least doubled, toward `key`), or nil when it would
    /// span more than ``spread`` values per key.
    private func widenedRange(to key: Int64) -> (low: Int64, count: Int)? {
        let limit = max(Self.spread * (rangeCount + 1), Self.smallRange)
        let high = low + Int64(range.count - 1)          // the range's last value
        if key > high {
            let (span, overflow) = key.subtractingReportingOverflow(low)
            guard !overflow, span < limit else { return nil }
            let count = max(Int(span) + 1, min(2 * range.count, limit))
            return Int64.max - Int64(count - 1) >= low ? (low, count) : (low, Int(span) + 1)
        }
        let (span, overflow) = high.subtractingReportingOverflow(key)
        guard !overflow, span < limit else { return nil }
        let count = max(Int(span) + 1, min(2 * range.count, limit))
        let (newLow, under) = high.subtractingReportingOverflow(Int64(count - 1))
        return under ? (key, Int(span) + 1) : (newLow, count)
    }

    /// Moves the range's keys to the hash table, sized for the expected count.
    private mutating func toHashTable() {
        let perPart = max(expected, 2 * rangeCount) >> Self.partBits
        let size = max(16, Int((Double(perPart) / Self.sizedLoad).rounded(.up)))
        parts = Array(repeating: Part(size: size), count: 1 << Self.partBits)
        ranged = false
        let keys = range
        range = []
        rangeCount = 0
        for (d, s) in keys.enumerated() where s != 0 {
            let key = Int64(bitPattern: UInt64(bitPattern: low) &+ UInt64(d))
            let h = KeyTable.hash(key)
            _ = parts[Int(truncatingIfNeeded: h >> UInt64(64 - Self.partBits))].insert(key, h &<< UInt64(Self.partBits), s)
        }
    }

    /// Inserts an encoded key (see ``KeyEncoder``) if absent.
    /// - Returns: the first occurrence's location if the key was already present, else nil.
    package mutating func insert(_ key: UnsafeBufferPointer<UInt8>, location: Int64) -> Int64? {
        if byteKeys == nil { byteKeys = KeyTable() }
        return byteKeys!.insert(key, location: location).first
    }

    /// Loads the slot of every key in `keys` before they are inserted in order, so that the
    /// processor overlaps their cache misses (see ``KeyTable/prefetch(_:)``). Keys in order
    /// in a range need none.
    package mutating func prefetch(_ keys: UnsafeBufferPointer<Int64>) {
        var folded: UInt32 = 0
        if ranged {
            guard let first = keys.first, let last = keys.last, last &- first != Int64(keys.count - 1) else { return }
            let low = low
            range.withUnsafeBufferPointer { r in
                for key in keys where key >= low {
                    let d = UInt64(bitPattern: key) &- UInt64(bitPattern: low)
                    if d < UInt64(r.count) { folded |= r[Int(truncatingIfNeeded: d)] }
                }
            }
        } else {
            parts.withUnsafeBufferPointer { parts in
                for key in keys {
                    let h = KeyTable.hash(key)
                    folded |= parts[Int(truncatingIfNeeded: h >> UInt64(64 - Self.partBits))].touch(h &<< UInt64(Self.partBits))
                }
            }
        }
        touched = folded
    }

    /// One part: open addressing with linear probing. A slot is three `UInt32`s, side by side
    /// so that a probe reads one cache line: the first location (0 = empty, else the location
    /// + 1, or ``UniqueKeys/wide``), then the key's low and high halves.
    struct Part {
        var slots: [UInt32]
        var size: Int
        /// Grow before `count` passes this.
        var limit: Int
        var count = 0

        init(size: Int) {
            self.size = size
            slots = Array(repeating: 0, count: 3 * size)
            limit = Int(Double(size) * UniqueKeys.maxLoad)
        }

        /// The home slot of a hash (its bits below the part's): `h`'s share of the size.
        @inline(__always)
        static func home(_ h: UInt64, _ size: Int) -> Int {
            Int(truncatingIfNeeded: h.multipliedFullWidth(by: UInt64(size)).high)
        }

        /// Inserts `key` with `location` if absent; returns the stored location if present.
        @inline(__always)
        mutating func insert(_ key: Int64, _ h: UInt64, _ location: UInt32) -> UInt32? {
            if count >= limit { grow() }
            let n = size
            var i = Self.home(h, n)
            let lo = UInt32(truncatingIfNeeded: key), hi = UInt32(truncatingIfNeeded: key >> 32)
            // Without bounds checks: `i` stays below `n` (`slots` holds 3 × n), and the load
            // limit leaves an empty slot, so the probe ends.
            let found: UInt32? = slots.withUnsafeMutableBufferPointer { s in
                while true {
                    let at = 3 &* i
                    let l = s[at]
                    if l == 0 {
                        s[at] = location
                        s[at &+ 1] = lo
                        s[at &+ 2] = hi
                        return nil
                    }
                    if s[at &+ 1] == lo, s[at &+ 2] == hi { return l }
                    i &+= 1
                    if i == n { i = 0 }
                }
            }
            if found == nil { count &+= 1 }
            return found
        }

        /// Touches the home slot of a hash (for ``UniqueKeys/prefetch(_:)``).
        @inline(__always)
        func touch(_ h: UInt64) -> UInt32 {
            slots.withUnsafeBufferPointer { $0[3 &* Self.home(h, size)] }
        }

        private mutating func grow() {
            let old = self
            self = Part(size: max(16, size + size / 2))
            count = old.count
            let n = size
            slots.withUnsafeMutableBufferPointer { s in
                old.slots.withUnsafeBufferPointer { o in
                    for j in 0 ..< old.size where o[3 &* j] != 0 {
                        let key = Int64(o[3 &* j &+ 2]) << 32 | Int64(o[3 &* j &+ 1])
                        var i = Self.home(KeyTable.hash(key) &<< UInt64(UniqueKeys.partBits), n)
                        while s[3 &* i] != 0 {
                            i &+= 1
                            if i == n { i = 0 }
                        }
                        for f in 0 ..< 3 { s[3 &* i &+ f] = o[3 &* j &+ f] }
                    }
                }
            }
        }
    }
}
