import Foundation

/// Profiles inputs: one streaming pass per source over the reader's chunks, the columns of
/// each chunk profiled in parallel (one thread per column, so the result does not depend on the
/// number of threads), memory bounded by the distinct-value bound and the key columns.
public enum Profiler {
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
        var excludedRecords = 0
        while let chunk = try reader.nextChunk(maxRecords: chunkSize) {
            var excluded = [Bool](repeating: false, count: chunk.count)
            for issue in chunk.issues where issue.excludesRecord && !excluded[issue.row] {
                excluded[issue.row] = true
                excludedRecords += 1
            }
            let box = ColumnsBox(columns)
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
            order.add(instants.values)
        }
        try reader.finish()
        let finished = columns.map { $0.finish() }
        var profile = SourceProfile(name: name, path: path, format: format, records: finished.first?.facts.records ?? 0,
                                    excludedRecords: excludedRecords, columns: finished, options: options)
        profile.dependencies = dependencies(finished, masks: masks, order: order)
        return profile
    }

    /// Null-together and never-after dependencies between columns.
    static func dependencies(_ columns: [ColumnProfile], masks: [UInt64: Int], order: OrderCounter) -> [Dependency] {
        var out = [Dependency]()
        let n = min(64, columns.count)
        for i in 0 ..< n {
            for j in i + 1 ..< n where columns[i].facts.missing > 0 && columns[j].facts.missing > 0 {
                var differ = 0
                for (m, count) in masks where (m >> UInt64(i)) & 1 != (m >> UInt64(j)) & 1 { differ += count }
                if differ == 0 {
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
/// thread only, and read after `concurrentPerform` returns).
final class ColumnsBox: @unchecked Sendable {
    var columns: [ColumnProfiler]
    init(_ columns: [ColumnProfiler]) { self.columns = columns }
}

/// Per-column instants of one chunk, one index per thread (see ``ColumnsBox``).
final class InstantsBox: @unchecked Sendable {
    var values: [[Instant]]
    init(count: Int) { values = [[Instant]](repeating: [], count: count) }
}

/// What a profile found in one column.
public struct ColumnProfile: Sendable {
    public var name: String
    public var facts: ColumnFacts
    /// Distinct present values (text): exact, or a HyperLogLog estimate.
    public var distinct: Int
    public var distinctIsEstimate: Bool
    /// The most frequent values; approximate once the distinct bound was passed (counts of
    /// the values seen before it).
    public var top: [ValueCount]
    public var topIsApproximate: Bool
    /// Every distinct value with its count, when exact.
    public var values: [ValueCount]?
    /// Present in every record and unique (by typed value).
    public var isKey: Bool
    /// Typed hashes of the key values, for foreign-key inclusion (nil when not a key).
    var keyHashes: HashSet64?

    /// The most specific type at least 99 % of the present values have (string otherwise):
    /// boolean, integer, decimal, date, date-time.
    public var inferredType: ValueType? {
        guard facts.present > 0 else { return nil }
        for t in [ValueType.boolean, .integer, .decimal, .date, .datetime] {
            if let v = facts.types[t]?.valid, Double(v) >= 0.99 * Double(facts.present) { return t }
        }
        return .string
    }

    /// Present values of the inferred type.
    public var typeValid: Int {
        guard let t = inferredType else { return 0 }
        return t == .string ? facts.present : facts.types[t]?.valid ?? 0
    }
}

/// A relation between two columns of one source.
public struct Dependency: Sendable {
    public enum Kind: String, Sendable { case nullTogether = "null together", notAfter = "never after" }
    public var kind: Kind
    public var first: String
    public var second: String
    /// Records the relation was checked on, and those that broke it.
    public var checked: Int
    public var violations: Int
    public var firstType: ValueType? = nil
    public var secondType: ValueType? = nil
}

/// What a profile found in one source.
public struct SourceProfile: Sendable {
    public var name: String
    public var path: String
    public var format: String
    public var records: Int
    /// Records a structural issue excludes (ragged CSV rows): flagged outliers.
    public var excludedRecords: Int
    public var columns: [ColumnProfile]
    /// Reader options the source needs (`table`, `record`), for suggested rules.
    public var options: [String: String]
    public var dependencies: [Dependency] = []
}
