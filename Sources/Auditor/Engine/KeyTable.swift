/// A compact hash table of keys for references, snapshots and the text or composite keys of
/// unique rules (their integer keys are in ``UniqueKeys``): each key maps to its dense index
/// (insertion order) and the location of its first occurrence.
///
/// Integer keys are stored as `Int64`; other keys (text, composite, integers beyond 64 bits)
/// as encoded bytes in one arena (no `String` or `Array` per key). Open addressing with linear
/// probing, load ≤ 0.7. A table of integer keys only holds 16 bytes per key (the key and its
/// first location) plus the slot table (4 bytes per slot, 5.7–11.4 per key); a byte key adds
/// 8 bytes per key for every key (its arena range) plus its bytes.
///
/// Built on one thread (the audit thread, in chunk order), then read from many.
/// `@unchecked Sendable`: it is only mutated by ``insert(_:location:)`` on the audit thread
/// before it is shared; after that every access is a read.
package final class KeyTable: @unchecked Sendable {
    /// All state lives in one struct, and its accesses are not checked at run time
    /// (`@exclusivity(unchecked)`): a check per insert cost ~17M instructions of a 200k-row
    /// audit (swift_beginAccess, AccessSet::insert, swift_endAccess). No access can overlap
    /// another: every method touches `storage` once, calls nothing that reaches this table
    /// again, and mutation happens on one thread before the table is shared (see above).
    @exclusivity(unchecked) private var storage = KeyTableStorage()

    public init(capacity: Int = 1024) {
        storage.reserve(capacity)
    }

    /// The number of distinct keys.
    public var count: Int { storage.locations.count }

    /// Set when the keys outgrew the memory limit and were written to disk instead (the
    /// table is then empty): lookups go through a ``ReferenceSpill``.
    package internal(set) var spilled: SpilledKeySet?

    /// Calls `body` with every key, in dense index order.
    func forEachKey(_ body: (KeyValue) -> Void) {
        let s = storage
        s.arena.withUnsafeBufferPointer { arena in
            for k in 0 ..< s.locations.count {
                if s.hasByteKeys, s.lengths[k] != KeyTableStorage.integerKey {
                    let start = Int(s.offsets[k])
                    body(.bytes(UnsafeBufferPointer(rebasing: arena[start ..< start + Int(s.lengths[k])])))
                } else {
                    body(.integer(s.intKeys[k]))
                }
            }
        }
    }

    /// Per key (dense index): the first occurrence's location (line, rowid or ordinal).
    public var locations: [Int64] { storage.locations }

    /// Approximate bytes held, the same on every run over the same keys: what `--memory-limit`
    /// is checked against. The per-key arrays count at the capacity that doubling gives them,
    /// not at their allocations' sizes, which vary with the process's other allocations.
    public var memoryBytes: Int { storage.memoryBytes }

    /// Inserts an integer key if absent.
    /// - Returns: The key's dense index and, if it was already present, its first location.
    @discardableResult
    public func insert(_ key: Int64, location: Int64) -> (index: Int, first: Int64?) {
        storage.insert(key, location: location)
    }

    /// The integer key at a dense index; nil for a byte key.
    public func integerKey(at index: Int) -> Int64? {
        storage.hasByteKeys && storage.lengths[index] != KeyTableStorage.integerKey ? nil : storage.intKeys[index]
    }

    /// The dense index of an integer key, or nil.
    public func index(of key: Int64) -> Int? {
        storage.index(of: key)
    }

    /// Loads the home slot of every integer key in `keys` before they are inserted in order.
    ///
    /// The loads do not depend on each other, so the processor overlaps their cache misses;
    /// the inserts that follow then find their slots in cache instead of waiting for one miss
    /// after another (a million-key table's slots do not fit a core's cache).
    /// - Complexity: O(`keys.count`), no writes to the table.
    public func prefetch(_ keys: UnsafeBufferPointer<Int64>) {
        storage.prefetch(keys)
    }

    /// Inserts an encoded key if absent (see ``KeyEncoder``).
    @discardableResult
    public func insert(_ key: UnsafeBufferPointer<UInt8>, location: Int64) -> (index: Int, first: Int64?) {
        storage.insert(key, location: location)
    }

    /// The dense index of an encoded key, or nil.
    public func index(of key: UnsafeBufferPointer<UInt8>) -> Int? {
        storage.index(of: key)
    }

    /// Marks an integer key in `lengths`.
    static let integerKey = UInt32.max

    @inline(__always)
    static func hash(_ v: Int64) -> UInt64 {
        var x = UInt64(bitPattern: v) &+ 0x9E37_79B9_7F4A_7C15
        x = (x ^ (x >> 30)) &* 0xBF58_476D_1CE4_E5B9
        x = (x ^ (x >> 27)) &* 0x94D0_49BB_1331_11EB
        return x ^ (x >> 31)
    }

    @inline(__always)
    static func hash(_ p: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var h: UInt64 = 0xCBF2_9CE4_8422_2325       // FNV-1a, then mixed
        for b in p { h = (h ^ UInt64(b)) &* 0x100_0000_01B3 }
        return hash(Int64(bitPattern: h))
    }
}

/// The open-addressing table behind ``KeyTable``.
///
/// While every key is an integer (the common case: `id`, `dept_id`), a key costs its `Int64`,
/// its first location and its slots, about 23 bytes at the table's load: `offsets` and
/// `lengths` stay empty and probes compare the integers alone. The first byte key fills them
/// in for the keys before it (``hasByteKeys``).
struct KeyTableStorage {
    /// Per slot: 0 = empty, else the key's dense index + 1, with (while ``tagged``) six bits
    /// of its hash above ``indexBits``: a probe that meets another key's slot usually tells
    /// it apart without reading that key (a cache miss per probe, measured: the unique-key
    /// merge was 17% of a 1M-row audit).
    var slots = [UInt32](repeating: 0, count: 16)
    var mask = 15
    /// Whether slots carry hash tags (until a table holds 2^26 - 1 keys; then plain indexes).
    var tagged = true
    /// Per key (dense): the integer key, or the hash of a byte key.
    var intKeys: [Int64] = []
    /// Per key, once ``hasByteKeys``: the arena range of a byte key; `lengths[k] == integerKey`
    /// for an integer key. Empty while every key is an integer.
    var offsets: [UInt32] = []
    var lengths: [UInt32] = []
    var arena: [UInt8] = []
    var locations: [Int64] = []
    /// Whether a byte key was ever inserted (`offsets` and `lengths` then cover every key).
    var hasByteKeys = false
    /// The last ``prefetch(_:)``'s folded slots; read by nothing.
    var touched: UInt32 = 0

    static let integerKey = UInt32.max
    static let indexBits: UInt32 = 26
    static let indexMask: UInt32 = (1 << 26) - 1

    /// The tag bits of a hash in a slot (0 when untagged).
    @inline(__always)
    func tag(_ h: UInt64) -> UInt32 {
        tagged ? UInt32(truncatingIfNeeded: h >> 58) << Self.indexBits : 0
    }

    /// The dense index in a non-empty slot.
    @inline(__always)
    func entry(_ slot: UInt32) -> Int {
        Int(tagged ? slot & Self.indexMask : slot) &- 1
    }

    /// Whether a non-empty slot may hold a key with tag `t`.
    @inline(__always)
    func mayMatch(_ slot: UInt32, _ t: UInt32) -> Bool {
        !tagged || slot & ~Self.indexMask == t
    }

    /// Folds the home slots of `keys` into ``touched`` (a store the optimiser cannot drop).
    mutating func prefetch(_ keys: UnsafeBufferPointer<Int64>) {
        let m = mask
        var folded: UInt32 = 0
        slots.withUnsafeBufferPointer { s in
            for key in keys { folded |= s[Int(truncatingIfNeeded: KeyTable.hash(key)) & m] }
        }
        touched = folded
    }

    mutating func reserve(_ capacity: Int) {
        // The smallest power of two that holds `capacity` keys within the 0.7 load limit.
        var size = 16
        while size * 7 < capacity * 10 { size <<= 1 }
        slots = Array(repeating: 0, count: size)
        mask = size - 1
    }

    /// The slots, and the per-key arrays at the capacity that doubling gives them. Not their
    /// `capacity`: that includes the allocator's rounding, which depends on what else the
    /// process allocated, so a spill (and the report that says so) would vary from run to run.
    var memoryBytes: Int {
        slots.count * 4 + Self.grownCount(intKeys.count) * 8 + Self.grownCount(offsets.count) * 4
            + Self.grownCount(lengths.count) * 4 + Self.grownCount(arena.count) + Self.grownCount(locations.count) * 8
    }

    /// The capacity of an array that grew to `count` elements by doubling: the power of two at
    /// or above it (at least 16), 0 for none.
    static func grownCount(_ count: Int) -> Int {
        count == 0 ? 0 : max(16, 1 << (Int.bitWidth - (count - 1).leadingZeroBitCount))
    }

    mutating func insert(_ key: Int64, location: Int64) -> (index: Int, first: Int64?) {
        let h = KeyTable.hash(key)
        let t = tag(h)
        var i = Int(truncatingIfNeeded: h) & mask
        if hasByteKeys {
            while true {
                let s = slots[i]
                if s == 0 { break }
                if mayMatch(s, t) {
                    let k = entry(s)
                    if lengths[k] == Self.integerKey, intKeys[k] == key { return (k, locations[k]) }
                }
                i = (i + 1) & mask
            }
            offsets.append(0)
            lengths.append(Self.integerKey)
        } else {
            // The integer-only probe, without bounds checks: a slot holds 0 or a tagged dense
            // index + 1 below `intKeys.count`, and `i` stays within `mask`.
            let tagged = self.tagged
            let m = mask
            let found = slots.withUnsafeBufferPointer { s in
                intKeys.withUnsafeBufferPointer { keys -> Int in
                    while true {
                        let slot = s[i]
                        if slot == 0 { return -1 }
                        if !tagged || slot & ~Self.indexMask == t {
                            let k = Int(tagged ? slot & Self.indexMask : slot) &- 1
                            if keys[k] == key { return k }
                        }
                        i = (i &+ 1) & m
                    }
                }
            }
            if found >= 0 { return (found, locations[found]) }
        }
        let index = locations.count
        intKeys.append(key)
        locations.append(location)
        slots[i] = t | UInt32(truncatingIfNeeded: index + 1)
        growIfNeeded()
        return (index, nil)
    }

    func index(of key: Int64) -> Int? {
        let h = KeyTable.hash(key)
        let t = tag(h)
        var i = Int(truncatingIfNeeded: h) & mask
        while true {
            let s = slots[i]
            if s == 0 { return nil }
            if mayMatch(s, t) {
                let k = entry(s)
                if intKeys[k] == key, !hasByteKeys || lengths[k] == Self.integerKey { return k }
            }
            i = (i + 1) & mask
        }
    }

    mutating func insert(_ key: UnsafeBufferPointer<UInt8>, location: Int64) -> (index: Int, first: Int64?) {
        if !hasByteKeys {
            offsets = [UInt32](repeating: 0, count: locations.count)
            lengths = [UInt32](repeating: Self.integerKey, count: locations.count)
            hasByteKeys = true
        }
        let h = KeyTable.hash(key)
        let t = tag(h)
        var i = Int(truncatingIfNeeded: h) & mask
        while true {
            let s = slots[i]
            if s == 0 { break }
            if mayMatch(s, t) {
                let k = entry(s)
                if intKeys[k] == Int64(bitPattern: h), equal(k, key) { return (k, locations[k]) }
            }
            i = (i + 1) & mask
        }
        let index = locations.count
        intKeys.append(Int64(bitPattern: h))
        offsets.append(UInt32(truncatingIfNeeded: arena.count))
        lengths.append(UInt32(key.count))
        arena.append(contentsOf: key)
        locations.append(location)
        slots[i] = t | UInt32(truncatingIfNeeded: index + 1)
        growIfNeeded()
        return (index, nil)
    }

    func index(of key: UnsafeBufferPointer<UInt8>) -> Int? {
        guard hasByteKeys else { return nil }
        let h = KeyTable.hash(key)
        let t = tag(h)
        var i = Int(truncatingIfNeeded: h) & mask
        while true {
            let s = slots[i]
            if s == 0 { return nil }
            if mayMatch(s, t) {
                let k = entry(s)
                if intKeys[k] == Int64(bitPattern: h), equal(k, key) { return k }
            }
            i = (i + 1) & mask
        }
    }

    /// Whether key `k` is the byte key `key` (only called once ``hasByteKeys``).
    private func equal(_ k: Int, _ key: UnsafeBufferPointer<UInt8>) -> Bool {
        guard lengths[k] != Self.integerKey else { return false }
        let n = Int(lengths[k])
        guard n == key.count else { return false }
        let o = Int(offsets[k])
        return arena.withUnsafeBufferPointer { a in
            for j in 0 ..< n where a[o + j] != key[j] { return false }
            return true
        }
    }

    private mutating func growIfNeeded() {
        let count = locations.count
        if tagged, count >= Int(Self.indexMask) {
            tagged = false          // indexes need every bit from here on
            rehash(size: slots.count)
        }
        guard count * 10 > slots.count * 7 else { return }
        rehash(size: slots.count * 2)
    }

    private mutating func rehash(size: Int) {
        var fresh = [UInt32](repeating: 0, count: size)
        let m = size - 1
        let count = locations.count
        let hasByteKeys = self.hasByteKeys
        let tagged = self.tagged
        // Without bounds checks: `i` stays within `m`, `k` below `count` (every array's length).
        fresh.withUnsafeMutableBufferPointer { f in
            intKeys.withUnsafeBufferPointer { keys in
                lengths.withUnsafeBufferPointer { lengths in
                    for k in 0 ..< count {
                        let isInteger = !hasByteKeys || lengths[k] == Self.integerKey
                        let h = isInteger ? KeyTable.hash(keys[k]) : UInt64(bitPattern: keys[k])
                        var i = Int(truncatingIfNeeded: h) & m
                        while f[i] != 0 { i = (i &+ 1) & m }
                        let t = tagged ? UInt32(truncatingIfNeeded: h >> 58) << Self.indexBits : 0
                        f[i] = t | UInt32(truncatingIfNeeded: k &+ 1)
                    }
                }
            }
        }
        slots = fresh
        mask = m
    }
}
