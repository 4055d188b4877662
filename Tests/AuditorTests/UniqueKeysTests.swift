import Auditor
import Testing

/// ``UniqueKeys`` against a dictionary model: for every insert, whether the key was seen and
/// where it first occurred, across growths from small and from a size estimate that is far
/// too low or right, with byte keys mixed in, locations that need more than 32 bits, and the
/// extreme integers.
@Suite struct UniqueKeysTests {
    enum Key: Hashable {
        case integer(Int64)
        case bytes([UInt8])
    }

    static func check(_ keys: [Key], locations: (Int) -> Int64 = { Int64($0 + 2) }, expected: Int? = nil) {
        var table = UniqueKeys(expected: expected)
        var model = [Key: Int64]()
        for (n, key) in keys.enumerated() {
            if n % 64 == 0 {
                let ints = keys[n ..< min(n + 64, keys.count)].compactMap { k -> Int64? in
                    if case .integer(let v) = k { return v } else { return nil }
                }
                ints.withUnsafeBufferPointer { table.prefetch($0) }
            }
            let location = locations(n)
            let got: Int64?
            switch key {
            case .integer(let v): got = table.insert(v, location: location)
            case .bytes(let b): got = b.withUnsafeBufferPointer { table.insert($0, location: location) }
            }
            guard got == model[key] else {
                Issue.record("insert #\(n) \(key) = \(String(describing: got)), expected \(String(describing: model[key]))")
                return
            }
            if model[key] == nil { model[key] = location }
        }
        #expect(table.count == model.count)
    }

    @Test func integerKeysAcrossGrowths() {
        var random = SplitMix64(state: 3)
        let keys = (0 ..< 200_000).map { _ in Key.integer(Int64.random(in: -60_000 ... 60_000, using: &random)) }
        Self.check(keys)
        Self.check(keys, expected: 1_000)          // far too low: every part grows
        Self.check(keys, expected: 120_001)        // about right: no growth
        Self.check([.integer(.min), .integer(.max), .integer(0), .integer(.min), .integer(-1), .integer(0)])
    }

    @Test func sparseKeysInTheHashTable() {
        // Random 64-bit keys (as snowflake ids): the range form gives way at the second key.
        var random = SplitMix64(state: 6)
        var keys = [Key]()
        for n in 0 ..< 100_000 {
            if n > 0, n % 7 == 0, case .integer(let earlier) = keys[Int.random(in: 0 ..< n, using: &random)] {
                keys.append(.integer(earlier))
            } else {
                keys.append(.integer(Int64.random(in: .min ... .max, using: &random)))
            }
        }
        Self.check(keys)
        Self.check(keys, expected: 100_000)
    }

    @Test func denseKeysThenAnOutlierMoveToTheHashTable() {
        // Dense ids, descending and ascending around a middle, then keys far away: every key
        // seen in the range form is still known after the move.
        var keys = (0 ..< 30_000).map { Key.integer(Int64(50_000 - $0)) }
        keys += (0 ..< 30_000).map { Key.integer(Int64(50_000 + $0)) }
        keys += [.integer(9_000_000_000), .integer(42), .integer(.max), .integer(.min), .integer(77_777), .integer(.max)]
        keys += (0 ..< 5_000).map { Key.integer(Int64($0 * 13)) }
        Self.check(keys)
        Self.check(keys, expected: 70_000)
        // Near the ends of Int64: widening must not overflow.
        Self.check([.integer(.max), .integer(.max - 1), .integer(.max - 70_000), .integer(.max), .integer(.min),
                    .integer(.min + 1), .integer(.max - 1)])
        Self.check([.integer(.min), .integer(.min + 1), .integer(.min + 50_000), .integer(.min + 3), .integer(.min)])
    }

    @Test func sequentialIdsWithDuplicates() {
        // The benchmark's shape: ids 1...n with a few repeats of earlier ids.
        var keys = (1 ... 100_000).map { Key.integer(Int64($0)) }
        for i in stride(from: 500, to: keys.count, by: 997) { keys[i] = keys[i / 3] }
        Self.check(keys, expected: 100_000)
    }

    @Test func wideLocations() {
        // Negative rowids and locations beyond 32 bits are kept exactly.
        var random = SplitMix64(state: 4)
        let keys = (0 ..< 20_000).map { _ in Key.integer(Int64.random(in: 0 ..< 8_000, using: &random)) }
        Self.check(keys, locations: { n in
            switch n % 4 {
            case 0: return -Int64(n) - 1
            case 1: return Int64(UInt32.max) + Int64(n)
            case 2: return Int64(UInt32.max) - 2 - Int64(n % 3)
            default: return Int64(n)
            }
        })
    }

    @Test func byteKeysBesideIntegers() {
        var random = SplitMix64(state: 5)
        let keys = (0 ..< 30_000).map { _ -> Key in
            if Bool.random(using: &random) { return .integer(Int64.random(in: 0 ..< 5_000, using: &random)) }
            let length = Int.random(in: 0 ... 6, using: &random)
            return .bytes((0 ..< length).map { _ in UInt8.random(in: 0 ... 3, using: &random) })
        }
        Self.check(keys)
    }
}
