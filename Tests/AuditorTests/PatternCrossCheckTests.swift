import Foundation
import Testing
@testable import Auditor

/// A small deterministic generator (SplitMix64), so every run checks the same cases.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Compares ``Pattern`` with Foundation's `NSRegularExpression` (ICU) anchored as
/// `^(?:…)$`, requiring ICU's match to span the whole text (ICU's `$` also matches before a
/// final line break, which a full match does not forgive).
///
/// Alphabets avoid the spots where the documented meanings differ on purpose: ICU's `\d`,
/// `\w`, `\s` are Unicode-aware and its `.` also excludes `\r`, U+0085, U+2028 and U+2029.
@Suite("Pattern cross-check with NSRegularExpression")
struct PatternCrossCheckTests {
    /// A pattern, the characters its random texts are drawn from, and matching seeds that
    /// are mutated into near misses.
    struct Sample: Sendable, CustomTestStringConvertible {
        var pattern: String
        var alphabet: String
        var seeds: [String] = []
        var testDescription: String { "/\(pattern)/" }
    }

    static let samples: [Sample] = [
        Sample(pattern: "[A-Za-zÀ-ÖØ-öø-ÿ ]+", alphabet: "aZé× ÷'ü_1Ł",
               seeds: ["Zoë", "Jürgen Müller", "van den Berg"]),
        Sample(pattern: "[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\\.[A-Za-z]{2,}", alphabet: "ab.@-%+_9Z é",
               seeds: ["john.smith42@mail.example.net", "a.b+x@sub.example.co.uk", "a@b.cd"]),
        Sample(pattern: "[a-c]+b?", alphabet: "abcd"),
        Sample(pattern: "(a|ab)(c|bcd)(d*)", alphabet: "abcd"),
        Sample(pattern: "(a+)+b", alphabet: "ab"),
        Sample(pattern: "[^a]*a[a-c]{1,3}", alphabet: "abcé"),
        Sample(pattern: "x*(yx|y)?x+", alphabet: "xy"),
        Sample(pattern: "\\d{2,4}-?\\d*", alphabet: "012-a"),
        Sample(pattern: "(?:[A-Z][a-z]+ ?)+", alphabet: "AaBb ", seeds: ["Ab Ba", "Aab "]),
        Sample(pattern: "(a|b)*a(a|b){3}", alphabet: "ab"),
        Sample(pattern: "é(ü|ö)*.", alphabet: "éüö😀a\n"),
        Sample(pattern: "a.c", alphabet: "abc😀\n", seeds: ["abc", "a😀c"]),
        Sample(pattern: "(ab|a)(bc|c)?", alphabet: "abc"),
        Sample(pattern: "[^\\d\\s]+\\s?\\d", alphabet: "a1 é\t"),
        Sample(pattern: "(?:a{2}|b{1,2}){2,3}", alphabet: "ab"),
        Sample(pattern: "a?a?a?aaa", alphabet: "a"),
        Sample(pattern: "\\w+(?:[-.]\\w+)*", alphabet: "a_-.9"),
        Sample(pattern: "[\\x{1F600}-\\x{1F602}]{2}|\\u00e9+", alphabet: "😀😂😃é"),
        Sample(pattern: "(?<a>x|y)+?z??", alphabet: "xyz"),
        Sample(pattern: "[^,\"]*+,\\d++", alphabet: "a,1\""),
        Sample(pattern: "\\d*+x|[ab]{1,2}+c", alphabet: "1xabc"),
        Sample(pattern: "^(ab|c)$|^d$", alphabet: "abcd"),
        Sample(pattern: "[]a-]+\\]", alphabet: "]a-b"),
    ]

    @Test(arguments: samples) func agreesOnRandomTexts(_ sample: Sample) throws {
        let icu = try NSRegularExpression(pattern: "^(?:\(sample.pattern))$")
        let variants = try compiledVariants(sample.pattern)
        let alphabet = Array(sample.alphabet)
        var random = SplitMix64(state: UInt64(truncatingIfNeeded: sample.pattern.utf8.count) &* 7919)
        var matches = 0
        for round in 0..<300 {
            var text: [Character]
            if round % 2 == 1, let seed = sample.seeds.randomElement(using: &random) {
                // A seed with up to two random edits.
                text = Array(seed)
                for _ in 0..<Int.random(in: 0...2, using: &random) {
                    let at = Int.random(in: 0...text.count, using: &random)
                    let letter = alphabet.randomElement(using: &random) ?? "a"
                    switch Int.random(in: 0..<3, using: &random) {
                    case 0: text.insert(letter, at: at)
                    case 1 where at < text.count: text.remove(at: at)
                    default: if at < text.count { text[at] = letter }
                    }
                }
            } else {
                text = (0..<Int.random(in: 0...10, using: &random)).map { _ in alphabet.randomElement(using: &random) ?? "a" }
            }
            let string = String(text)
            let expected = PatternCrossCheckTests.fullMatch(icu, string)
            if expected { matches += 1 }
            for pattern in variants {
                let actual = pattern.matches(string)
                #expect(actual == expected, "/\(sample.pattern)/ [\(pattern.strategy)] on \(string.debugDescription)")
            }
        }
        // Both answers must occur, or the comparison proves little.
        #expect(matches > 0 && matches < 300, "/\(sample.pattern)/ matched \(matches) of 300")
    }

    /// Random patterns over a small grammar, each checked on random texts.
    @Test func agreesOnRandomPatterns() throws {
        var random = SplitMix64(state: 2024)
        var compared = 0
        for _ in 0..<250 {
            let (source, icuSource) = PatternCrossCheckTests.randomPattern(depth: 3, using: &random)
            let variants: [Pattern]
            do {
                variants = try compiledVariants(source)
            } catch {
                // Only a possessive quantifier that could change the answer is rejected.
                #expect(error.message.hasPrefix("possessive quantifier"), "/\(source)/: \(error)")
                continue
            }
            let icu = try NSRegularExpression(pattern: "^(?:\(icuSource))$")
            let alphabet: [Character] = ["a", "b", "c", "é", "1"]
            for _ in 0..<40 {
                let text = String((0..<Int.random(in: 0...8, using: &random)).map { _ in alphabet.randomElement(using: &random) ?? "a" })
                let expected = PatternCrossCheckTests.fullMatch(icu, text)
                for pattern in variants {
                    let actual = pattern.matches(text)
                    #expect(actual == expected, "/\(source)/ [\(pattern.strategy)] on \(text.debugDescription)")
                }
            }
            compared += 1
        }
        #expect(compared > 150)
    }

    /// Whether ICU matches the whole text.
    static func fullMatch(_ regex: NSRegularExpression, _ text: String) -> Bool {
        let length = text.utf16.count
        guard let match = regex.firstMatch(in: text, range: NSRange(location: 0, length: length)) else { return false }
        return match.range.location == 0 && match.range.length == length
    }

    /// A random pattern: literals, `.`, classes, groups, alternation and every quantifier
    /// form; returned twice, ours and ICU's spelling (ICU's `\d` and `\w` are Unicode-aware,
    /// so they are spelled out as the ASCII classes they mean here).
    static func randomPattern(depth: Int, using random: inout SplitMix64) -> (String, String) {
        let atoms = [("a", "a"), ("b", "b"), ("c", "c"), ("é", "é"), (".", "."), ("[ab]", "[ab]"),
                     ("[^a]", "[^a]"), ("[a-c]", "[a-c]"), ("\\d", "[0-9]"), ("[b-é]", "[b-é]"),
                     ("\\w", "[A-Za-z0-9_]"), ("\\W", "[^A-Za-z0-9_]"), ("[\\d]", "[0-9]")]
        func atom() -> (String, String) {
            if depth > 0, Int.random(in: 0..<4, using: &random) == 0 {
                let (ours, icu) = randomPattern(depth: depth - 1, using: &random)
                return Bool.random(using: &random) ? ("(\(ours))", "(\(icu))") : ("(?:\(ours))", "(?:\(icu))")
            }
            return atoms.randomElement(using: &random) ?? ("a", "a")
        }
        func quantified() -> (String, String) {
            let (ours, icu) = atom()
            let quantifiers = ["", "", "", "*", "+", "?", "{2}", "{0,2}", "{1,}", "{2,3}"]
            let quantifier = quantifiers.randomElement(using: &random) ?? ""
            guard !quantifier.isEmpty else { return (ours, icu) }
            let suffix = quantifier + (["", "", "?", "+"].randomElement(using: &random) ?? "")
            return (ours + suffix, icu + suffix)
        }
        var branches: [(String, String)] = []
        for _ in 0..<(Int.random(in: 0..<5, using: &random) == 0 ? 2 : 1) {
            let pieces = (0..<Int.random(in: 1...3, using: &random)).map { _ in quantified() }
            branches.append((pieces.map(\.0).joined(), pieces.map(\.1).joined()))
        }
        return (branches.map(\.0).joined(separator: "|"), branches.map(\.1).joined(separator: "|"))
    }
}
