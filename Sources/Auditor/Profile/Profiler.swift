import Foundation

/// Profiles inputs: one streaming pass per source over the reader's chunks, the columns of
/// each chunk profiled in parallel (one thread per column, so the result does not depend on the
/// number of threads), memory bounded by the distinct-value bound and the key columns.
package enum Profiler {
    /// Profiles one source.
    /// - Parameters:
    ///   - reader: An open reader (its schema names the columns to profile).
    ///   - name: The source's name (an entity is named after it in suggested rules).
    ///   - path: The input's path as the user gave it.
    ///   - format: `csv`, `xml`, `sqlite`...
    ///   - jobs: Threads for the columns of a chunk.
    /// - Returns: The source's profile.
    /// - Throws: ``AuditError`` when the input cannot be read.
    /// - Complexity: O(records × columns); memory O(columns × distinct bound + key values).
    public static func profile(_ reader: any RecordReader, name: String, path: String, format: String,
                               options: [String: String] = [:], jobs: Int = 1,
                               chunkSize: Int = 8192) throws -> SourceProfile {
        let fields = reader.schema.fields
        var columns = fields.map { ColumnProfiler(name: $0) }
        var masks = [UInt64: Int]()            // missing-column bit masks (first 64 columns)
        var order = OrderCounter(count: fields.count)
        var conditional = ConditionalBounds(count: fields.count)
        var excludedRecords = 0
        var composite = CompositeKeyTracker()
        // With several jobs, the pipeline parses ahead while the columns of the last chunk are profiled.
        let failure = Pipeline.run(reader: reader, chunkSize: chunkSize, jobs: jobs, evaluate: { $0 }) { chunk, _ in
            var excluded = [Bool](repeating: false, count: chunk.count)
            for issue in chunk.issues where issue.excludesRecord && !excluded[issue.row] {
                excluded[issue.row] = true
                excludedRecords += 1
            }
            let box = ColumnsBox(columns)
            // The box must hold the only reference: else the threads' first writes each copy the
            // shared array at once (copy-on-write from several threads: heap corruption).
            columns = []
            let instants = InstantsBox(count: fields.count)
            let excludedCopy = excluded
            DispatchQueue.concurrentPerform(iterations: fields.count) { c in
                instants.values[c] = box.columns[c].add(chunk.columns[c], chunk, excluded: excludedCopy)
            }
            columns = box.columns
            var rowMasks = [UInt64](repeating: 0, count: chunk.count)
            for c in 0 ..< min(64, fields.count) {
                let column = chunk.columns[c]
                for r in 0 ..< chunk.count where column[r].tag == .missing { rowMasks[r] |= 1 << UInt64(c) }
            }
            var none = 0
            for r in 0 ..< chunk.count where !excluded[r] {
                if rowMasks[r] == 0 { none += 1 } else { masks[rowMasks[r], default: 0] += 1 }
            }
            if none > 0 { masks[0, default: 0] += none }
            composite.add(chunk, excluded: excluded)
            order.add(instants.values.map(\.instants))
            conditional.add(instants.values)
        }
        if let failure { throw failure }
        try reader.finish()
        let finished = columns.map { $0.finish() }
        var profile = SourceProfile(name: name, path: path, format: format, records: finished.first?.facts.records ?? 0,
                                    excludedRecords: excludedRecords, columns: finished, options: options)
        profile.dependencies = dependencies(finished, masks: masks, order: order) + conditional.dependencies(finished)
        // Composite keys matter only when no column is a key on its own.
        if !finished.contains(where: \.isKey) {
            profile.compositeKeys = composite.keys.map { $0.map { fields[$0] } }
        }
        return profile
    }

    /// Null-together and never-after dependencies between columns.
    static func dependencies(_ columns: [ColumnProfile], masks: [UInt64: Int], order: OrderCounter) -> [Dependency] {
        var out = [Dependency]()
        let n = min(64, columns.count)
        // Null together is an equivalence: each column is paired with the first of its class
        // only (k columns give k − 1 rules, not k(k − 1)/2; the others follow).
        var paired = Set<Int>()
        for i in 0 ..< n where !paired.contains(i) {
            for j in i + 1 ..< n where columns[i].facts.missing > 0 && columns[j].facts.missing > 0 {
                var differ = 0
                for (m, count) in masks where (m >> UInt64(i)) & 1 != (m >> UInt64(j)) & 1 { differ += count }
                if differ == 0 {
                    paired.insert(j)
                    out.append(Dependency(kind: .nullTogether, first: columns[i].name, second: columns[j].name,
                                          checked: columns[i].facts.records, violations: 0))
                }
            }
        }
        for i in 0 ..< columns.count {
            for j in 0 ..< columns.count where i != j {
                guard let t1 = columns[i].inferredType, let t2 = columns[j].inferredType,
                      t1 == .date || t1 == .datetime, t2 == .date || t2 == .datetime else { continue }
                let k = i * columns.count + j
                let both = order.both[k], after = order.after[k]
                // i never after j: suggested when it holds for every record with both values
                // and the two are not the same column order both ways (equal everywhere).
                if both > 0, after == 0, order.after[j * columns.count + i] > 0 {
                    out.append(Dependency(kind: .notAfter, first: columns[i].name, second: columns[j].name,
                                          checked: both, violations: 0, firstType: t1, secondType: t2))
                }
            }
        }
        return out
    }
}

/// A parsed date or date-time (kind 1 date, 2 date-time, 0 none), in seconds since 1970.
struct Instant: Sendable {
    var kind: UInt8 = 0
    var seconds: Int64 = 0
    var fraction = false
}

/// Counts, per ordered pair of columns, the records where both hold an instant and where
/// the first is (or may be) after the second.
struct OrderCounter: Sendable {
    let count: Int
    var both: [Int]
    var after: [Int]

    init(count: Int) {
        self.count = count
        both = [Int](repeating: 0, count: count * count)
        after = [Int](repeating: 0, count: count * count)
    }

    static func day(_ seconds: Int64) -> Int64 {
        seconds >= 0 ? seconds / 86400 : (seconds - 86399) / 86400
    }

    mutating func add(_ instants: [[Instant]]) {
        let active = (0 ..< count).filter { c in instants[c].contains { $0.kind != 0 } }
        guard active.count > 1, let rows = instants.first?.count else { return }
        for i in active {
            for j in active where i != j {
                let k = i * count + j
                for r in 0 ..< rows {
                    let a = instants[i][r], b = instants[j][r]
                    guard a.kind != 0, b.kind != 0 else { continue }
                    both[k] += 1
                    // A date against a date-time compares with the date-time's UTC date.
                    let (x, y) = a.kind == b.kind ? (a.seconds, b.seconds) : (Self.day(a.seconds), Self.day(b.seconds))
                    // Equal seconds with a fraction on either side: cannot tell, counted as after.
                    if x > y || (x == y && a.kind == 2 && b.kind == 2 && (a.fraction || b.fraction)) { after[k] += 1 }
                }
            }
        }
    }
}

/// Holds the column profilers while threads update one each (each index is written by one
/// thread only, and read after `concurrentPerform` returns). Its array must not be shared
/// meanwhile, so that no write copies it.
final class ColumnsBox: @unchecked Sendable {
    var columns: [ColumnProfiler]
    init(_ columns: [ColumnProfiler]) { self.columns = columns }
}

/// Per-column instants of one chunk, one index per thread (see ``ColumnsBox``).
final class InstantsBox: @unchecked Sendable {
    var values: [RowValues]
    init(count: Int) { values = [RowValues](repeating: RowValues(), count: count) }
}

/// For each boolean column and integer column: the smallest integer where the boolean is
/// true, and how the integers of the other records are spread (exactly, up to 10,000 values),
/// to find "when B is true, N is at least m" (a licence from 16 on).
struct ConditionalBounds: Sendable {
    let count: Int
    var minTrue: [Int: Double] = [:]
    var trueRows: [Int: Int] = [:]
    var others: [Int: [Double: Int]] = [:]
    var overflow: Set<Int> = []

    init(count: Int) { self.count = count }

    mutating func add(_ values: [RowValues]) {
        let bools = (0 ..< count).filter { values[$0].booleans.contains { $0 != 0 } }
        let ints = (0 ..< count).filter { c in values[c].integers.contains { !$0.isNaN } }
        for b in bools {
            for n in ints where n != b {
                let k = b * count + n
                var lo = minTrue[k] ?? .infinity
                var rows = trueRows[k] ?? 0
                var hist = others[k] ?? [:]
                for r in 0 ..< values[b].booleans.count {
                    let v = values[n].integers[r]
                    guard !v.isNaN else { continue }
                    if values[b].booleans[r] == 1 {
                        rows += 1
                        lo = Swift.min(lo, v)
                    } else if !overflow.contains(k) {
                        hist[v, default: 0] += 1
                        if hist.count > 10_000 { overflow.insert(k); hist = [:] }
                    }
                }
                minTrue[k] = lo
                trueRows[k] = rows
                others[k] = hist
            }
        }
    }

    /// "When B, N ≥ m", where at least 20 records have B true and at least 1 % of the other
    /// records with an integer N lie below m (so the bound says something B-specific).
    func dependencies(_ columns: [ColumnProfile]) -> [Dependency] {
        var out = [Dependency]()
        for (k, lo) in minTrue.sorted(by: { $0.key < $1.key }) where lo.isFinite && !overflow.contains(k) {
            let b = k / count, n = k % count
            guard columns[b].inferredType == .boolean, columns[n].inferredType == .integer,
                  let rows = trueRows[k], rows >= 20, let hist = others[k] else { continue }
            let total = hist.values.reduce(0, +)
            let below = hist.filter { $0.key < lo }.values.reduce(0, +)
            guard total > 0, Double(below) >= 0.01 * Double(total) else { continue }
            var d = Dependency(kind: .atLeastWhen, first: columns[n].name, second: columns[b].name, checked: rows, violations: 0)
            d.bound = String(Int64(lo))
            out.append(d)
        }
        return out
    }
}

/// What a profile found in one column.
package struct ColumnProfile: Sendable {
    public var name: String
    public var facts: ColumnFacts
    /// Distinct present values (text): exact, or a HyperLogLog estimate.
    public var distinct: Int
    public var distinctIsEstimate: Bool
    /// The most frequent values; approximate once the distinct bound was passed (counts of
    /// the values seen before it).
    public var top: [ProfileValueCount]
    public var topIsApproximate: Bool
    /// Every distinct value with its count, when exact.
    public var values: [ProfileValueCount]?
    /// Present in every record and unique (by typed value).
    public var isKey: Bool
    /// Typed hashes of the key values, for foreign-key inclusion (nil when not a key).
    var keyHashes: HashSet64?

    /// The type the source's options read the column as (a `decimalComma:` column's decimals, a
    /// `dateFormat:` column's dates), which the profile chose from its first values.
    public var readAs: ValueType?

    /// The most specific type at least 99 % of the present values have: boolean, integer,
    /// decimal, date, date-time; else ``readAs`` when at least 90 % have it, as the options were
    /// chosen (the others are its outliers); else string.
    public var inferredType: ValueType? {
        guard facts.present > 0 else { return nil }
        for t in [ValueType.boolean, .integer, .decimal, .date, .datetime] {
            if let v = facts.types[t]?.valid, Double(v) >= 0.99 * Double(facts.present) { return t }
        }
        if let t = readAs, let v = facts.types[t]?.valid, v * 10 >= facts.present * 9 { return t }
        return .string
    }

    /// `list` or `map` when every present value is one (JSON Lines arrays and objects, Parquet
    /// `LIST` and `MAP` values): the column's rules are then its counts and keys, not a text's.
    public var composite: String? {
        guard facts.present > 0 else { return nil }
        return facts.lists == facts.present ? "list" : facts.maps == facts.present ? "map" : nil
    }

    /// Present values of the inferred type.
    public var typeValid: Int {
        guard let t = inferredType else { return 0 }
        return t == .string ? facts.present : facts.types[t]?.valid ?? 0
    }
}

/// A relation between two columns of one source.
package struct Dependency: Sendable {
    public enum Kind: String, Sendable {
        case nullTogether = "null together", notAfter = "never after"
        /// `first` is at least `bound` where the boolean `second` is true.
        case atLeastWhen = "at least, when"
    }
    public var kind: Kind
    public var first: String
    public var second: String
    /// Records the relation was checked on, and those that broke it.
    public var checked: Int
    public var violations: Int
    public var firstType: ValueType? = nil
    public var secondType: ValueType? = nil
    /// The bound of ``Kind/atLeastWhen``.
    public var bound: String? = nil
}

/// What a profile found in one source.
package struct SourceProfile: Sendable {
    public var name: String
    public var path: String
    public var format: String
    public var records: Int
    /// Records a structural issue excludes (ragged CSV rows): flagged outliers.
    public var excludedRecords: Int
    public var columns: [ColumnProfile]
    /// Reader options the source needs (`table`, `record`, a CSV `delimiter` its first records
    /// tell), for suggested rules.
    public var options: [String: String]
    /// Columns read as numbers or dates that are written otherwise (a CSV's `decimalComma:`, `dateFormat:`).
    public var readings = ColumnReadings()
    public var dependencies: [Dependency] = []
    /// Sets of two or three columns that together are present in every record and unique,
    /// when no single column is (``CompositeKeyTracker``).
    public var compositeKeys: [[String]] = []
}
