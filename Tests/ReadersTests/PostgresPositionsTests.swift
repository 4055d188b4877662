import AuditorReaders
import Testing

/// ``PostgresPositions``: the ordinals of rows that arrive in any order with their `ctid`,
/// against the rank of each position among all of them (sorting, in the test).
@Suite("PostgreSQL positions to ordinals")
struct PostgresPositionsTests {
    static func position(_ text: String) -> UInt64? {
        Array(text.utf8).withUnsafeBufferPointer { PostgresPositions.position(of: $0) }
    }

    @Test("a ctid at the start of a COPY row, and what is not one")
    func parsesPositions() {
        #expect(Self.position("(0,1)\tt\t0\n") == 1)
        #expect(Self.position("(4294967295,291)\tf") == 4_294_967_295 << 16 | 291)
        #expect(Self.position("(12,7)") == 12 << 16 | 7)
        for wrong in ["", "(1,2", "(,2)\t", "(1,)\t", "1,2)\t", "(4294967296,1)\t", "(1,65536)\t", "(-1,2)\t", "(1 ,2)\t", "\\N\tt"] {
            #expect(Self.position(wrong) == nil, "\(wrong)")
        }
    }

    @Test("ordinals are the ranks of the kept positions among every position noted, in any order of arrival",
          arguments: [1, 2, 3, 4, 5])
    func ordinalsAreRanks(seed: UInt64) throws {
        var random = SplitMix64(state: seed)
        var positions = PostgresPositions(blockSize: 8192)
        // Blocks with gaps (dead tuples), empty blocks, offsets up to 291 (8 kB pages).
        var all = [UInt64]()
        for block in 0 ..< UInt64(40 + random.next() % 40) where random.next() % 7 != 0 {
            let top = 1 + random.next() % 291
            for offset in 1 ... top where random.next() % 4 != 0 { all.append(block << 16 | offset) }
        }
        var arrival = all
        for i in arrival.indices.reversed() { arrival.swapAt(i, Int(random.next() % UInt64(i + 1))) }
        var keptText = [UInt64: String]()
        for p in arrival {
            let fresh = positions.note(p)
            #expect(fresh)
            if random.next() % 9 == 0 {
                let row = "(\(p >> 16),\(p & 0xFFFF))\tf\t\(random.next() % 1000)\n"
                keptText[p] = row
                Array(row.utf8).withUnsafeBufferPointer { positions.keep($0, at: p) }
            }
        }
        #expect(positions.rows == all.count)
        let rank = Dictionary(uniqueKeysWithValues: all.sorted().enumerated().map { ($1, Int64($0 + 1)) })
        let ordered = positions.ordered()
        #expect(ordered.count == keptText.count)
        let expected = keptText.keys.sorted()
        for (got, p) in zip(ordered, expected) {
            #expect(got.ordinal == rank[p])
            let text = positions.withRow(start: got.start, count: got.count) { String(decoding: $0, as: UTF8.self) }
            #expect(text == keptText[p])
        }
    }

    @Test("a position noted twice, or beyond what a block of that size holds, is refused")
    func refusesImpossiblePositions() {
        var positions = PostgresPositions(blockSize: 8192)
        let block: UInt64 = 3 << 16
        let noted = [block | 5, block | 5, block | 291, block | 320].map { positions.note($0) }
        #expect(noted == [true, false, true, false])
        var large = PostgresPositions(blockSize: 32768)      // 1,169 tuples a block
        let big = large.note(1 << 16 | 1169)
        #expect(big && positions.rows == 2 && large.rows == 1)
    }
}
