/// The ordinals of a pushed-down read of a heap table whose rows come in any order: a
/// parallel plan (``PostgresReader``) sends each row with its `ctid`, `(block,offset)`.
///
/// A serial scan (what streaming reads, `synchronize_seqscans` off) visits blocks from 0 and
/// each block's tuples by line pointer, so a record's ordinal is 1 + the number of rows at
/// smaller positions. Every position sent is marked in a bitmap (one bit per line pointer the
/// block size allows: 40 bytes per 8 kB block); the rows to read as records are kept, and
/// come out sorted by position with that ordinal.
///
/// - Memory: the bitmap (about 0.8 byte per row of a table of 150-byte rows) and the bytes of
///   the rows kept.
package struct PostgresPositions {
    private let wordsPerBlock: Int
    private var seen: [UInt64] = []
    private var arena: [UInt8] = []
    private var kept: [(position: UInt64, start: Int, count: Int)] = []
    /// Rows noted.
    package private(set) var rows = 0

    /// `blockSize`: the server's `block_size` (a block holds at most
    /// `(blockSize - 24) / 28` tuples: page header, tuple header and line pointer).
    package init(blockSize: Int) {
        wordsPerBlock = max(1, (blockSize - 24) / 28) / 64 + 1
    }

    /// The position `(block,offset)` a COPY text row starts with, as block << 16 | offset.
    package static func position(of row: UnsafeBufferPointer<UInt8>) -> UInt64? {
        guard row.count > 4, row[0] == UInt8(ascii: "(") else { return nil }
        var i = 1
        var block: UInt64 = 0, offset: UInt64 = 0
        var digits = 0
        while i < row.count, row[i] >= 0x30, row[i] <= 0x39, digits < 10 { block = block * 10 + UInt64(row[i] - 0x30); i += 1; digits += 1 }
        guard digits > 0, block <= UInt64(UInt32.max), i < row.count, row[i] == UInt8(ascii: ",") else { return nil }
        i += 1
        digits = 0
        while i < row.count, row[i] >= 0x30, row[i] <= 0x39, digits < 5 { offset = offset * 10 + UInt64(row[i] - 0x30); i += 1; digits += 1 }
        guard digits > 0, offset <= UInt64(UInt16.max), i < row.count, row[i] == UInt8(ascii: ")") else { return nil }
        return block << 16 | offset
    }

    /// Marks `position`. - Returns: false when it cannot be a line pointer of this block size,
    /// or was noted before (a row sent twice would be counted twice).
    package mutating func note(_ position: UInt64) -> Bool {
        let block = Int(position >> 16), offset = Int(position & 0xFFFF)
        guard offset < wordsPerBlock * 64 else { return false }
        let word = block * wordsPerBlock + offset / 64
        if word >= seen.count { seen.append(contentsOf: repeatElement(0, count: max(word + 1, seen.count * 2) - seen.count)) }
        let bit = UInt64(1) << UInt64(offset % 64)
        guard seen[word] & bit == 0 else { return false }
        seen[word] |= bit
        rows += 1
        return true
    }

    /// Keeps a copy of `row`, noted at `position`, to read as a record.
    package mutating func keep(_ row: UnsafeBufferPointer<UInt8>, at position: UInt64) {
        kept.append((position, arena.count, row.count))
        arena.append(contentsOf: row)
    }

    /// The rows kept, by position, each with its ordinal (1-based among every row noted).
    package func ordered() -> [(ordinal: Int64, start: Int, count: Int)] {
        let sorted = kept.sorted { $0.position < $1.position }
        var out = [(ordinal: Int64, start: Int, count: Int)]()
        out.reserveCapacity(sorted.count)
        var before: Int64 = 0          // rows in the blocks before `block`
        var block = 0
        for row in sorted {
            let b = Int(row.position >> 16), offset = Int(row.position & 0xFFFF)
            while block < b {
                for w in 0 ..< wordsPerBlock where block * wordsPerBlock + w < seen.count {
                    before += Int64(seen[block * wordsPerBlock + w].nonzeroBitCount)
                }
                block += 1
            }
            var within: Int64 = 0
            for w in 0 ... offset / 64 {
                let word = seen[b * wordsPerBlock + w]
                within += Int64((w < offset / 64 ? word : word & ((UInt64(1) << UInt64(offset % 64)) - 1)).nonzeroBitCount)
            }
            out.append((before + within + 1, row.start, row.count))
        }
        return out
    }

    /// Calls `body` with the bytes of a kept row (`start`, `count` from ``ordered()``).
    package func withRow<R>(start: Int, count: Int, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        arena.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[start ..< start + count])) }
    }
}
