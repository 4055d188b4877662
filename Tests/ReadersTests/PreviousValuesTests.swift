import Auditor
import AuditorReaders
import Foundation
import TestSupport
import Testing

/// `previous.x` and `changed(x)` in `on: [update]` record rules, through the real CSV and
/// JSON Lines readers and the engine, against Python's `decimal` as the reference.
@Suite struct PreviousValuesTests {
    static let rules = """
        version: 1
        sources:
          people: { path: people.FORMAT }
        entities:
          Person:
            source: people
            key: [id]
            attributes:
              id: { type: integer, required: true }
              name: string
              salary: decimal
            rules:
              - id: person.salary.drop
                on: [update]
                assert: salary >= previous.salary * 0.8
                message: "{name}'s salary fell from {previous.salary} to {salary}, more than 20 %."
              - id: person.renamed.same.pay
                on: [update]
                when: changed(name)
                assert: not changed(salary) and salary == previous.salary
        """

    /// One snapshot: `(id, name, salary text)`; a nil salary is missing.
    typealias Row = (id: Int, name: String, salary: String?)

    /// Previous and current snapshots: updates around the 80 % boundary (where a double
    /// product misjudges about a third of two-decimal salaries), renames, inserts, deletes,
    /// unchanged records, a missing previous salary and a previous salary that is not a number.
    static func snapshots() -> (previous: [Row], current: [Row]) {
        var previous = [Row](), current = [Row]()
        var seed: UInt64 = 22
        func next(_ n: UInt64) -> UInt64 {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return (seed >> 33) % n
        }
        func money(_ cents: UInt64) -> String { "\(cents / 100).\(String(format: "%02d", Int(cents % 100)))" }
        for id in 1 ... 240 {
            let cents = 100_000 + next(900_000)
            let before = money(cents)
            previous.append((id, "p\(id)", before))
            // 80 % of the cents, in thousandths of a unit: exact, then nudged by -2...+2.
            let boundary = Int(cents) * 8                       // in thousandths
            let nudged = boundary + Int(next(5)) - 2
            let after = "\(nudged / 1000).\(String(format: "%03d", nudged % 1000))"
            switch id % 6 {
            case 0: current.append((id, "p\(id)", before))                    // unchanged
            case 1: current.append((id, "q\(id)", before))                    // renamed, same pay
            case 2: current.append((id, "q\(id)", after))                     // renamed and cut
            case 3 where id % 12 == 3: break                                  // deleted
            default: current.append((id, "p\(id)", after))                    // cut near 80 %
            }
        }
        previous.append((241, "missing", nil))
        current.append((241, "missing", "10.00"))
        previous.append((242, "text", "n/a"))
        current.append((242, "text", "10.00"))
        current.append((243, "new", "1.00"))                                  // inserted
        return (previous, current)
    }

    static func write(_ rows: [Row], format: String, to url: URL) throws {
        var text = format == "csv" ? "id,name,salary\n" : ""
        for r in rows {
            if format == "csv" {
                text += "\(r.id),\(r.name),\(r.salary ?? "")\n"
            } else if format == "xml" {
                text += "<person><id>\(r.id)</id><name>\(r.name)</name>" + (r.salary.map { "<salary>\($0)</salary>" } ?? "") + "</person>\n"
            } else {
                let salary = r.salary.map { Double($0) == nil ? "\"\($0)\"" : $0 }
                text += "{\"id\": \(r.id), \"name\": \"\(r.name)\"" + (salary.map { ", \"salary\": \($0)" } ?? "") + "}\n"
            }
        }
        if format == "xml" { text = "<people>\n" + text + "</people>\n" }
        try text.write(to: url, atomically: true, encoding: .utf8)
    }

    /// The rules for a format (XML names its record element).
    static func rulesFile(_ format: String) -> String {
        rules.replacingOccurrences(of: "people: { path: people.FORMAT }",
                                   with: format == "xml" ? "people: { path: people.xml, xml: { record: person } }"
                                                         : "people: { path: people.\(format) }")
    }

    struct Expected: Decodable {
        var drop: [String]
        var renamed: [String]
        var updated: Int
    }

    /// The expected violations, computed by Python's `decimal` from the same rows.
    static func oracle(_ previous: [Row], _ current: [Row]) throws -> Expected? {
        guard let python = ["/usr/bin/python3", "/usr/local/bin/python3"].first(where: FileManager.default.isExecutableFile) else {
            return nil
        }
        let script = """
            import json, sys
            from decimal import Decimal, InvalidOperation
            d = json.load(sys.stdin)
            prev = {r[0]: r for r in d["previous"]}
            drop, renamed, updated = [], [], 0
            def num(t):
                try: return Decimal(t) if t is not None else None
                except InvalidOperation: return None
            for r in d["current"]:
                p = prev.get(r[0])
                if p is None or p == r: continue
                updated += 1
                now, before = num(r[2]), num(p[2])
                if now is not None and before is not None and not (now >= before * Decimal("0.8")):
                    drop.append("id=%d" % r[0])
                if p[1] != r[1] and now is not None and before is not None and not (r[2] == p[2] and now == before):
                    renamed.append("id=%d" % r[0])
            print(json.dumps({"drop": drop, "renamed": renamed, "updated": updated}))
            """
        struct Input: Encodable { var previous: [[String?]]; var current: [[String?]] }
        let input = Input(previous: previous.map { [String($0.id), $0.name, $0.salary] },
                          current: current.map { [String($0.id), $0.name, $0.salary] })
        // Python's rows hold the id as a number, as the oracle's keys.
        let json = String(decoding: try JSONEncoder().encode(input), as: UTF8.self)
            .replacingOccurrences(of: #"\[\"([0-9]+)\","#, with: "[$1,", options: .regularExpression)
        let run = try ChildProcess.run([python, "-c", script], input: Data(json.utf8))
        #expect(run.status == 0, "\(run)")
        return try JSONDecoder().decode(Expected.self, from: run.stdout)
    }

    static func audit(format: String, jobs: Int, chunk: Int, rows: (previous: [Row], current: [Row]))
        throws -> AuditReport {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("auditor-previous-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try write(rows.previous, format: format, to: dir.appendingPathComponent("before.\(format)"))
        try write(rows.current, format: format, to: dir.appendingPathComponent("people.\(format)"))
        let registry = StandardReaders.registry
        let yaml = rulesFile(format)
        let plan = try RuleCompiler.compile(try RulesFileParser(formats: registry.formats)
            .parse(yaml, path: dir.appendingPathComponent("rules.yml").path))
        var options = AuditOptions(jobs: jobs, chunkSize: chunk, maxSamples: 1000)
        options.previousPaths = ["people": dir.appendingPathComponent("before.\(format)").path]
        return try AuditEngine(registry: registry, options: options).run(plan).report
    }

    @Test(arguments: ["csv", "jsonl", "xml"], [(1, 1), (2, 7), (2, 4096)])
    func salaryDropMatchesPythonDecimal(format: String, run: (jobs: Int, chunk: Int)) throws {
        let rows = Self.snapshots()
        guard let expected = try Self.oracle(rows.previous, rows.current) else {
            Issue.record("python3 missing: no reference")
            return
        }
        let report = try Self.audit(format: format, jobs: run.jobs, chunk: run.chunk, rows: rows)
        let drop = try #require(report.rules.first { $0.id == "person.salary.drop" })
        let renamed = try #require(report.rules.first { $0.id == "person.renamed.same.pay" })
        #expect(expected.drop.count > 20)       // the data reaches both sides of the boundary
        #expect(drop.samples.compactMap(\.key) == expected.drop)
        #expect(drop.violations == expected.drop.count)
        #expect(renamed.samples.compactMap(\.key) == expected.renamed)
        // Updated records are evaluated, except the two whose previous salary is missing or not a number.
        #expect(drop.evaluated == expected.updated - 2)
        #expect(drop.skipped == 2)
        let lifecycle = try #require(report.entities.first?.lifecycle)
        #expect(lifecycle.updated == expected.updated)
    }

    @Test func messagesNameThePreviousValue() throws {
        let rows: (previous: [Row], current: [Row]) = ([(1, "Ann", "1000.02"), (2, "Bob", "500")],
                                                       [(1, "Ann", "800.015"), (2, "Bob", "400.00")])
        for format in ["csv", "jsonl", "xml"] {
            let report = try Self.audit(format: format, jobs: 1, chunk: 4096, rows: rows)
            let drop = try #require(report.rules.first { $0.id == "person.salary.drop" })
            // 800.015 < 1000.02 × 0.8 = 800.016 exactly; 400.00 == 500 × 0.8 holds.
            #expect(drop.samples.map(\.message) == ["Ann's salary fell from 1000.02 to 800.015, more than 20 %."])
            #expect(drop.samples.first?.value == "salary=800.015, previous.salary=1000.02")
        }
    }

    @Test(arguments: [("on: [insert, update]", "'on: [insert, update]'"), ("", "no 'on:'"), ("on: [delete]", "'on: [delete]'")])
    func previousOutsideAnUpdateRuleIsARulesError(scope: String, phrase: String) throws {
        let yaml = """
            version: 1
            sources:
              people: { path: people.csv }
            entities:
              Person:
                source: people
                key: [id]
                attributes: { id: integer, salary: decimal }
                rules:
                  - id: person.salary.drop
                    \(scope)
                    assert: salary >= previous.salary * 0.8
            """
        #expect {
            try RuleCompiler.compile(try RulesFileParser(formats: StandardReaders.registry.formats).parse(yaml, path: "rules.yml"))
        } throws: { error in
            guard let e = error as? AuditError, e.code == .invalidRules, e.code.exitStatus == .configError else { return false }
            return e.diagnostics.map(\.description) == [
                "rules.yml:12:17: 'previous.salary' reads the previous snapshot, which only an updated record has; this rule has \(phrase): scope it with 'on: [update]'",
            ]
        }
    }

    @Test func changedNeedsOneAttributeName() throws {
        for (assert, message) in [("changed(salary + 1)", "rules.yml:11:17: 'changed' takes the name of one attribute, e.g. 'changed(salary)'"),
                                  ("changed(salry)", "rules.yml:11:25: unknown attribute 'salry'; did you mean 'salary'?"),
                                  ("previous.salry > 0", "rules.yml:11:17: unknown attribute 'salry' in 'previous.salry'; did you mean 'salary'?")] {
            let yaml = """
                version: 1
                sources:
                  people: { path: people.csv }
                entities:
                  Person:
                    source: people
                    key: [id]
                    attributes: { id: integer, salary: decimal }
                    rules:
                      - on: [update]
                        assert: \(assert)
                """
            #expect {
                try RuleCompiler.compile(try RulesFileParser(formats: StandardReaders.registry.formats).parse(yaml, path: "rules.yml"))
            } throws: { error in
                (error as? AuditError)?.diagnostics.map(\.description) == [message]
            }
        }
    }
}

/// The example of docs/lifecycle.md runs as documented.
@Suite struct PreviousValuesDocsTests {
    @Test func lifecycleDocExampleRuns() throws {
        let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/lifecycle.md")
        let text = try String(contentsOf: docs, encoding: .utf8)
        let section = try #require(text.range(of: "## Old values in update rules"))
        let start = try #require(text.range(of: "```yaml\n", range: section.upperBound ..< text.endIndex))
        let end = try #require(text.range(of: "```", range: start.upperBound ..< text.endIndex))
        let block = text[start.upperBound ..< end.lowerBound].split(separator: "\n", omittingEmptySubsequences: false)
            .map { "    " + $0 }.joined(separator: "\n")
        let yaml = """
            version: 1
            sources:
              people: { path: people.csv }
            entities:
              Person:
                source: people
                key: [id]
                attributes: { id: integer, name: string, salary: decimal }
            \(block)
            """
        let rows: (previous: [PreviousValuesTests.Row], current: [PreviousValuesTests.Row]) = (
            [(1, "Ann", "1000.02"), (2, "Bob", "1000.02"), (3, "Cy", "10")],
            [(1, "Ann", "800.015"), (2, "Bob", "800.016"), (3, "Cyd", "12")])
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("auditor-previous-doc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try PreviousValuesTests.write(rows.previous, format: "csv", to: dir.appendingPathComponent("before.csv"))
        try PreviousValuesTests.write(rows.current, format: "csv", to: dir.appendingPathComponent("people.csv"))
        let registry = StandardReaders.registry
        let plan = try RuleCompiler.compile(try RulesFileParser(formats: registry.formats)
            .parse(yaml, path: dir.appendingPathComponent("rules.yml").path))
        var options = AuditOptions(jobs: 1)
        options.previousPaths = ["people": dir.appendingPathComponent("before.csv").path]
        let report = try AuditEngine(registry: registry, options: options).run(plan).report
        let drop = try #require(report.rules.first { $0.id == "person.salary.drop" })
        #expect(drop.samples.map(\.message) == ["Ann's salary fell from 1000.02 to 800.015, more than 20 %."])
        let renamed = try #require(report.rules.first { $0.id == "person.renamed.same.pay" })
        #expect(renamed.samples.compactMap(\.key) == ["id=3"])
    }
}
