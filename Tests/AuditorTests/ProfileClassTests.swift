import Foundation
import Testing
@testable import Auditor

/// The profiler's format classes decide membership exactly as the pattern they suggest
/// matches (checked against Python's `re.fullmatch` on generated strings), its HyperLogLog
/// estimate stays within its error, and evidence numbers read as the issue shows them.
@Suite("Profile classes")
struct ProfileClassTests {
    struct Sample: Codable { var text: String; var patterns: [String] }

    /// Strings built from the characters the classes care about.
    static func generate(_ count: Int) -> [String] {
        var rng = SystemRandomNumberGenerator()
        let alphabet = Array("aZ09 .@-_+%é×ÿÀ÷\u{00D7}xX-:T/é") + ["1", "2", "f", "F", "g"]
        let seeds = ["ann@example.com", "a.b+c@x-y.co.uk", "a@b.c", "a@@b.cc", "@b.cc", "a@.cc", "a@b.c1", "A@B.CO",
                     "123e4567-e89b-12d3-a456-426614174000", "123E4567-E89B-12D3-A456-42661417400G",
                     "Jürgen Müller", "Ø ø ÿ À Ö", "Søren×", "ABC123", "abc", "0042", "", " ", "2024-02-29"]
        var out = seeds
        for _ in 0 ..< count {
            var s = seeds.randomElement(using: &rng) ?? ""
            for _ in 0 ..< Int.random(in: 0...3, using: &rng) {
                var chars = Array(s)
                let c = alphabet[Int.random(in: 0 ..< alphabet.count, using: &rng)]
                if chars.isEmpty || Bool.random(using: &rng) {
                    chars.insert(c, at: Int.random(in: 0...chars.count, using: &rng))
                } else {
                    chars[Int.random(in: 0 ..< chars.count, using: &rng)] = c
                }
                s = String(chars)
            }
            out.append(s)
        }
        return out
    }

    @Test("Each class with a pattern agrees with Python's re.fullmatch of that pattern")
    func classesMatchTheirPatterns() throws {
        guard PythonOracle.path != nil else { return }
        let classes = FormatClass.allCases.filter { $0.pattern != nil }
        let texts = Self.generate(3000)
        let script = """
            import json, re, sys
            d = json.load(sys.stdin)
            pats = [re.compile(p) for p in d["patterns"]]
            json.dump([[bool(p.fullmatch(t)) for p in pats] for t in d["texts"]], sys.stdout)
            """
        struct Input: Codable { var texts: [String]; var patterns: [String] }
        let truth = try PythonOracle.run(script, input: Input(texts: texts, patterns: classes.compactMap(\.pattern)), as: [[Bool]].self)
        for (t, expected) in zip(texts, truth) {
            let scan = ShapeScan(Array(t.utf8))
            for (cls, want) in zip(classes, expected) {
                #expect(scan.classes.contains(cls) == want, "'\(t)': \(cls.rawValue) is \(scan.classes.contains(cls)), re says \(want)")
            }
            #expect(scan.scalars == t.unicodeScalars.count, "'\(t)' length")
            #expect(scan.hash == Hashing.bytes(Array(t.utf8)), "'\(t)' hash")
        }
    }

    @Test("HyperLogLog: within 5 % of the exact count from 10 to 1,000,000 values", arguments: [10, 1_000, 50_000, 1_000_000])
    func hyperLogLog(_ n: Int) {
        var h = HyperLogLog()
        for i in 0 ..< n { h.add(Hashing.bytes(Array("value-\(i)".utf8))) }
        for i in 0 ..< n / 2 { h.add(Hashing.bytes(Array("value-\(i)".utf8))) }   // repeats change nothing
        let e = h.estimate()
        #expect(abs(Double(e - n)) <= 0.05 * Double(n) + 1, "estimate \(e) for \(n)")
    }

    @Test("Evidence: thousands separators and shares that never round to 0 % or 100 %")
    func evidence() {
        #expect(Evidence.count(1_000_000) == "1,000,000")
        #expect(Evidence.count(2013) == "2,013")
        #expect(Evidence.count(999) == "999")
        #expect(Evidence.share(998, 1000) == "99.8 %")
        #expect(Evidence.share(999_999, 1_000_000) == "99.9 %")
        #expect(Evidence.share(1, 1_000_000) == "0.1 %")
        #expect(Evidence.share(5, 5) == "100 %")
        #expect(Evidence.quoted("a\"b\\c\n") == "\"a\\\"b\\\\c\\n\"")
    }
}
