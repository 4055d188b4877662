/// A deterministic automaton over scalar classes, built in full when the pattern is compiled
/// (subset construction over the position automaton), so matching is one table lookup per
/// scalar and never allocates.
///
/// Construction gives up (and the caller falls back to ``PatternNFA``) past ``maxStates``
/// states, ``maxTableEntries`` transitions or ``maxWork`` bitset operations, which bounds
/// both the memory and the time a pathological pattern can cost.
struct PatternDFA: Sendable {
    /// The default state limit.
    static let maxStates = 4096
    /// The transition table limit (states × classes): 4 MiB of `Int32`.
    static let maxTableEntries = 1 << 20
    /// The construction budget, in 64-bit word operations (tens of milliseconds).
    static let maxWork = 1 << 26

    /// The scalar classes.
    let alphabet: PatternAlphabet
    /// One row of ``classCount`` entries per state; an entry is the next state's row
    /// offset. State 0, at offset 0, is the dead state.
    let transitions: [Int32]
    /// Whether each state (by index, not offset) accepts.
    let accepting: [Bool]
    /// The start state's row offset.
    let start: Int
    /// The number of scalar classes (the row length).
    let classCount: Int

    /// A state of the subset construction: the positions that may match the next scalar,
    /// and whether the text may end here.
    private struct StateKey: Hashable {
        var candidates: [UInt64]
        var accepting: Bool
    }

    /// Builds the automaton, or returns `nil` when it would exceed a limit.
    /// - Parameters:
    ///   - automaton: the position automaton.
    ///   - maxStates: the state limit (tests lower it to force the fallback).
    init?(_ automaton: PatternAutomaton, maxStates: Int = PatternDFA.maxStates) {
        let words = automaton.words
        let classes = automaton.alphabet.classCount
        var keys: [StateKey] = []
        var ids: [StateKey: Int] = [:]
        var table: [Int32] = []
        var work = 0

        /// The id of a state, registering it if new; `nil` past the state limit.
        func id(of key: StateKey) -> Int? {
            if let known = ids[key] { return known }
            guard keys.count < maxStates, (keys.count + 1) * classes <= PatternDFA.maxTableEntries else { return nil }
            ids[key] = keys.count
            keys.append(key)
            return keys.count - 1
        }

        let zero = [UInt64](repeating: 0, count: words)
        guard id(of: StateKey(candidates: zero, accepting: false)) == 0,
              let startID = id(of: StateKey(candidates: automaton.first, accepting: automaton.nullable))
        else { return nil }

        var matched = zero
        var next = zero
        var state = 0
        while state < keys.count {
            let candidates = keys[state].candidates
            table.append(contentsOf: repeatElement(0, count: classes))
            for cls in 0..<classes {
                if work > PatternDFA.maxWork { return nil }
                // The positions that match a scalar of this class…
                var any: UInt64 = 0
                for word in 0..<words {
                    matched[word] = candidates[word] & automaton.classMasks[cls * words + word]
                    any |= matched[word]
                }
                work += words
                if any == 0 { continue }  // stays 0: dead
                // …and the positions that may come after them.
                var accepts = false
                for word in 0..<words {
                    next[word] = 0
                    accepts = accepts || matched[word] & automaton.last[word] != 0
                }
                for word in 0..<words {
                    var bits = matched[word]
                    while bits != 0 {
                        let row = (word * 64 + bits.trailingZeroBitCount) * words
                        for target in 0..<words { next[target] |= automaton.follow[row + target] }
                        bits &= bits &- 1
                        work += words
                    }
                }
                guard let target = id(of: StateKey(candidates: next, accepting: accepts)) else { return nil }
                table[state * classes + cls] = Int32(target * classes)
            }
            state += 1
        }
        self.alphabet = automaton.alphabet
        self.transitions = table
        self.accepting = keys.map(\.accepting)
        self.start = startID * classes
        self.classCount = classes
    }

    /// The number of states, the dead state included.
    var stateCount: Int { accepting.count }

    /// Whether the whole text matches.
    /// - Parameter text: UTF-8 bytes; ill-formed UTF-8 never matches.
    /// - Complexity: O(n) in the text's length: one table lookup per scalar.
    func matches(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = text.baseAddress, text.count > 0 else { return accepting[start / classCount] }
        let end = text.count
        return transitions.withUnsafeBufferPointer { table in
            alphabet.lowClasses.withUnsafeBufferPointer { low in
                var state = start
                var index = 0
                while index < end {
                    let byte = base[index]
                    let cls: Int
                    if byte < 0x80 {
                        cls = Int(low[Int(byte)])
                        index += 1
                    } else {
                        let scalar = PatternUTF8.decodeMultiByte(base, at: &index, end: end)
                        if scalar == PatternUTF8.invalid { return false }
                        cls = scalar < UInt32(PatternAlphabet.tableSize)
                            ? Int(low[Int(scalar)]) : alphabet.highClass(scalar)
                    }
                    state = Int(table[state + cls])
                    if state == 0 { return false }
                }
                return accepting[state / classCount]
            }
        }
    }
}
