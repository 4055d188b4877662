/// The position (Glushkov) automaton of a pattern: a nondeterministic automaton without
/// empty transitions whose states are the pattern's character positions.
///
/// Each position is one set occurrence in the tree once counted repetitions are unrolled.
/// Reading a scalar moves from the current positions to those positions in their follow
/// sets whose set holds the scalar. All position sets are bitsets of ``words`` words.
struct PatternAutomaton: Sendable {
    /// The number of positions.
    let positionCount: Int
    /// 64-bit words per position bitset.
    let words: Int
    /// The scalar classes of the pattern.
    let alphabet: PatternAlphabet
    /// Positions that can match the first scalar.
    let first: [UInt64]
    /// Positions that can match the last scalar.
    let last: [UInt64]
    /// Whether the empty text matches.
    let nullable: Bool
    /// `words` words per position: the positions that can come right after it.
    let follow: [UInt64]
    /// `words` words per class: the positions whose set holds that class.
    let classMasks: [UInt64]

    /// Builds the automaton of a parsed pattern.
    /// - Parameter node: the tree, within ``PatternParser/maxPositions`` positions.
    /// - Throws: ``PatternError`` if the alphabet is too large.
    init(_ node: PatternNode) throws(PatternError) {
        var builder = Builder(positionCount: PatternAutomaton.positionCount(of: node))
        let root = builder.build(node)
        positionCount = builder.positionSet.count
        words = builder.words
        first = builder.bitset(root.first)
        last = builder.bitset(root.last)
        nullable = root.nullable
        follow = builder.follow
        alphabet = try PatternAlphabet(sets: builder.sets)

        var masks = [UInt64](repeating: 0, count: alphabet.classCount * words)
        var positionsOfSet = [[Int]](repeating: [], count: builder.sets.count)
        for (position, set) in builder.positionSet.enumerated() { positionsOfSet[set].append(position) }
        for (cls, sets) in alphabet.setsOfClass.enumerated() {
            for set in sets {
                for position in positionsOfSet[set] { masks[cls * words + position / 64] |= 1 << UInt64(position % 64) }
            }
        }
        classMasks = masks
    }

    /// The number of positions `node` unrolls to (the parser has bounded it).
    static func positionCount(of node: PatternNode) -> Int {
        switch node {
        case .empty: return 0
        case .set: return 1
        case .concat(let parts), .alternation(let parts): return parts.reduce(0) { $0 + positionCount(of: $1) }
        case .repetition(let body, let quantifier):
            return positionCount(of: body) * (quantifier.max ?? max(quantifier.min, 1))
        }
    }

    /// What the construction needs to know about a sub-automaton.
    private struct Fragment {
        var first: [Int32]
        var last: [Int32]
        var nullable: Bool

        static let empty = Fragment(first: [], last: [], nullable: true)
    }

    /// Creates positions and follow sets while walking the tree (McNaughton–Yamada–Glushkov).
    private struct Builder {
        let words: Int
        var follow: [UInt64]
        var positionSet: [Int] = []
        var sets: [ScalarSet] = []
        var setIndex: [ScalarSet: Int] = [:]

        init(positionCount: Int) {
            words = max((positionCount + 63) / 64, 1)
            follow = [UInt64](repeating: 0, count: positionCount * words)
        }

        mutating func build(_ node: PatternNode) -> Fragment {
            switch node {
            case .empty:
                return .empty
            case .set(let set):
                let position = Int32(positionSet.count)
                if let known = setIndex[set] {
                    positionSet.append(known)
                } else {
                    setIndex[set] = sets.count
                    positionSet.append(sets.count)
                    sets.append(set)
                }
                return Fragment(first: [position], last: [position], nullable: false)
            case .concat(let parts):
                var result = Fragment.empty
                for part in parts { result = concat(result, build(part)) }
                return result
            case .alternation(let branches):
                var result = Fragment(first: [], last: [], nullable: false)
                for branch in branches {
                    let fragment = build(branch)
                    result.first += fragment.first
                    result.last += fragment.last
                    result.nullable = result.nullable || fragment.nullable
                }
                return result
            case .repetition(let body, let quantifier):
                return repetition(body, min: quantifier.min, max: quantifier.max)
            }
        }

        /// `body{min,max}` unrolled: `min` copies, then either a looping copy (no maximum)
        /// or `max - min` nested optional copies, `(b(b(b)?)?)?`.
        private mutating func repetition(_ body: PatternNode, min: Int, max: Int?) -> Fragment {
            var result = Fragment.empty
            guard let max else {
                let copies = Swift.max(min, 1)
                for copy in 0..<copies {
                    var fragment = build(body)
                    if copy == copies - 1 {
                        link(fragment.last, to: fragment.first)
                        if min == 0 { fragment.nullable = true }
                    }
                    result = concat(result, fragment)
                }
                return result
            }
            for _ in 0..<min { result = concat(result, build(body)) }
            var tail: Fragment?
            for _ in 0..<(max - min) {
                var optional = build(body)
                if let inner = tail { optional = concat(optional, inner) }
                optional.nullable = true
                tail = optional
            }
            if let tail { result = concat(result, tail) }
            return result
        }

        /// `a` then `b`.
        private mutating func concat(_ a: Fragment, _ b: Fragment) -> Fragment {
            link(a.last, to: b.first)
            return Fragment(first: a.nullable ? a.first + b.first : a.first,
                            last: b.nullable ? b.last + a.last : b.last,
                            nullable: a.nullable && b.nullable)
        }

        /// Adds every position of `targets` to the follow set of every position of `sources`.
        private mutating func link(_ sources: [Int32], to targets: [Int32]) {
            guard !targets.isEmpty else { return }
            let mask = bitset(targets)
            for source in sources {
                let base = Int(source) * words
                for word in 0..<words { follow[base + word] |= mask[word] }
            }
        }

        /// A bitset of positions.
        func bitset(_ positions: [Int32]) -> [UInt64] {
            var bits = [UInt64](repeating: 0, count: words)
            for position in positions { bits[Int(position) / 64] |= 1 << UInt64(position % 64) }
            return bits
        }
    }
}
