/// A set of Unicode scalar values, kept as sorted, disjoint, non-adjacent closed ranges.
///
/// Every literal, `.`, escape and bracket class of a ``Pattern`` becomes one of these, so
/// the automaton only ever deals with "one scalar from this set".
struct ScalarSet: Hashable, Sendable {
    /// The largest Unicode scalar value.
    static let maxScalar: UInt32 = 0x10_FFFF

    /// Sorted, disjoint, non-adjacent ranges.
    private(set) var ranges: [ClosedRange<UInt32>]

    /// A set from any ranges: sorts them and merges overlapping or adjacent ones.
    /// - Parameter ranges: ranges within `0...maxScalar`, in any order.
    init<S: Sequence>(_ ranges: S) where S.Element == ClosedRange<UInt32> {
        let sorted = ranges.sorted { $0.lowerBound < $1.lowerBound }
        var merged: [ClosedRange<UInt32>] = []
        merged.reserveCapacity(sorted.count)
        for range in sorted {
            if let previous = merged.last, range.lowerBound <= previous.upperBound &+ 1 {
                if range.upperBound > previous.upperBound {
                    merged[merged.count - 1] = previous.lowerBound...range.upperBound
                }
            } else {
                merged.append(range)
            }
        }
        self.ranges = merged
    }

    /// The set holding exactly one scalar.
    init(scalar: UInt32) {
        self.ranges = [scalar...scalar]
    }

    /// True when the set holds no scalar.
    var isEmpty: Bool { ranges.isEmpty }

    /// The single scalar of a one-element set, or `nil`.
    var singleScalar: UInt32? {
        if ranges.count == 1, let only = ranges.first, only.lowerBound == only.upperBound {
            return only.lowerBound
        }
        return nil
    }

    /// Whether `scalar` is in the set.
    /// - Complexity: O(log r) for r ranges.
    func contains(_ scalar: UInt32) -> Bool {
        var low = 0
        var high = ranges.count
        while low < high {
            let mid = (low + high) / 2
            let range = ranges[mid]
            if scalar < range.lowerBound {
                high = mid
            } else if scalar > range.upperBound {
                low = mid + 1
            } else {
                return true
            }
        }
        return false
    }

    /// Every scalar in `0...maxScalar` that is not in this set.
    func inverted() -> ScalarSet {
        var result: [ClosedRange<UInt32>] = []
        var next: UInt32 = 0
        for range in ranges {
            if range.lowerBound > next { result.append(next...(range.lowerBound - 1)) }
            next = range.upperBound &+ 1
        }
        if next <= ScalarSet.maxScalar { result.append(next...ScalarSet.maxScalar) }
        var set = ScalarSet([])
        set.ranges = result
        return set
    }

    /// The scalars in either set.
    func union(_ other: ScalarSet) -> ScalarSet {
        ScalarSet(ranges + other.ranges)
    }

    /// Whether the two sets share a scalar.
    func intersects(_ other: ScalarSet) -> Bool {
        var i = 0
        var j = 0
        while i < ranges.count, j < other.ranges.count {
            let a = ranges[i]
            let b = other.ranges[j]
            if a.overlaps(b) { return true }
            if a.upperBound < b.upperBound { i += 1 } else { j += 1 }
        }
        return false
    }

    // MARK: Named sets (ASCII meanings, as documented on ``Pattern``)

    /// `\d`: `[0-9]`.
    static let digit = ScalarSet([0x30...0x39])
    /// `\w`: `[A-Za-z0-9_]`.
    static let word = ScalarSet([0x30...0x39, 0x41...0x5A, 0x5F...0x5F, 0x61...0x7A])
    /// `\s`: space, `\t`, `\n`, `\v`, `\f`, `\r`.
    static let space = ScalarSet([0x09...0x0D, 0x20...0x20])
    /// `.`: every scalar except `\n`.
    static let dot = ScalarSet([0x00...0x09, 0x0B...maxScalar])
}

/// How a quantifier chooses among its repetition counts.
enum QuantifierMode: Sendable, Equatable {
    /// `*`, `+`, `?`, `{n,m}`.
    case greedy
    /// `*?`, `+?`, `??`, `{n,m}?`: the same answer as greedy for a full-match test.
    case lazy
    /// `*+`, `++`, `?+`, `{n,m}+`: accepted only where it gives the same answer as greedy
    /// (checked by ``PatternPossessiveCheck``).
    case possessive
}

/// A quantifier as written: its bounds, mode and where it stands in the pattern.
struct Quantifier: Sendable, Equatable {
    var min: Int
    /// `nil` for no upper bound.
    var max: Int?
    var mode: QuantifierMode
    /// The scalar offset of the quantifier in the pattern.
    var offset: Int
    /// The quantifier's text, for messages (`'{2,}+'`).
    var token: String
}

/// The syntax tree of a pattern. Groups leave no node of their own (captures are not
/// reported), and redundant anchors are dropped by the parser.
indirect enum PatternNode: Sendable, Equatable {
    /// Matches the empty string.
    case empty
    /// Matches one scalar from the set.
    case set(ScalarSet)
    /// Matches the parts one after the other.
    case concat([PatternNode])
    /// Matches any one of the branches.
    case alternation([PatternNode])
    /// Matches the body between `quantifier.min` and `quantifier.max` times.
    case repetition(PatternNode, Quantifier)

    /// Whether the node matches the empty string.
    var isNullable: Bool {
        switch self {
        case .empty: return true
        case .set: return false
        case .concat(let parts): return parts.allSatisfy(\.isNullable)
        case .alternation(let branches): return branches.contains(where: \.isNullable)
        case .repetition(let body, let quantifier): return quantifier.min == 0 || body.isNullable
        }
    }

    /// The scalars that can start a non-empty match of the node.
    var firstScalars: ScalarSet {
        switch self {
        case .empty:
            return ScalarSet([])
        case .set(let set):
            return set
        case .concat(let parts):
            var result = ScalarSet([])
            for part in parts {
                result = result.union(part.firstScalars)
                if !part.isNullable { break }
            }
            return result
        case .alternation(let branches):
            return branches.reduce(ScalarSet([])) { $0.union($1.firstScalars) }
        case .repetition(let body, let quantifier):
            return quantifier.max == 0 ? ScalarSet([]) : body.firstScalars
        }
    }
}
