import Dispatch
import Synchronization
import Testing
@testable import Auditor

@Suite("Pattern engine")
struct PatternEngineTests {
    static let namePattern = "[A-Za-zÀ-ÖØ-öø-ÿ ]+"
    static let emailPattern = "[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\\.[A-Za-z]{2,}"

    static let realPatternCases: [PatternCase] = [
        PatternCase(namePattern,
                    ["Zoë", "Jürgen Müller Schäfer", "van den Berg", "Søren Åsa", "François Dörte", "ÀÖØöøÿ", " "],
                    ["Jo'n Smith", "Anna_Lee", "Mar1a", "", "Ab\u{0300}", "A×B", "A÷B", "Łukasz", "Zoe\u{308}",
                     "Anna\tLee", "Anna-Lee"]),
        PatternCase(emailPattern,
                    ["john.smith42@mail.example.net", "a.b+x@sub.example.co.uk", "J%x_y-z@x-y.io", "a@b.cd",
                     "a@b.c.de", "a@..bc"],
                    ["john.smithmail.example.net",     // no @
                     "john@@example.com",              // @@
                     "john x@example.com",             // space
                     "john@example",                   // no dot in domain
                     "@example.com",                   // empty local part
                     "john@example.com.",              // trailing dot
                     "john@example.c",                 // one-letter top-level domain
                     "jöhn@example.com", "john@exämple.com", "john@example.c0m", "john@example.com\n", ""]),
        PatternCase("[0-9]{4}-[0-9]{2}-[0-9]{2}", ["1990-05-17"], ["1990-5-17", "1990-05-17T", "１９９０-05-17"]),
        PatternCase("-?[0-9]+(\\.[0-9]+)?", ["12", "-0.25", "0.5"], ["1.", ".5", "--1", "1e5", "+1"]),
        PatternCase("true|false", ["true", "false"], ["truefalse", "True", "tru", ""]),
    ]

    @Test(arguments: realPatternCases) func realPatterns(_ testCase: PatternCase) throws {
        try check(testCase)
    }

    @Test func strategies() throws {
        #expect(try Pattern(PatternEngineTests.namePattern).strategy == .classRun)
        #expect(try Pattern("\\d{4}").strategy == .classRun)
        #expect(try Pattern("(?:[a-z])*").strategy == .classRun)
        #expect(try Pattern(PatternEngineTests.emailPattern).strategy == .dfa)
        #expect(try Pattern("a|b").strategy == .dfa)
        // 2^21 deterministic states: falls back to the simulation.
        #expect(try Pattern("[ab]*a[ab]{20}").strategy == .nfa)
    }

    @Test func exponentialDeterministicAutomatonFallsBack() throws {
        let pattern = try Pattern("[ab]*a[ab]{20}")
        let tail = String(repeating: "b", count: 20)
        #expect(pattern.matches("a" + tail))
        #expect(pattern.matches("bbbabab" + "a" + tail))
        #expect(!pattern.matches("b" + tail))
        #expect(!pattern.matches("a" + tail + "b"))
        #expect(!pattern.matches("a" + String(repeating: "b", count: 19)))
    }

    /// Ill-formed UTF-8, each byte sequence placed alone, after `a` and before `a`.
    static let illFormed: [[UInt8]] = [
        [0x80], [0xBF], [0xC3], [0xC0, 0x80], [0xC1, 0xBF], [0xE0, 0x80, 0x80], [0xE0, 0x9F, 0xBF],
        [0xED, 0xA0, 0x80], [0xED, 0xBF, 0xBF], [0xE2, 0x82], [0xF0, 0x80, 0x80, 0x80], [0xF0, 0x9F, 0x98],
        [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80, 0x80, 0x80], [0xF8, 0x88, 0x80, 0x80, 0x80], [0xFE], [0xFF],
        [0xC3, 0x28], [0xE2, 0x28, 0xA1], [0xF0, 0x28, 0x8C, 0xBC],
    ]

    @Test(arguments: illFormed) func illFormedUTF8NeverMatches(_ bytes: [UInt8]) throws {
        for source in [".*", "[^a]*a?[^a]*", "\\W*a?\\W*", "(?:.|\\n)*", "[\\x{0}-\\x{10FFFF}]*", "a?[\\x{80}-\\x{10FFFF}]{0,9}a?"] {
            for pattern in try compiledVariants(source) {
                for text in [bytes, [0x61] + bytes, bytes + [0x61]] {
                    let result = text.withUnsafeBufferPointer { pattern.matches($0) }
                    #expect(!result, "/\(source)/ [\(pattern.strategy)] matched ill-formed \(text)")
                }
            }
        }
    }

    @Test func wellFormedUTF8Matches() throws {
        let texts: [[UInt8]] = [
            [0x7F], [0xC2, 0x80], [0xC3, 0xA9], [0xDF, 0xBF], [0xE0, 0xA0, 0x80], [0xE2, 0x82, 0xAC],
            [0xED, 0x9F, 0xBF], [0xEE, 0x80, 0x80], [0xEF, 0xBF, 0xBF], [0xF0, 0x90, 0x80, 0x80],
            [0xF0, 0x9F, 0x98, 0x80], [0xF4, 0x8F, 0xBF, 0xBF],
        ]
        for source in [".", "[\\x{0}-\\x{10FFFF}]", "[^a]"] {
            for pattern in try compiledVariants(source) {
                for text in texts {
                    let matched = text.withUnsafeBufferPointer { pattern.matches($0) }
                    #expect(matched, "/\(source)/ [\(pattern.strategy)] on \(text)")
                }
            }
        }
    }

    @Test func emptyBufferWithoutBaseAddress() throws {
        let empty = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
        for pattern in try compiledVariants("a*") {
            let matched = pattern.matches(empty)
            #expect(matched, "[\(pattern.strategy)]")
        }
        for pattern in try compiledVariants("a+") {
            let matched = pattern.matches(empty)
            #expect(!matched, "[\(pattern.strategy)]")
        }
    }

    static let catastrophic: [(pattern: String, text: String)] = [
        ("(a+)+b", String(repeating: "a", count: 40)),
        ("(a|a)*b", String(repeating: "a", count: 5_000)),
        ("(a*)*b", String(repeating: "a", count: 5_000)),
        ("(a|aa)+c", String(repeating: "a", count: 5_000)),
        ("(x+x+)+y", String(repeating: "x", count: 5_000)),
        ("(.*a){20}", String(repeating: "a", count: 5_000) + "b"),
        ("([a-z]+)*=", String(repeating: "abc", count: 2_000) + "!"),
        ("(\\w+\\s?)*!", String(repeating: "word ", count: 1_000) + "?"),
        ("[ab]*a[ab]{20}", String(repeating: "ab", count: 2_500) + "c"),
    ]

    @Test func catastrophicPatternsAreFast() throws {
        let clock = ContinuousClock()
        for (source, text) in PatternEngineTests.catastrophic {
            for pattern in try compiledVariants(source) {
                var result = true
                let elapsed = clock.measure { result = pattern.matches(text) }
                #expect(!result, "/\(source)/ [\(pattern.strategy)]")
                // A backtracking engine needs years here; a linear one well under a millisecond
                // per kilobyte even in a debug build.
                #expect(elapsed < .milliseconds(500), "/\(source)/ [\(pattern.strategy)] took \(elapsed)")
            }
        }
    }

    @Test func sharedAcrossThreads() throws {
        let pattern = try Pattern(PatternEngineTests.emailPattern)
        let texts = (0..<2_000).map { $0 % 3 == 0 ? "user\($0)@example.com" : "user\($0)@example" }
        let expected = texts.map { pattern.matches($0) }
        let failures = Atomic(0)
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for (text, want) in zip(texts, expected) where pattern.matches(text) != want {
                failures.add(1, ordering: .relaxed)
            }
        }
        #expect(failures.load(ordering: .relaxed) == 0)
        #expect(expected.filter { $0 }.count == 667)
    }
}
