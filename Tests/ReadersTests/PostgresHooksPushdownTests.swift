import Auditor
import AuditorReaders
import Foundation
import Testing

/// Swift attribute validators in a pushed-down PostgreSQL audit (issue 16): the entity still
/// runs in PostgreSQL, the validators in the process on the records that may fail them, and
/// the report is the streaming engine's.
@Suite("Swift validators with PostgreSQL pushdown (a throwaway server)", .enabled(if: PostgresServer.available, PostgresServer.skipReason))
struct PostgresHooksPushdownTests {
    static let setup = """
        CREATE TABLE h (id integer, code text, name text, score integer);
        INSERT INTO h SELECT g,
          CASE WHEN g % 5 = 0 THEN NULL ELSE 'C' || (g % 97) END,
          (ARRAY['Ann', 'bob', 'Cy', 'dee', 'Eve', 'Zoë', 'émile'])[1 + g % 7],
          CASE WHEN g % 3 = 0 THEN NULL ELSE g % 50 END
        FROM generate_series(1, 5000) AS g;
        """

    static let rules = """
        version: 1
        sources:
          h: { path: "URL", postgres: { table: h } }
        entities:
          H:
            source: h
            key: [id]
            idPrefix: h
            attributes:
              id:    { type: integer, required: true }
              code:  { type: string, maxLength: 3 }
              name:  { type: string, required: true }
              score: { type: integer, min: 0 }
        """

    /// Checks that only Swift can do: the digits of a code add up to an even number; a name
    /// starts with a capital letter; a score is not a multiple of 7.
    static func hooks(_ extra: [AttributeValidator] = [], record: Bool = false) -> ValidationHooks {
        var hooks = ValidationHooks()
        hooks.add(AttributeValidator(id: "h.code.even", attribute: "code", BlockValidator { value in
            guard case .string(let s) = value else { return false }
            return s.compactMap(\.wholeNumberValue).reduce(0, +) % 2 == 0
        }), to: "H")
        hooks.add(AttributeValidator(id: "h.name.capital", attribute: "name", BlockValidator { value in
            guard case .string(let s) = value else { return false }
            return s.first?.isUppercase == true
        }), to: "H")
        hooks.add(AttributeValidator(id: "h.score.seven", attribute: "score", BlockValidator { value in
            guard case .integer(let n) = value else { return true }
            return n % 7 != 0
        }), to: "H")
        for v in extra { hooks.add(v, to: "H") }
        if record {
            hooks.add(RecordValidator(id: "h.record", attributes: ["code", "score"], message: "{code} and {score} disagree.") { r in
                r.string("code") != nil || r.integer("score") != nil
            }, to: "H")
        }
        return hooks
    }

    static func audit(_ url: String, hooks: ValidationHooks, pushdown: Bool) throws -> AuditReport {
        let registry = StandardReaders.registry
        let plan = try RuleCompiler.compile(try RulesFileParser(formats: registry.formats)
            .parse(rules.replacingOccurrences(of: "URL", with: url), path: "rules.yml"))
        var options = AuditOptions(jobs: 2, chunkSize: 700, maxSamples: 7)
        options.hooks = hooks
        options.pushdown = pushdown
        return try AuditEngine(registry: registry, options: options).run(plan).report
    }

    /// Both reports, expected equal but for where the rules ran; returns the pushed-down one.
    static func expectSame(_ url: String, hooks: ValidationHooks,
                           sourceLocation: SourceLocation = #_sourceLocation) throws -> AuditReport {
        let streamed = try audit(url, hooks: hooks, pushdown: false)
        let pushed = try audit(url, hooks: hooks, pushdown: true)
        func plain(_ rules: [RuleOutcome]) -> [RuleOutcome] {
            rules.map { var r = $0; r.ranIn = nil; r.pushdownRefused = nil; return r }
        }
        for (a, b) in zip(plain(streamed.rules), plain(pushed.rules)) {
            #expect(a == b, "\(a.id): \(a.evaluated)/\(a.skipped)/\(a.violations) vs \(b.evaluated)/\(b.skipped)/\(b.violations)",
                    sourceLocation: sourceLocation)
        }
        #expect(streamed.rules.count == pushed.rules.count, sourceLocation: sourceLocation)
        #expect(streamed.entities == pushed.entities, sourceLocation: sourceLocation)
        #expect(streamed.records == pushed.records, sourceLocation: sourceLocation)
        #expect(streamed.inputs.map(\.records) == pushed.inputs.map(\.records), sourceLocation: sourceLocation)
        return pushed
    }

    @Test("attribute validators on text and number columns: same report, run in postgresql")
    func attributeValidators() throws {
        let server = try PostgresServer.shared.get()
        let url = server.url(database: try server.makeDatabase("hooks", setup: Self.setup))
        let report = try Self.expectSame(url, hooks: Self.hooks())
        #expect(report.inputs.first?.ranIn == "postgresql", "\(String(describing: report.inputs.first?.pushdownRefused))")
        for id in ["h.code.even", "h.name.capital", "h.score.seven"] {
            let rule = try #require(report.rules.first { $0.id == id })
            #expect(rule.violations > 300 && rule.evaluated == 5000, "\(id): \(rule.violations) of \(rule.evaluated)")
        }
        // Text values are checked first, in a read of their column alone: the validators of
        // `code` and of the required `name` leave the passing values in PostgreSQL. A number
        // column's validator runs on the records where the score is present.
        let rule = { (id: String) in report.rules.first { $0.id == id } }
        #expect(rule("h.code.even")?.ranIn == "postgresql" && rule("h.name.capital")?.ranIn == "postgresql")
        #expect(rule("h.score.seven")?.pushdownRefused?.contains("Swift validator 'h.score.seven' runs in the process") == true,
                "\(String(describing: rule("h.score.seven")))")
    }

    @Test("a record validator, or one that validates missing values, needs every record: the entity streams, and says why")
    func everyRecord() throws {
        let server = try PostgresServer.shared.get()
        let url = server.url(database: try server.makeDatabase("hooks2", setup: Self.setup))
        let missing = AttributeValidator(id: "h.code.present", attribute: "code", includesMissing: true, RequiredValidator())
        for (hooks, reason) in [(Self.hooks(record: true), "Swift record validator 'h.record'"),
                                (Self.hooks([missing]), "Swift validator 'h.code.present' validates missing values")] {
            let report = try Self.expectSame(url, hooks: hooks)
            #expect(report.inputs.first?.ranIn == nil)
            #expect(report.inputs.first?.pushdownRefused?.contains(reason) == true, "\(String(describing: report.inputs.first))")
        }
    }
}
