/// Simulates the position automaton directly, one bitset of live positions at a time: the
/// fallback for patterns whose deterministic automaton would be too large
/// (`[ab]*a[ab]{20}` needs millions of states).
///
/// Still linear in the text: each scalar costs at most O(p²/64) word operations for p
/// positions, with no backtracking.
struct PatternNFA: Sendable {
    /// The automaton being simulated.
    let automaton: PatternAutomaton

    /// Whether the whole text matches.
    /// - Parameter text: UTF-8 bytes; ill-formed UTF-8 never matches.
    /// - Complexity: O(n · p · p/64) for n bytes and p positions; usually far less, since
    ///   only the live positions are expanded.
    func matches(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = text.baseAddress, text.count > 0 else { return automaton.nullable }
        let end = text.count
        let words = automaton.words
        let alphabet = automaton.alphabet
        return withUnsafeTemporaryAllocation(of: UInt64.self, capacity: 2 * words) { scratch in
            guard let scratchBase = scratch.baseAddress else { return false }
            // `candidates`: positions that may match the next scalar; `live`: those that did.
            let candidates = scratchBase
            let live = scratchBase + words
            for word in 0..<words {
                candidates[word] = automaton.first[word]
                live[word] = 0
            }
            return automaton.classMasks.withUnsafeBufferPointer { masks in
                automaton.follow.withUnsafeBufferPointer { follow in
                    var index = 0
                    while index < end {
                        let byte = base[index]
                        let scalar: UInt32
                        if byte < 0x80 {
                            scalar = UInt32(byte)
                            index += 1
                        } else {
                            scalar = PatternUTF8.decodeMultiByte(base, at: &index, end: end)
                            if scalar == PatternUTF8.invalid { return false }
                        }
                        let mask = alphabet.classify(scalar) * words
                        var any: UInt64 = 0
                        for word in 0..<words {
                            live[word] = candidates[word] & masks[mask + word]
                            any |= live[word]
                            candidates[word] = 0
                        }
                        if any == 0 { return false }
                        for word in 0..<words {
                            var bits = live[word]
                            while bits != 0 {
                                let row = (word * 64 + bits.trailingZeroBitCount) * words
                                for target in 0..<words { candidates[target] |= follow[row + target] }
                                bits &= bits &- 1
                            }
                        }
                    }
                    for word in 0..<words where live[word] & automaton.last[word] != 0 { return true }
                    return false
                }
            }
        }
    }
}
