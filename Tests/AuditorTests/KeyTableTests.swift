import Auditor
import Testing

/// ``KeyTable`` against a dictionary model: dense indexes in insertion order, the first
/// location kept, lookups of present and absent keys, for integer-only tables and for tables
/// where byte keys arrive after thousands of integers (and integers after byte keys).
@Suite struct KeyTableTests {
    enum Key: Hashable {
        case integer(Int64)
        case bytes([UInt8])
    }

    static func insert(_ table: KeyTable, _ key: Key, _ location: Int64) -> (index: Int, first: Int64?) {
        switch key {
        case .integer(let v): return table.insert(v, location: location)
        case .bytes(let b): return b.withUnsafeBufferPointer { table.insert($0, location: location) }
        }
    }

    static func index(_ table: KeyTable, _ key: Key) -> Int? {
        switch key {
        case .integer(let v): return table.index(of: v)
        case .bytes(let b): return b.withUnsafeBufferPointer { table.index(of: $0) }
        }
    }

    /// Inserts `keys` in order and checks every answer against the model, then looks up
    /// every key and `absent` ones. Every 64 keys, the integers among the next 64 are
    /// prefetched first, as the merge does per chunk (across growths: a stale mask only
    /// touches other slots).
    static func check(_ keys: [Key], absent: [Key], capacity: Int = 1024) {
        let table = KeyTable(capacity: capacity)
        var model = [Key: (index: Int, first: Int64)]()
        for (n, key) in keys.enumerated() {
            if n % 64 == 0 {
                let ints = keys[n ..< min(n + 64, keys.count)].compactMap { k -> Int64? in
                    if case .integer(let v) = k { return v } else { return nil }
                }
                ints.withUnsafeBufferPointer { table.prefetch($0) }
            }
            let location = Int64(n + 2)
            let got = insert(table, key, location)
            if let known = model[key] {
                guard got.index == known.index, got.first == known.first else {
                    Issue.record("insert(\(key)) = \(got), expected \(known)")
                    return
                }
            } else {
                guard got.index == model.count, got.first == nil else {
                    Issue.record("insert(new \(key)) = \(got), expected (\(model.count), nil)")
                    return
                }
                model[key] = (model.count, location)
            }
        }
        #expect(table.count == model.count)
        for (key, known) in model {
            guard index(table, key) == known.index, table.locations[known.index] == known.first else {
                Issue.record("index(of: \(key)) = \(String(describing: index(table, key))), expected \(known.index)")
                return
            }
        }
        for key in absent where model[key] == nil {
            guard index(table, key) == nil else {
                Issue.record("index(of: absent \(key)) = \(String(describing: index(table, key)))")
                return
            }
        }
    }

    @Test func integerKeysOnly() {
        var random = SplitMix64(state: 1)
        let keys = (0 ..< 50_000).map { _ in Key.integer(Int64.random(in: -20_000 ... 20_000, using: &random)) }
        let absent = (0 ..< 2_000).map { Key.integer(Int64($0) * 7919 + 30_000) } + [.bytes([0x69, 1]), .bytes([])]
        Self.check(keys, absent: absent)
        Self.check(keys, absent: absent, capacity: 1)
        Self.check([.integer(.min), .integer(.max), .integer(0), .integer(.min), .integer(-1)], absent: [.integer(1)])
    }

    @Test func byteKeysAfterIntegersAndIntegersAfterByteKeys() {
        var random = SplitMix64(state: 2)
        var keys = (0 ..< 5_000).map { _ in Key.integer(Int64.random(in: 0 ..< 3_000, using: &random)) }
        for _ in 0 ..< 20_000 {
            if Bool.random(using: &random) {
                keys.append(.integer(Int64.random(in: 0 ..< 6_000, using: &random)))
            } else {
                let length = Int.random(in: 0 ... 9, using: &random)
                keys.append(.bytes((0 ..< length).map { _ in UInt8.random(in: 0 ... 3, using: &random) }))
            }
        }
        let absent: [Key] = [.integer(-1), .integer(6_000), .bytes([9]), .bytes([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0])]
        Self.check(keys, absent: absent)
        // Byte keys first, then integers only.
        Self.check(Array(keys.reversed()), absent: absent, capacity: 1)
    }

    /// What `--memory-limit` is checked against, counted from the keys, so that the same keys
    /// give the same figure on every run: the slots (4 bytes each, a power of two kept under a
    /// 0.7 load), and each per-key array at the power of two that doubling grows it to.
    @Test func memoryBytesFollowTheKeys() {
        func grown(_ count: Int) -> Int {
            var c = 16
            while c < count { c *= 2 }
            return count == 0 ? 0 : c
        }
        func slots(_ count: Int) -> Int {
            var size = 16
            while count * 10 > size * 7 { size *= 2 }
            return size
        }
        for n in [1, 17, 1_000, 70_000] {
            let ints = KeyTable(capacity: 1), texts = KeyTable(capacity: 1)
            var bytes = 0
            for k in 0 ..< n {
                ints.insert(Int64(k) * 7919, location: Int64(k))
                let key = Array("key-\(k)".utf8)
                bytes += key.count
                key.withUnsafeBufferPointer { _ = texts.insert($0, location: Int64(k)) }
            }
            // An integer key: the key and its location.
            #expect(ints.memoryBytes == slots(n) * 4 + grown(n) * (8 + 8), "\(n) integers")
            // A byte key: its hash, offset, length and location, and its bytes.
            #expect(texts.memoryBytes == slots(n) * 4 + grown(n) * (8 + 4 + 4 + 8) + grown(bytes), "\(n) texts")
        }
    }
}
