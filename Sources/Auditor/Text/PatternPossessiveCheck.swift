/// Decides whether every possessive quantifier in a tree gives the same answer as its
/// greedy form, and rejects the pattern where it might not.
///
/// A possessive quantifier never gives back what it consumed, so `a*+a` matches nothing in
/// PCRE while `a*a` matches `"aa"`. The automaton cannot express "never give back" in
/// general, but the two forms provably agree when the quantifier repeats a single
/// character class `C` and no scalar in `C` can come right after the repetition: a greedy
/// match that stops early leaves a scalar of `C` that what follows would have to consume.
/// That covers the common uses (`[^,]*+,`, `\d++` at the end); the rest is rejected with
/// a message suggesting the greedy form. Fixed counts (`{n}+`) always agree.
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
            if quantifier.mode == .possessive, quantifier.max != quantifier.min {
                try checkPossessive(body: body, quantifier: quantifier, followedBy: follow)
            }
            let mayRepeat = quantifier.max.map { $0 > 1 } ?? true
            try visit(body, followedBy: mayRepeat ? follow.union(body.firstScalars) : follow)
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
