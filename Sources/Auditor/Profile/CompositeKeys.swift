/// Candidate composite keys: small sets of columns (two or three) whose values together are
/// present in every record and never repeat, found in the profile's one pass.
///
/// The first chunk proposes the sets, unless a column is a key there on its own: among the
/// columns present in all of its records, the pairs (then, when no pair is unique there, the
/// triples) that are unique in that chunk, the most distinct first, at most ``maxTracked``. Every later record is then checked exactly: a
/// set is dropped at its first missing component or repeated combination. A combination is
/// hashed from its values compared coarsely (a number by its value, so `1`, `01` and `1.0`
/// are one value; other text by its bytes), so a set is never reported unique when the audit,
/// comparing by the declared type, could find a repeat; a hash collision can only hide a key,
/// never invent one. Memory: one 64-bit hash per record per tracked set, up to ``keyLimit``
/// records (then the sets are "unverified" and not suggested).
struct CompositeKeyTracker: Sendable {
    static let maxTracked = 4
    static let maxColumns = 16
    static let keyLimit = ColumnProfiler.keyLimit

    private(set) var started = false
    private var sets: [(columns: [Int], seen: HashSet64)] = []
    private var overLimit = false

    /// Adds a chunk (rows that a structural issue excludes are skipped, as the audit skips them).
    mutating func add(_ chunk: RecordChunk, excluded: [Bool]) {
        if !started {
            started = true
            sets = Self.propose(chunk, excluded: excluded).map { ($0, HashSet64()) }
        }
        guard !sets.isEmpty, !overLimit else { return }
        chunk.bytes.withUnsafeBufferPointer { bytes in
            var kept = [(columns: [Int], seen: HashSet64)]()
            for var set in sets {
                var unique = true
                for r in 0 ..< chunk.count where !excluded[r] {
                    guard let h = Self.combined(set.columns, r, chunk, bytes), set.seen.insert(h) else {
                        unique = false
                        break
                    }
                }
                if unique { kept.append(set) }
            }
            sets = kept
        }
        if sets.contains(where: { $0.seen.count > Self.keyLimit }) {
            overLimit = true
            sets = []
        }
    }

    /// The sets still unique and complete after the last chunk, as column indexes.
    var keys: [[Int]] { overLimit ? [] : sets.map(\.columns) }

    /// The pairs, else triples, unique and complete in `chunk`, most distinct first.
    static func propose(_ chunk: RecordChunk, excluded: [Bool]) -> [[Int]] {
        let rows = (0 ..< chunk.count).filter { !excluded[$0] }
        guard rows.count >= 2 else { return [] }
        return chunk.bytes.withUnsafeBufferPointer { bytes -> [[Int]] in
            // Complete columns, by their distinct count in the chunk.
            var complete = [(column: Int, distinct: Int)]()
            var singleKey = false
            for c in chunk.columns.indices {
                var seen = HashSet64()
                var present = true
                for r in rows {
                    guard let h = value(chunk.columns[c][r], bytes) else { present = false; break }
                    _ = seen.insert(h)
                }
                // A column unique on its own is a key already; a constant adds nothing.
                if present, seen.count == rows.count { singleKey = true }
                if present, seen.count > 1, seen.count < rows.count { complete.append((c, seen.count)) }
            }
            // A column that is a key in the first chunk most likely stays one: then no set is
            // tracked, and the pass costs nothing more (the benchmark's people have an id).
            if singleKey { return [] }
            let candidates = complete.sorted { $0.distinct != $1.distinct ? $0.distinct > $1.distinct : $0.column < $1.column }
                .prefix(maxColumns).map(\.column)
            func uniqueInChunk(_ set: [Int]) -> Bool {
                var seen = HashSet64()
                for r in rows {
                    guard let h = combined(set, r, chunk, bytes), seen.insert(h) else { return false }
                }
                return true
            }
            var found = [[Int]]()
            for size in 2 ... 3 where found.isEmpty {
                for set in combinations(candidates.count, size) {
                    let columns = set.map { candidates[$0] }.sorted()
                    if uniqueInChunk(columns) { found.append(columns) }
                    if found.count == maxTracked { break }
                }
            }
            return found
        }
    }

    /// The index sets of `size` elements of `0 ..< n`, in lexicographic order.
    static func combinations(_ n: Int, _ size: Int) -> [[Int]] {
        guard size <= n else { return [] }
        var out = [[Int]]()
        var current = Array(0 ..< size)
        while true {
            out.append(current)
            var i = size - 1
            while i >= 0 && current[i] == n - size + i { i -= 1 }
            if i < 0 { return out }
            current[i] += 1
            for j in i + 1 ..< size { current[j] = current[j - 1] + 1 }
        }
    }

    /// The hash of one record's values in `columns`; nil when one is missing.
    static func combined(_ columns: [Int], _ r: Int, _ chunk: RecordChunk, _ bytes: UnsafeBufferPointer<UInt8>) -> UInt64? {
        var h: UInt64 = 0x243F6A8885A308D3
        for c in columns {
            guard let v = value(chunk.columns[c][r], bytes) else { return nil }
            h = Hashing.mix(h ^ v)
        }
        return h
    }

    /// A value compared coarsely: numbers by their (double) value, text by its bytes; nil
    /// when missing.
    static func value(_ cell: Cell, _ bytes: UnsafeBufferPointer<UInt8>) -> UInt64? {
        switch cell.tag {
        case .missing: return nil
        case .integer: return number(Double(cell.integerValue))
        case .real: return number(cell.realValue)
        case .text, .blob:
            let p = UnsafeBufferPointer(rebasing: bytes[Int(cell.payload) ..< Int(cell.payload) + Int(cell.length)])
            if cell.tag == .text, let first = p.first, (first >= 0x30 && first <= 0x39) || first == 0x2D || first == 0x2B || first == 0x2E {
                let i = ByteParsers.integer(p)
                if i.valid { return number(Double(i.value)) }
                let d = ByteParsers.comparableDecimal(p)
                if d.valid { return number(d.value) }
            }
            return Hashing.tagged(3, Hashing.bytes(p))
        case .list, .map:
            return nil      // a list or map is no key component
        }
    }

    private static func number(_ v: Double) -> UInt64 { Hashing.tagged(1, (v == 0 ? 0 : v).bitPattern) }
}
