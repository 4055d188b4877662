import Auditor
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

    /// Arrival as a parallel scan sends rows: the blocks dealt out to 1–4 processes in chunks,
    /// each process sending its blocks' rows in order, the processes' streams interleaved at
    /// random. Kept rows held in memory (`1 << 30`), or spilled to the temporary file in runs of
    /// a few rows (`200` bytes) or of one row (`1`), then merged.
    @Test("ordinals are the ranks of the kept positions among every position noted, blocks interleaved",
          arguments: [1, 2, 3, 4, 5], [1 << 30, 200, 1])
    func ordinalsAreRanks(seed: UInt64, memory: Int) throws {
        var random = SplitMix64(state: seed)
        var positions = PostgresPositions(blockSize: 8192, blocks: Int(seed % 3) * 20, memory: memory)
        // Blocks with gaps (dead tuples), empty blocks, offsets up to 291 (8 kB pages).
        var byBlock = [[UInt64]]()
        for block in 0 ..< UInt64(40 + random.next() % 40) {
            let top = random.next() % 7 == 0 ? 0 : 1 + random.next() % 291
            byBlock.append(top == 0 ? [] : (1 ... top).filter { _ in random.next() % 4 != 0 }.map { block << 16 | $0 })
        }
        let all = byBlock.flatMap { $0 }
        var streams = Array(repeating: [UInt64](), count: Int(1 + random.next() % 4))
        var block = 0
        while block < byBlock.count {
            let chunk = Int(1 + random.next() % 5)
            for b in block ..< min(byBlock.count, block + chunk) { streams[Int(random.next() % UInt64(streams.count))] += byBlock[b] }
            block += chunk
        }
        var keptText = [UInt64: String]()
        var next = Array(repeating: 0, count: streams.count)
        while let s = streams.indices.filter({ next[$0] < streams[$0].count }).randomElement(using: &random) {
            let p = streams[s][next[s]]
            next[s] += 1
            let noted = positions.note(p)
            let rank = try #require(noted)
            if random.next() % 9 == 0 {
                let row = "(\(p >> 16),\(p & 0xFFFF))\tf\t\(random.next() % 1000)\n"
                keptText[p] = row
                try Array(row.utf8).withUnsafeBufferPointer { row in
                    try Result { () throws(AuditError) in try positions.keep(row, at: p, rank: rank) }.get()
                }
            }
        }
        #expect(positions.rows == all.count)
        #expect(memory > 1000 ? positions.spilledRuns == 0 : positions.spilledRuns > 1)
        let rank = Dictionary(uniqueKeysWithValues: all.sorted().enumerated().map { ($1, Int64($0 + 1)) })
        var read = [(ordinal: Int64, text: String)]()
        while let row = try positions.next({ (ordinal: $0, text: String(decoding: $1, as: UTF8.self)) }) { read.append(row) }
        #expect(read.count == keptText.count)
        for (got, p) in zip(read, keptText.keys.sorted()) {
            #expect(got.ordinal == rank[p])
            #expect(got.text == keptText[p])
        }
        #expect(try positions.next { _, _ in 0 } == nil)
    }

    @Test("a position noted twice, before one of its block, or beyond what a block of that size holds, is refused")
    func refusesImpossiblePositions() {
        var positions = PostgresPositions(blockSize: 8192)
        let block: UInt64 = 3 << 16
        var noted = [Int?]()
        for p: UInt64 in [block | 5, block | 5, block | 4, 9 << 16 | 1, block | 7, block | 291, block | 292, block | 0] {
            noted.append(positions.note(p))
        }
        #expect(noted == [1, nil, nil, 1, 2, 3, nil, nil])
        var large = PostgresPositions(blockSize: 32768)      // 1,169 tuples a block
        let big = (large.note(1 << 16 | 1169), large.note(2 << 16 | 1170))
        #expect(big.0 == 1 && big.1 == nil)
        #expect(positions.rows == 4 && large.rows == 1)
    }
}
