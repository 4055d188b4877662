/// The fast path for the commonest pattern shape: one class repeated, such as
/// `[A-Za-zÀ-ÖØ-öø-ÿ ]+`, `\d{4}` or `[a-z]{2,}`. Matching is a membership test per
/// scalar and a count, with no automaton at all.
struct PatternClassRun: Sendable {
    /// One bit per scalar below ``PatternAlphabet/tableSize``: 32 words.
    let lowBits: [UInt64]
    /// The class, for scalars at or above ``PatternAlphabet/tableSize``.
    let set: ScalarSet
    /// The fewest scalars allowed.
    let min: Int
    /// The most scalars allowed (`Int.max` for no limit).
    let max: Int

    /// The fast path for `node`, or `nil` if it is not one class with an optional quantifier.
    init?(_ node: PatternNode) {
        switch node {
        case .set(let set):
            self.init(set: set, min: 1, max: 1)
        case .repetition(.set(let set), let quantifier):
            self.init(set: set, min: quantifier.min, max: quantifier.max ?? Int.max)
        default:
            return nil
        }
    }

    private init(set: ScalarSet, min: Int, max: Int) {
        var bits = [UInt64](repeating: 0, count: PatternAlphabet.tableSize / 64)
        let limit = UInt32(PatternAlphabet.tableSize)
        for range in set.ranges where range.lowerBound < limit {
            for scalar in range.lowerBound...Swift.min(range.upperBound, limit - 1) {
                bits[Int(scalar / 64)] |= 1 << UInt64(scalar % 64)
            }
        }
        self.lowBits = bits
        self.set = set
        self.min = min
        self.max = max
    }

    /// Whether the whole text is between ``min`` and ``max`` scalars of the class.
    /// - Parameter text: UTF-8 bytes; ill-formed UTF-8 never matches.
    /// - Complexity: O(n) in the text's length.
    func matches(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = text.baseAddress, text.count > 0 else { return min == 0 }
        let end = text.count
        // A scalar takes 1 to 4 bytes: a quick count check before reading anything.
        if end < min || (end + 3) / 4 > max { return false }
        return lowBits.withUnsafeBufferPointer { bits in
            var index = 0
            var count = 0
            while index < end {
                let byte = base[index]
                if byte < 0x80 {
                    guard bits[Int(byte >> 6)] >> UInt64(byte & 63) & 1 != 0 else { return false }
                    index += 1
                } else {
                    let scalar = PatternUTF8.decodeMultiByte(base, at: &index, end: end)
                    if scalar == PatternUTF8.invalid { return false }
                    if scalar < UInt32(PatternAlphabet.tableSize) {
                        guard bits[Int(scalar >> 6)] >> UInt64(scalar & 63) & 1 != 0 else { return false }
                    } else if !set.contains(scalar) {
                        return false
                    }
                }
                count += 1
            }
            return count >= min && count <= max
        }
    }
}
