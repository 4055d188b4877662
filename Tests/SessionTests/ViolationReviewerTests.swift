import Auditor
import AuditorReaders
import AuditorReports
import Foundation
import Testing

/// A reviewer (``ViolationReviewer``) sees the violations the built-in rules found in a record:
/// it rewrites, merges, suppresses (counted and reported per hook) and adds, through the real
/// CSV and JSON Lines readers, the engine and the text and JSON reports.
@Suite struct ViolationReviewerTests {
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
              name: { type: string, minLength: 3, pattern: "[A-Z].*" }
              salary: { type: decimal, min: 0 }
              status: { type: string, enum: [active, left] }
        """

    static let rows: [(id: Int, name: String, salary: String, status: String)] = [
        (1, "Ann", "100", "active"),      // clean
        (2, "al", "100", "active"),       // minLength + pattern: merged into one
        (3, "Bea", "-5", "active"),       // min: rewritten
        (4, "Cy", "-1", "retired"),       // minLength, min rewritten, enum suppressed; 3 findings: one added
        (5, "Dee", "7", "retired"),       // enum suppressed: no finding left
    ]

    /// The reviewer of the example in docs/validators.md.
    static func reviewer() -> ViolationReviewer {
        ViolationReviewer(id: "person.review", attributes: ["name", "status"]) { record, review in
            let name = review.violations.indices.filter { review.violations[$0].attribute == "name" }
            if name.count > 1 { review.merge(name, message: "'\(record["name"])' is not a proper name.") }
            for (i, v) in review.violations.enumerated() {
                if v.ruleID == "Person.salary.min" { review.rewrite(i, message: "A salary cannot be negative.") }
                if v.ruleID == "Person.status.enum", record.string("status") == "retired" { review.suppress(i) }
            }
            if review.violations.count >= 3 {
                review.add(Violation(kind: "record", code: 1550, message: "This record needs a closer look."))
            }
        }
    }

    static func audit(format: String, jobs: Int = 1, chunk: Int = 4096, reviewed: Bool = true) throws -> AuditReport {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("auditor-review-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        var text = format == "csv" ? "id,name,salary,status\n" : ""
        for r in rows {
            switch format {
            case "csv": text += "\(r.id),\(r.name),\(r.salary),\(r.status)\n"
            case "xml": text += "<person><id>\(r.id)</id><name>\(r.name)</name><salary>\(r.salary)</salary><status>\(r.status)</status></person>\n"
            default: text += "{\"id\": \(r.id), \"name\": \"\(r.name)\", \"salary\": \(r.salary), \"status\": \"\(r.status)\"}\n"
            }
        }
        if format == "xml" { text = "<people>\n" + text + "</people>\n" }
        try text.write(to: dir.appendingPathComponent("people.\(format)"), atomically: true, encoding: .utf8)
        let registry = StandardReaders.registry
        let plan = try RuleCompiler.compile(try RulesFileParser(formats: registry.formats)
            .parse(rules.replacingOccurrences(of: "people: { path: people.FORMAT }",
                                              with: format == "xml" ? "people: { path: people.xml, xml: { record: person } }"
                                                                    : "people: { path: people.\(format) }"),
                   path: dir.appendingPathComponent("rules.yml").path))
        var options = AuditOptions(jobs: jobs, chunkSize: chunk, maxSamples: 100)
        options.collectFingerprints = true
        if reviewed { options.hooks.add(reviewer(), to: "Person") }
        return try AuditEngine(registry: registry, options: options).run(plan).report
    }

    static func rule(_ r: AuditReport, _ id: String) throws -> RuleOutcome { try #require(r.rules.first { $0.id == id }) }

    @Test(arguments: ["csv", "jsonl", "xml"], [(1, 1), (2, 2), (1, 4096)])
    func rewritesMergesSuppressesAndAdds(format: String, run: (jobs: Int, chunk: Int)) throws {
        let r = try Self.audit(format: format, jobs: run.jobs, chunk: run.chunk)
        // Counts are the rules' own: a reviewer changes what is listed, never what is counted.
        #expect(try Self.rule(r, "Person.name.minLength").violations == 2)
        #expect(try Self.rule(r, "Person.name.pattern").violations == 1)
        #expect(try Self.rule(r, "Person.salary.min").violations == 2)
        #expect(try Self.rule(r, "Person.status.enum").violations == 2)
        // Merged: record 2's two name findings are one, under the first rule.
        let names = try Self.rule(r, "Person.name.minLength").samples
        #expect(names.map(\.key) == ["id=2", "id=4"])
        #expect(names.first?.message == "'al' is not a proper name.")
        #expect(names.last?.message != "'Cy' is not a proper name.")      // one name violation: not merged
        #expect(try Self.rule(r, "Person.name.pattern").samples.isEmpty)
        #expect(try Self.rule(r, "Person.name.pattern").suppressedByHook == ["person.review": 1])
        // Rewritten.
        #expect(try Self.rule(r, "Person.salary.min").samples.map(\.message) == ["A salary cannot be negative.", "A salary cannot be negative."])
        // Suppressed, and said so.
        #expect(try Self.rule(r, "Person.status.enum").samples.isEmpty)
        #expect(try Self.rule(r, "Person.status.enum").suppressedByHook == ["person.review": 2])
        // Added, under the reviewer's id.
        let added = try Self.rule(r, "person.review")
        #expect(added.violations == 1)
        #expect(added.samples.map(\.key) == ["id=4"])
        #expect(added.samples.map(\.message) == ["This record needs a closer look."])
        // Record 5's only violation was suppressed: it lists no finding, but still violates.
        #expect(!r.records.contains { $0.key == "id=5" })
        #expect(r.records.map(\.key) == ["id=2", "id=3", "id=4"])
    }

    /// A baseline still knows a suppressed or merged violation: the fingerprints of the
    /// built-in rules are those of a run without the reviewer.
    @Test func suppressedViolationsKeepTheirFingerprints() throws {
        let with = try #require(try Self.audit(format: "csv").fingerprints)
        let without = try #require(try Self.audit(format: "csv", reviewed: false).fingerprints)
        for rule in ["Person.name.minLength", "Person.name.pattern", "Person.salary.min", "Person.status.enum"] {
            #expect(with.byRule[rule] == without.byRule[rule], "\(rule)")
            #expect(with.byRule[rule]?.isEmpty == false, "\(rule)")
        }
    }

    @Test func reportsSayWhichHookSuppressed() throws {
        let r = try Self.audit(format: "csv")
        let text = TextReporter().render(r)
        #expect(text.contains("2 suppressed by hook person.review"))
        #expect(text.contains("1 suppressed by hook person.review"))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(JSONReporter().render(r).utf8)) as? [String: Any])
        let rules = try #require(json["rules"] as? [[String: Any]])
        let status = try #require(rules.first { $0["id"] as? String == "Person.status.enum" })
        #expect(status["suppressedByHook"] as? [String: Int] == ["person.review": 2])
        let html = HTMLReporter().render(r)
        #expect(html.contains("(2 suppressed by hook person.review)"))
        let clean = try #require(rules.first { $0["id"] as? String == "Person.id.required" })
        #expect(clean["suppressedByHook"] == nil)

        let markdown = MarkdownReporter().render(r)
        #expect(markdown.contains("_(2 suppressed by hook person.review)_"), "\(markdown)")
        let junit = JUnitReporter().render(r)
        #expect(junit.contains("2 violations suppressed by hook person.review (counted, not listed)."))
        #expect(!junit.contains("... 2 more"), "suppressed violations are not 'more' to list")
        let github = GitHubReporter().render(r)
        #expect(github.contains("auditor: Person.status.enum: 2 violations suppressed by hook person.review"))
        // SARIF: one suppressed result per rule and hook, and no "not listed" result for them.
        let sarif = try #require(try JSONSerialization.jsonObject(with: Data(SARIFReporter().render(r).utf8)) as? [String: Any])
        let results = try #require(((sarif["runs"] as? [[String: Any]])?.first?["results"]) as? [[String: Any]])
        let status2 = results.filter { $0["ruleId"] as? String == "Person.status.enum" }
        #expect(status2.count == 1)
        let suppression = try #require((status2.first?["suppressions"] as? [[String: Any]])?.first)
        #expect(suppression["kind"] as? String == "external")
        #expect(suppression["justification"] as? String == "suppressed by hook person.review")
        #expect((status2.first?["properties"] as? [String: Any])?["aggregated"] as? Int == 2)
    }
}

/// The reviewer example of docs/validators.md is the code ``ViolationReviewerTests`` runs.
@Suite struct ViolationReviewerDocsTests {
    @Test func validatorsDocExampleIsTheTestedCode() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let docs = try String(contentsOf: root.appendingPathComponent("docs/validators.md"), encoding: .utf8)
        let section = try #require(docs.range(of: "### Reviewing the built-in violations"))
        let start = try #require(docs.range(of: "```swift\n", range: section.upperBound ..< docs.endIndex))
        let end = try #require(docs.range(of: "```", range: start.upperBound ..< docs.endIndex))
        let example = docs[start.upperBound ..< end.lowerBound].split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.hasPrefix("hooks.add(") && $0 != "}, to: \"Person\")" }      // the registration around the reviewer
        let tested = Set(try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
            .split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) })
        #expect(example.count >= 9)
        for line in example { #expect(tested.contains(line), "docs/validators.md: '\(line)' is not in the tested reviewer") }
    }
}
