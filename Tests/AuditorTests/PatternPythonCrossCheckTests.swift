import Foundation
import Testing
@testable import Auditor

/// ``Pattern`` against Python's `re` (3.11+: possessive quantifiers and atomic groups with
/// PCRE's meaning), with `re.ASCII`, as `re.fullmatch`.
///
/// Python's `re` and PCRE agree on everything compared here: `.` is any character but `\n`,
/// and with `re.ASCII` (PCRE: without `(*UCP)`) `\d`, `\w`, `\s` are ASCII. Without `re.ASCII`,
/// Python's `\d`, `\w`, `\s` are Unicode-aware, which neither PCRE's default nor this engine is.
@Suite("Pattern cross-check with Python's re", .enabled(if: PythonOracle.path != nil, "needs python3"))
struct PatternPythonCrossCheckTests {
    struct Case: Codable {
        var pattern: String
        var texts: [String]
    }

    static let script = """
        import json, re, sys
        out = []
        for case in json.load(sys.stdin):
            rx = re.compile(case["pattern"], re.ASCII)
            out.append([rx.fullmatch(t) is not None for t in case["texts"]])
        json.dump(out, sys.stdout)
        """

    /// Python's answers, one list per case.
    static func python(_ cases: [Case]) throws -> [[Bool]] {
        try PythonOracle.run(script, input: cases, as: [[Bool]].self)
    }

    /// The documented meanings of `.`, `\d`, `\w`, `\s` and their negations, on every ASCII
    /// character and the Unicode ones where engines differ (line and paragraph separators,
    /// NEL, no-break and ideographic spaces, Arabic-Indic and full-width digits, letters).
    @Test func dotAndShorthandClassesMeanWhatTheDocsSay() throws {
        var texts = (0 ..< 128).map { String(UnicodeScalar(UInt8($0))) }
        texts += ["\u{85}", "\u{A0}", "\u{2028}", "\u{2029}", "\u{3000}", "\u{FEFF}", "\u{1680}", "\u{0663}",
                  "\u{FF11}", "é", "ß", "Ω", "\u{1F600}", "ǅ", "\u{2160}", ""]
        let patterns = [".", "\\d", "\\D", "\\w", "\\W", "\\s", "\\S", "[\\d\\s]", "[^\\w]"]
        let expected = try Self.python(patterns.map { Case(pattern: $0, texts: texts) })
        for (pattern, answers) in zip(patterns, expected) {
            let compiled = try Pattern(pattern)
            for (text, answer) in zip(texts, answers) {
                #expect(compiled.matches(text) == answer, "/\(pattern)/ on \(text.unicodeScalars.map { String($0.value, radix: 16) })")
            }
        }
        // What the docs state, spelled out.
        let dot = try Pattern(".")
        #expect(!dot.matches("\n") && dot.matches("\r") && dot.matches("\u{2028}") && dot.matches("\u{85}"))
        #expect(try !Pattern("\\d").matches("\u{0663}") && !Pattern("\\w").matches("é") && !Pattern("\\s").matches("\u{A0}"))
        #expect(try Pattern("\\s").matches("\u{0B}"))
    }

    /// Random patterns, a quarter of their quantifiers possessive, each on random texts: every
    /// accepted pattern answers as Python does, and only possessive quantifiers are refused.
    @Test func randomPatternsAgreeWithPython() throws {
        var random = SplitMix64(state: 1313)
        var cases = [Case]()
        var compiled = [(String, Pattern)]()
        var refused = 0
        let alphabet: [Character] = ["a", "b", "c", "é", "1", "\n"]
        // Fixed counts over groups whose branches differ in length: the shape of issue 13's case.
        var sources = ["(?:a|ab){1}+c", "(?:ab|a){2}+b?", "(?:a|bc){2}+", "(?:ab|cd){2}+a*", "(?:a|b){3}+", "[a-c]{2}+a"]
        for _ in 0 ..< 600 { sources.append(PatternCrossCheckTests.randomPattern(depth: 3, using: &random).1) }
        for source in sources {
            let pattern: Pattern
            do {
                pattern = try Pattern(source)
            } catch {
                #expect(error.message.hasPrefix("possessive quantifier"), "/\(source)/: \(error)")
                refused += 1
                continue
            }
            var texts = ["abc", "ab", "aab", "abab", "abcd"]
            for _ in 0 ..< 40 {
                texts.append(String((0 ..< Int.random(in: 0 ... 8, using: &random)).map { _ in alphabet.randomElement(using: &random) ?? "a" }))
            }
            cases.append(Case(pattern: source, texts: texts))
            compiled.append((source, pattern))
        }
        let expected = try Self.python(cases)
        var possessiveCompared = 0
        var matches = 0
        for ((source, pattern), (c, answers)) in zip(compiled, zip(cases, expected)) {
            if source.contains("}+") || source.contains("++") || source.contains("*+") || source.contains("?+") { possessiveCompared += 1 }
            for (text, answer) in zip(c.texts, answers) {
                if answer { matches += 1 }
                #expect(pattern.matches(text) == answer, "/\(source)/ on \(text.debugDescription)")
            }
        }
        #expect(refused > 0 && possessiveCompared > 50 && matches > 500, "refused \(refused), possessive \(possessiveCompared), matches \(matches)")
    }
}
