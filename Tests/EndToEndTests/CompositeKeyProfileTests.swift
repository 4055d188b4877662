import Foundation
import TestSupport
import Testing

/// `auditor profile` finds candidate composite keys (issue 19: "small column sets") when no
/// single column is a key, and never claims one that Python's own check of the same CSV
/// rejects; the drafted rules (key and `unique:`) pass the audit of the same data.
@Suite("Composite candidate keys")
struct CompositeKeyProfileTests {
    /// Writes a CSV with `rows` records: `year,seq` is the designed key; other columns repeat.
    /// With `seed`, some rows get a duplicate (year, seq), a missing part, or `01` for `1`.
    static func csv(rows: Int, seed: Int, faults: Bool) -> String {
        var g = SplitMix(seed: UInt64(seed))
        var out = "year,seq,region,amount,note\n"
        for i in 0 ..< rows {
            var year = String(2000 + i % 7)
            var seq = String(i / 7)
            if faults {
                switch g.next() % 400 {
                case 0: seq = String(max(0, i / 7 - 1))          // a repeat (or, at i < 7, of itself)
                case 1: year = ""                                 // a missing part
                case 2: seq = "0" + seq                           // the same number, written otherwise
                default: break
                }
            }
            out += "\(year),\(seq),\(["north", "south", "east"][Int(g.next() % 3)]),\(g.next() % 50),n\(g.next() % 5)\n"
        }
        return out
    }

    /// Python's answer: the pairs and triples of columns present in every row and unique
    /// (numbers compared by value, as the profile compares them), and whether any single
    /// column is.
    static func python(_ path: String) throws -> (single: Bool, sets: Set<[String]>) {
        let script = #"""
        import csv, itertools, json, sys
        from decimal import Decimal, InvalidOperation
        rows = list(csv.DictReader(open(sys.argv[1], newline='')))
        cols = list(rows[0].keys())
        def norm(v):
            try: return ('n', Decimal(v).normalize()) if v.strip() == v and v else ('t', v)
            except InvalidOperation: return ('t', v)
        def unique(cs):
            seen = set()
            for r in rows:
                if any(r[c] == '' for c in cs): return False
                k = tuple(norm(r[c]) for c in cs)
                if k in seen: return False
                seen.add(k)
            return True
        single = any(unique([c]) for c in cols)
        sets = [list(cs) for n in (2, 3) for cs in itertools.combinations(cols, n) if unique(cs)]
        print(json.dumps({"single": single, "sets": sets}))
        """#
        let run = try ChildProcess.run(["python3", "-c", script, path])
        let object = try #require(try JSONSerialization.jsonObject(with: run.stdout) as? [String: Any])
        let sets = (object["sets"] as? [[String]] ?? []).map { $0.sorted() }
        return (object["single"] as? Bool ?? false, Set(sets))
    }

    static func profile(_ dir: URL) throws -> [[String]] {
        try assertExecute(["profile", "data.csv", "--format", "json", "--output", "profile.json", "--rules-out", "rules.yml"],
                          in: dir, exitCode: 0)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: dir.appendingPathComponent("profile.json"))) as? [String: Any])
        let source = try #require((json["sources"] as? [[String: Any]])?.first)
        return (source["compositeKeys"] as? [[String]] ?? []).map { $0.sorted() }
    }

    @Test("the designed key is found, and the drafted key and unique rule pass the audit")
    func findsTheDesignedKey() throws {
        let tmp = try Scratch("composite")
        defer { tmp.remove() }
        _ = try tmp.write("data.csv", Self.csv(rows: 30_000, seed: 1, faults: false))
        let found = try Self.profile(tmp.url)
        #expect(found.contains(["seq", "year"]), "\(found)")
        let truth = try Self.python(tmp.path("data.csv"))
        #expect(!truth.single)
        for set in found { #expect(truth.sets.contains(set), "\(set) is not unique per Python") }
        let rules = try String(contentsOf: tmp.url.appendingPathComponent("rules.yml"), encoding: .utf8)
        #expect(rules.contains("key: [year, seq]") || rules.contains("key: [seq, year]"), "\(rules)")
        #expect(rules.contains("no single column is"))
        try assertExecute(["check", "rules.yml"], in: tmp.url, exitCode: 0)
        let run = try Auditor.run(["run", "rules.yml", "--format", "json", "-o", "report.json"], in: tmp.url)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: tmp.url.appendingPathComponent("report.json"))) as? [String: Any])
        let uniqueRules = (report["rules"] as? [[String: Any]] ?? []).filter { ($0["id"] as? String ?? "").hasSuffix(".unique") }
        #expect(!uniqueRules.isEmpty, "the draft declares the composite key unique")
        for r in uniqueRules { #expect(r["violations"] as? Int == 0, "\(r)") }
        #expect(run.status == 0 || run.status == 1)
    }

    /// Random small tables where some column pairs or triples are unique by chance and some
    /// are not, with numbers written two ways (`7`, `07`, `7.50`, `7.5`) and a few missing
    /// values.
    static func randomTable(seed: Int) -> String {
        var g = SplitMix(seed: UInt64(seed) &* 7919)
        let rows = 40 + Int(g.next() % 40)
        var out = "a,b,c,d,e\n"
        for _ in 0 ..< rows {
            let a = g.next() % 30, b = g.next() % 12, d = g.next() % 9, e = g.next() % 6
            let aText = g.next() % 8 == 0 ? "0\(a)" : "\(a)"
            let dText = g.next() % 2 == 0 ? "\(d).50" : "\(d).5"
            let eText = g.next() % 60 == 0 ? "" : "\(e)"
            out += "\(aText),\(b),\(["x", "y", "z"][Int(g.next() % 3)]),\(dText),\(eText)\n"
        }
        return out
    }

    /// Differential against Python on 40 random tables: every set the profile reports is one
    /// Python finds unique and complete (numbers by value), no superset of a reported set is
    /// reported, and none is reported when a single column is a key.
    @Test("never a false key (against Python)")
    func soundAgainstPython() throws {
        var reported = 0
        for seed in 1 ... 40 {
            let tmp = try Scratch("composite-\(seed)")
            defer { tmp.remove() }
            _ = try tmp.write("data.csv", Self.randomTable(seed: seed))
            let found = try Self.profile(tmp.url)
            let truth = try Self.python(tmp.path("data.csv"))
            if truth.single { #expect(found.isEmpty, "seed \(seed)") }
            for set in found {
                #expect(truth.sets.contains(set), "seed \(seed): \(set) reported, but Python finds a repeat or a missing part")
                for other in found where other != set { #expect(!Set(set).isSubset(of: Set(other)), "seed \(seed): \(other) is not minimal") }
            }
            reported += found.count
        }
        #expect(reported >= 10, "the random tables should have composite keys to check; \(reported) reported")
    }
}

/// A small deterministic generator for test data.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E3779B97F4A7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58476D1CE4E5B9
        z = (z ^ (z >> 27)) &* 0x94D049BB133111EB
        return z ^ (z >> 31)
    }
}
