/// The equivalence classes of scalars for one pattern: two scalars share a class when every
/// set in the pattern holds both or neither, so the automaton needs one transition per class
/// instead of one per scalar.
///
/// Scalars below U+0800 (ASCII and every 2-byte UTF-8 sequence, Latin-1 included) are
/// classified by a 2,048-entry table; the rest by binary search over sorted runs.
struct PatternAlphabet: Sendable {
    /// Scalars below this value are classified by table.
    static let tableSize = 0x800
    /// The most classes a pattern may have (class ids are 16-bit).
    static let maxClasses = 0xFFFF

    /// The class of each scalar below ``tableSize``.
    let lowClasses: [UInt16]
    /// Sorted starts of the runs of scalars at or above ``tableSize`` that share a class;
    /// the first is ``tableSize``.
    let highStarts: [UInt32]
    /// The class of each run in ``highStarts``.
    let highClasses: [UInt16]
    /// The number of classes.
    let classCount: Int
    /// For each class, the indexes of the sets that hold it.
    let setsOfClass: [[Int]]

    /// Computes the classes of `sets`.
    /// - Parameter sets: the distinct sets of a pattern.
    /// - Throws: ``PatternError`` if the sets split the scalars into more than
    ///   ``maxClasses`` classes.
    init(sets: [ScalarSet]) throws(PatternError) {
        // Cut the scalar range at every range boundary; each piece lies wholly in or out of every set.
        var cuts: [UInt32] = [0]
        for set in sets {
            for range in set.ranges {
                cuts.append(range.lowerBound)
                if range.upperBound < ScalarSet.maxScalar { cuts.append(range.upperBound + 1) }
            }
        }
        cuts = Array(Set(cuts)).sorted()

        // The signature of a piece: one bit per set holding it.
        let words = (sets.count + 63) / 64
        var signatures = [UInt64](repeating: 0, count: cuts.count * words)
        for (setIndex, set) in sets.enumerated() {
            for range in set.ranges {
                var piece = PatternAlphabet.lastIndex(in: cuts, notAbove: range.lowerBound)
                while piece < cuts.count, cuts[piece] <= range.upperBound {
                    signatures[piece * words + setIndex / 64] |= 1 << UInt64(setIndex % 64)
                    piece += 1
                }
            }
        }

        // Pieces with equal signatures form one class.
        var classOfSignature: [ArraySlice<UInt64>: Int] = [:]
        var pieceClasses: [Int] = []
        var setsOfClass: [[Int]] = []
        pieceClasses.reserveCapacity(cuts.count)
        for piece in 0..<cuts.count {
            let signature = signatures[piece * words ..< (piece + 1) * words]
            if let known = classOfSignature[signature] {
                pieceClasses.append(known)
                continue
            }
            guard setsOfClass.count < PatternAlphabet.maxClasses else {
                throw PatternError(message: "pattern is too large: it distinguishes more than "
                                   + "\(PatternAlphabet.maxClasses) kinds of characters", offset: 0)
            }
            classOfSignature[signature] = setsOfClass.count
            pieceClasses.append(setsOfClass.count)
            let base = signature.startIndex
            setsOfClass.append((0..<sets.count).filter { signature[base + $0 / 64] >> UInt64($0 % 64) & 1 != 0 })
        }

        var low = [UInt16](repeating: 0, count: PatternAlphabet.tableSize)
        var highStarts: [UInt32] = []
        var highClasses: [UInt16] = []
        for piece in 0..<cuts.count {
            let start = cuts[piece]
            let end = piece + 1 < cuts.count ? cuts[piece + 1] : ScalarSet.maxScalar + 1  // exclusive
            let id = UInt16(pieceClasses[piece])
            if start < UInt32(PatternAlphabet.tableSize) {
                for scalar in Int(start)..<Int(min(end, UInt32(PatternAlphabet.tableSize))) { low[scalar] = id }
            }
            if end > UInt32(PatternAlphabet.tableSize), highClasses.last != id {
                highStarts.append(max(start, UInt32(PatternAlphabet.tableSize)))
                highClasses.append(id)
            }
        }
        self.lowClasses = low
        self.highStarts = highStarts
        self.highClasses = highClasses
        self.classCount = setsOfClass.count
        self.setsOfClass = setsOfClass
    }

    /// The class of a scalar at or above ``tableSize`` (callers use ``lowClasses`` below it).
    /// - Complexity: O(log r) for r runs.
    func highClass(_ scalar: UInt32) -> Int {
        Int(highClasses[PatternAlphabet.lastIndex(in: highStarts, notAbove: scalar)])
    }

    /// The class of any scalar.
    @inline(__always)
    func classify(_ scalar: UInt32) -> Int {
        scalar < UInt32(PatternAlphabet.tableSize) ? Int(lowClasses[Int(scalar)]) : highClass(scalar)
    }

    /// The index of the last element of `sorted` that is ≤ `value` (0 if none is).
    static func lastIndex(in sorted: [UInt32], notAbove value: UInt32) -> Int {
        var low = 0
        var high = sorted.count  // invariant: sorted[..<low] ≤ value < sorted[high...]
        while low < high {
            let mid = (low + high) / 2
            if sorted[mid] <= value { low = mid + 1 } else { high = mid }
        }
        return max(low - 1, 0)
    }
}
