@_spi(Testing)
extension Pattern {
    /// For fuzzing and tests: `source` compiled to every matcher it can use: as ``init(_:)``
    /// chooses, without the one-class fast path (the deterministic automaton when it fits),
    /// and with the nondeterministic simulation forced. All must answer alike.
    /// - Throws: ``PatternError`` exactly when ``init(_:)`` does.
    public static func everyMatcher(_ source: String) throws(PatternError) -> [Pattern] {
        [try Pattern(source),
         try Pattern(source, maxDFAStates: PatternDFA.maxStates, allowClassRun: false),
         try Pattern(source, maxDFAStates: 0, allowClassRun: false)]
    }
}
