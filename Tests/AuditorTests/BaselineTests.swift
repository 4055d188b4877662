import Auditor
import Testing

@Suite struct BaselineTests {
    let yaml = """
        version: 1
        sources: { t: { path: t.mem }, u: { path: u.mem } }
        entities:
          E:
            source: t
            key: [id]
            attributes:
              id: { type: integer, unique: true }
              name: { type: string, minLength: 3 }
          Loose:
            source: u
            attributes: { code: { type: string, pattern: "[A-Z]+" } }
        """

    func run(_ e: [[String?]], _ u: [[String?]], jobs: Int = 1, chunk: Int = 2) throws -> AuditReport {
        let registry = ReaderRegistry([InMemoryReader.factory(tables: ["t": (["id", "name"], e), "u": (["code"], u)])])
        let plan = try RuleCompiler.compile(try RulesFileParser(formats: registry.formats).parse(yaml, path: "rules.yml"))
        var options = AuditOptions(jobs: jobs, chunkSize: chunk, maxSamples: 1)
        options.collectFingerprints = true
        return try AuditEngine(registry: registry, options: options).run(plan).report
    }

    @Test func fingerprintsIgnoreLinesAndCountEveryFinding() throws {
        let a = try run([["1", "ab"], ["2", "abc"], ["2", "x"]], [["a1"], ["a1"], ["OK"]])
        // The same records two lines further down, in another order, with another chunking.
        let b = try run([["9", "long"], ["8", "long"], ["2", "x"], ["1", "ab"], ["2", "abc"]], [["OK"], ["a1"], ["a1"]],
                        jobs: 2, chunk: 1)
        let fa = try #require(a.fingerprints)
        let fb = try #require(b.fingerprints)
        #expect(fa.byRule["E.name.minLength"]?.count == 2)     // every finding, though maxSamples is 1
        #expect(fa.byRule["Loose.code.pattern"]?.count == 2)    // keyless: same value twice is two findings
        #expect(fa.byRule["E.id.unique"]?.count == 1)
        #expect(fa.byRule["E.name.minLength"] == fb.byRule["E.name.minLength"])
        #expect(fa.byRule["Loose.code.pattern"] == fb.byRule["Loose.code.pattern"])
        let sample = try #require(a.rules.first { $0.id == "E.name.minLength" }?.samples.first)
        #expect(sample.fingerprint.map(Fingerprint.hex)?.count == 16)
        #expect(Fingerprint.parse(Fingerprint.hex(sample.fingerprint ?? 0)) == sample.fingerprint)
    }

    @Test func threeRunsNewExistingResolvedAndFailOnNew() throws {
        // Run 1: ids 1 and 3 have short names.  Run 2: 1 fixed, 3 still, 4 new.  Run 3: nothing new.
        let r1 = try run([["1", "ab"], ["2", "abc"], ["3", "x"]], [])
        var r2 = try run([["1", "abc"], ["2", "abc"], ["3", "x"], ["4", "y"]], [])
        r2.applyBaseline(try #require(r1.fingerprints), source: "run1.json")
        let rule2 = try #require(r2.rules.first { $0.id == "E.name.minLength" })
        #expect(rule2.baseline == RuleBaseline(new: 1, existing: 1, resolved: 1))
        #expect(r2.baseline?.newFindings == 1 && r2.baseline?.resolvedFindings == 1)
        #expect(r2.records.flatMap(\.findings).map { "\($0.key ?? ""):\($0.isNew == true)" } == ["id=3:false"])
        r2.failOnNew = true
        #expect(r2.exitStatus == .ruleFailures)

        var r3 = try run([["1", "abc"], ["2", "abc"], ["3", "x"], ["4", "y"]], [])
        r3.applyBaseline(try #require(r2.fingerprints), source: "run2.json")
        #expect(r3.rules.first { $0.id == "E.name.minLength" }?.baseline == RuleBaseline(new: 0, existing: 2, resolved: 0))
        #expect(r3.exitStatus == .ruleFailures)      // still dirty...
        r3.failOnNew = true
        #expect(r3.exitStatus == .passed)            // ...but not worse
    }

    @Test func jumpNeedsHistoryAndAClearExcess() {
        #expect(RuleTrend.evaluate(previous: [], current: 50).jumped == false)
        #expect(RuleTrend.evaluate(previous: [0, 0], current: 50).jumped == false)          // too little history
        #expect(RuleTrend.evaluate(previous: [10, 12, 11], current: 16).jumped == false)    // +5 but not +50%
        #expect(RuleTrend.evaluate(previous: [10, 12, 11], current: 17).jumped == true)
        #expect(RuleTrend.evaluate(previous: [0, 0, 1], current: 4).jumped == false)        // +50% but not +5
        let t = RuleTrend.evaluate(previous: [100, 1, 2, 3, 4, 5, 6, 7], current: 9)
        #expect(t.median == 4 && t.counts.count == 9)      // median of the last seven
    }
}
