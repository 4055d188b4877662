/// Decides whether every possessive quantifier in a tree gives the same answer as its
/// greedy form, and rejects the pattern where it might not.
///
/// A possessive quantifier never gives back what it consumed, so `a*+a` matches nothing in
/// PCRE while `a*a` matches `"aa"`. The automaton cannot express "never give back" in
/// general, but the two forms provably agree when the quantifier repeats a single
/// character class `C` and no scalar in `C` can come right after the repetition: a greedy
/// match that stops early leaves a scalar of `C` that what follows would have to consume.
/// That covers the common uses (`[^,]*+,`, `\d++` at the end); the rest is rejected with
/// a message suggesting the greedy form. A fixed count (`{n}+`) agrees only when every match
/// of its body ends at the same place (the body has one length: `[a-z]{3}+`, `(?:ab|cd){2}+`);
/// otherwise it is atomic in PCRE: `(?:a|ab){1}+c` keeps the first branch that matched, `a`,
/// and never tries `ab`, so it does not match `abc`. Such a count is rejected too.
enum PatternPossessiveCheck {
    /// Throws for the first possessive quantifier that could change the answer.
    /// - Parameter node: the whole pattern.
    /// - Throws: ``PatternError`` at the quantifier's offset.
    static func validate(_ node: PatternNode) throws(PatternError) {
        try visit(node, followedBy: ScalarSet([]))
    }

    /// Checks `node`, given the scalars that can come right after it (the end of the text is
    /// never one of them, so it needs no marker).
    private static func visit(_ node: PatternNode, followedBy follow: ScalarSet) throws(PatternError) {
        switch node {
        case .empty, .set:
            return
        case .concat(let parts):
            var after = follow
            for part in parts.reversed() {
                try visit(part, followedBy: after)
                after = part.isNullable ? part.firstScalars.union(after) : part.firstScalars
            }
        case .alternation(let branches):
            for branch in branches { try visit(branch, followedBy: follow) }
        case .repetition(let body, let quantifier):
            if quantifier.mode == .possessive {
                if quantifier.max != quantifier.min {
                    try checkPossessive(body: body, quantifier: quantifier, followedBy: follow)
                } else if fixedLength(body) == nil {
                    throw PatternError(
                        message: "possessive quantifier '\(quantifier.token)' is not supported here: it repeats a group "
                            + "whose matches have different lengths, and PCRE would never retry a shorter or longer one; "
                            + "use '\(String(quantifier.token.dropLast()))'",
                        offset: quantifier.offset)
                }
            }
            let mayRepeat = quantifier.max.map { $0 > 1 } ?? true
            try visit(body, followedBy: mayRepeat ? follow.union(body.firstScalars) : follow)
        }
    }

    /// The length in scalars of every match of `node`, when all its matches have the same one
    /// (then a match that starts somewhere always ends at the same place, and "never give
    /// back" changes nothing); nil otherwise.
    static func fixedLength(_ node: PatternNode) -> Int? {
        switch node {
        case .empty: return 0
        case .set: return 1
        case .concat(let parts):
            var total = 0
            for part in parts {
                guard let length = fixedLength(part) else { return nil }
                total += length
            }
            return total
        case .alternation(let branches):
            guard let first = branches.first.map(fixedLength) ?? 0 else { return nil }
            return branches.allSatisfy { fixedLength($0) == first } ? first : nil
        case .repetition(let body, let quantifier):
            guard quantifier.max == quantifier.min, let length = fixedLength(body) else { return nil }
            return length * quantifier.min
        }
    }

    /// Throws unless `body` is one class that shares no scalar with `follow`.
    private static func checkPossessive(body: PatternNode, quantifier: Quantifier,
                                        followedBy follow: ScalarSet) throws(PatternError) {
        let greedy = String(quantifier.token.dropLast())
        guard case .set(let set) = body else {
            throw PatternError(
                message: "possessive quantifier '\(quantifier.token)' is only supported on a single character "
                    + "or class; use '\(greedy)'",
                offset: quantifier.offset)
        }
        if set.intersects(follow) {
            throw PatternError(
                message: "possessive quantifier '\(quantifier.token)' is not supported here: what follows can "
                    + "start with a character it repeats, so it would not match where '\(greedy)' does; "
                    + "use '\(greedy)'",
                offset: quantifier.offset)
        }
    }
}
