import Testing
@testable import Auditor

/// One pattern with texts it must fully match and texts it must not.
struct PatternCase: Sendable, CustomTestStringConvertible {
    var pattern: String
    var matching: [String]
    var nonMatching: [String]

    init(_ pattern: String, _ matching: [String], _ nonMatching: [String] = []) {
        self.pattern = pattern
        self.matching = matching
        self.nonMatching = nonMatching
    }

    var testDescription: String { "/\(pattern)/" }
}

/// The pattern compiled with each matching strategy it can use: automatic, the
/// deterministic automaton without the class-run fast path, and the bitset simulation.
func compiledVariants(_ source: String) throws(PatternError) -> [Pattern] {
    [try Pattern(source),
     try Pattern(source, maxDFAStates: PatternDFA.maxStates, allowClassRun: false),
     try Pattern(source, maxDFAStates: 0, allowClassRun: false)]
}

/// Checks a case against every strategy.
func check(_ testCase: PatternCase, sourceLocation: SourceLocation = #_sourceLocation) throws {
    for pattern in try compiledVariants(testCase.pattern) {
        let label = "/\(testCase.pattern)/ [\(pattern.strategy)]"
        for text in testCase.matching {
            let matched = pattern.matches(text)
            #expect(matched, "\(label) should match \(text.debugDescription)", sourceLocation: sourceLocation)
        }
        for text in testCase.nonMatching {
            let matched = pattern.matches(text)
            #expect(!matched, "\(label) should not match \(text.debugDescription)", sourceLocation: sourceLocation)
        }
    }
}

@Suite("Pattern syntax")
struct PatternSyntaxTests {
    static let literalCases: [PatternCase] = [
        PatternCase("", [""], ["a", " "]),
        PatternCase("abc", ["abc"], ["", "ab", "abcd", "xabc", "ABC", "abc\n"]),
        PatternCase("é😀ü", ["é😀ü"], ["e😀ü", "é😀", "e\u{301}😀ü"]),
        PatternCase("a.c", ["abc", "a c", "aéc", "a😀c", "a\rc", "a\u{2028}c"], ["ac", "a\nc", "abbc", "a😀😀c"]),
        PatternCase(".", ["\u{0}", "é", "😀"], ["", "\n", "e\u{301}"]),
        PatternCase("\\d+", ["0", "0123456789"], ["", "a", "\u{661}", "12a"]),
        PatternCase("\\D", ["a", "é", "\n"], ["5", ""]),
        PatternCase("\\w+", ["A_z9", "_"], ["é", "-", " ", ""]),
        PatternCase("\\W", ["é", "-", " "], ["a", "_", "0", "Z"]),
        PatternCase("\\s", [" ", "\t", "\n", "\r", "\u{0C}", "\u{0B}"], ["a", "\u{A0}", "\u{2028}", ""]),
        PatternCase("\\S", ["a", "\u{A0}"], [" ", "\t"]),
        PatternCase("\\.\\\\\\-\\[\\]\\(\\)\\{\\}\\|\\*\\+\\?\\^\\$\\/", [".\\-[](){}|*+?^$/"], ["a"]),
        PatternCase("\\@\\#\\ \\,\\&\\~\\'\\\"", ["@# ,&~'\""]),
        PatternCase("\\t\\n\\r\\f\\v", ["\t\n\r\u{0C}\u{0B}"], ["tnrfv"]),
        PatternCase("\\x41\\x{e9}\\x{1F600}\\u00FC\\x{0}", ["Aé😀ü\u{0}"], ["Ae😀ü\u{0}"]),
        PatternCase("]}", ["]}"]),
    ]

    static let classCases: [PatternCase] = [
        PatternCase("[abc]", ["a", "b", "c"], ["", "d", "ab"]),
        PatternCase("[a-cx-z]+", ["abcxyz"], ["d", "w"]),
        PatternCase("[^abc]", ["d", "é", "\n", "😀"], ["a", "", "dd"]),
        PatternCase("[A-Za-zÀ-ÖØ-öø-ÿ]", ["é", "À", "ÿ"], ["×", "÷", "Ā", "e\u{301}"]),
        PatternCase("[😀-😂]", ["😁"], ["😃", "😀😁"]),
        PatternCase("[\\d.]", ["5", "."], ["a"]),
        PatternCase("[\\D]", ["a"], ["5"]),
        PatternCase("[^\\W_]", ["a", "7"], ["_", "-", "é"]),
        PatternCase("[\\s,]", [" ", ",", "\t"], ["a"]),
        PatternCase("[-a]", ["-", "a"], ["b"]),
        PatternCase("[a-]", ["-", "a"], ["b"]),
        PatternCase("[^-a]", ["b"], ["-", "a"]),
        PatternCase("[]a]", ["]", "a"], ["b"]),
        PatternCase("[^]a]", ["b"], ["]", "a"]),
        PatternCase("[\\]\\[\\-\\^\\\\]", ["]", "[", "-", "^", "\\"], ["a"]),
        PatternCase("[a^]", ["^", "a"], ["b"]),
        PatternCase("[.*+?(){}|$]", [".", "*", "+", "?", "(", ")", "{", "}", "|", "$"], ["a", "\\"]),
        PatternCase("[\\x41-\\x{43}\\u00e9]", ["A", "B", "C", "é"], ["D"]),
        PatternCase("[+--]", ["+", ",", "-"], ["."]),
        PatternCase("[a-a]", ["a"], ["b"]),
    ]

    static let groupCases: [PatternCase] = [
        PatternCase("(ab)+", ["ab", "abab"], ["", "aba", "abb"]),
        PatternCase("(?:ab|c)*d", ["d", "abcd", "ccabd"], ["abd ", "ad", "abc"]),
        PatternCase("(?<year>\\d{4})-(?<month>\\d{2})", ["2024-01"], ["24-01", "2024-1"]),
        PatternCase("ab|cd", ["ab", "cd"], ["abcd", "ad", "abd", "acd", "b", ""]),
        PatternCase("a|b|c", ["a", "b", "c"], ["ab", ""]),
        PatternCase("a|", ["a", ""], ["aa"]),
        PatternCase("|a", ["a", ""], ["aa"]),
        PatternCase("a(b|)c", ["abc", "ac"], ["abbc"]),
        PatternCase("()", [""], ["a"]),
        PatternCase("(a|ab)(c|bcd)(d*)", ["abcd", "ac", "abcdd", "abc"], ["abd"]),
        PatternCase("((a))", ["a"], ["aa"]),
    ]

    static let quantifierCases: [PatternCase] = [
        PatternCase("a*", ["", "a", "aaaa"], ["b", "ab"]),
        PatternCase("a+", ["a", "aa"], ["", "ab"]),
        PatternCase("a?", ["", "a"], ["aa"]),
        PatternCase("a{3}", ["aaa"], ["aa", "aaaa"]),
        PatternCase("a{2,}", ["aa", "aaaaa"], ["a", ""]),
        PatternCase("a{2,4}", ["aa", "aaa", "aaaa"], ["a", "aaaaa"]),
        PatternCase("a{0,2}", ["", "a", "aa"], ["aaa"]),
        PatternCase("a{0}", [""], ["a"]),
        PatternCase("a{0,0}b", ["b"], ["ab"]),
        PatternCase("(ab){2,3}", ["abab", "ababab"], ["ab", "abababab"]),
        PatternCase("(a|bc){1,2}d", ["ad", "bcd", "abcd", "bcad"], ["d", "aaad"]),
        PatternCase("a*?b", ["b", "aab"], ["a"]),
        PatternCase("a+?", ["a", "aaa"], [""]),
        PatternCase("a??b", ["b", "ab"], ["aab"]),
        PatternCase("a{2,3}?", ["aa", "aaa"], ["a", "aaaa"]),
        PatternCase("a{2,}?b", ["aab", "aaaab"], ["ab"]),
        PatternCase("[a-z]++", ["abc"], ["", "ab1"]),
        PatternCase("[a-z]*+,\\d", ["abc,1", ",1"], ["abc1", "abc,"]),
        PatternCase("\\d?+x", ["x", "1x"], ["11x"]),
        PatternCase("a{2}+a", ["aaa"], ["aa"]),  // a fixed count cannot give back anyway
        PatternCase("(a*)*b", ["b", "aaab"], ["a"]),
        PatternCase("(a?){3}", ["", "a", "aaa"], ["aaaa"]),
        PatternCase("(|a)+", ["", "aa"], ["b"]),
        PatternCase("x{1000}", [String(repeating: "x", count: 1000)],
                    [String(repeating: "x", count: 999), String(repeating: "x", count: 1001)]),
        PatternCase("[a-z]{2,1000}\\.[a-z]{2,1000}", ["ab.cd", String(repeating: "q", count: 1000) + ".xy"],
                    ["a.cd", String(repeating: "q", count: 1001) + ".xy"]),
    ]

    static let anchorCases: [PatternCase] = [
        PatternCase("^abc$", ["abc"], ["abcd", "abc\n"]),
        PatternCase("^abc", ["abc"], ["abcd"]),
        PatternCase("abc$", ["abc"], ["xabc"]),
        PatternCase("^a$|^b$", ["a", "b"], ["ab", ""]),
        PatternCase("^a|b$", ["a", "b"], ["ab"]),
        PatternCase("^$", [""], ["a"]),
        PatternCase("^", [""], ["a"]),
    ]

    @Test(arguments: literalCases) func literalsAndEscapes(_ testCase: PatternCase) throws {
        try check(testCase)
    }

    @Test(arguments: classCases) func classes(_ testCase: PatternCase) throws {
        try check(testCase)
    }

    @Test(arguments: groupCases) func groupsAndAlternation(_ testCase: PatternCase) throws {
        try check(testCase)
    }

    @Test(arguments: quantifierCases) func quantifiers(_ testCase: PatternCase) throws {
        try check(testCase)
    }

    @Test(arguments: anchorCases) func redundantAnchors(_ testCase: PatternCase) throws {
        try check(testCase)
    }

    @Test func sourceIsKept() throws {
        let pattern = try Pattern("[a-z]+")
        #expect(pattern.source == "[a-z]+")
        #expect(pattern.description == "[a-z]+")
        #expect(pattern == (try Pattern("[a-z]+")))
        #expect(pattern != (try Pattern("[a-z]*")))
        #expect(Set([pattern, try Pattern("[a-z]+")]).count == 1)
    }
}
