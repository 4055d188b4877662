import Auditor
import AuditorReaders
import Foundation
import TestSupport
import Testing

/// Swift validators in a pushed-down audit (issue 16), on a throwaway PostgreSQL server and on
/// SQLite: the entity still runs in the database, the validators in the process, first on a
/// read of the columns they need, and the report is the streaming engine's.
@Suite("Swift validators with pushdown")
struct PushdownHooksTests {
    static let postgres = ConditionTrait.enabled(if: PostgresServer.available, PostgresServer.skipReason)

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
          h: SOURCE
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

    static func audit(_ url: String, hooks: ValidationHooks, pushdown: Bool, key: String) throws -> AuditReport {
        let registry = StandardReaders.registry
        let plan = try RuleCompiler.compile(try RulesFileParser(formats: registry.formats)
            .parse(rules.replacingOccurrences(of: "SOURCE", with: url.hasPrefix("postgresql:") ? "{ path: \"\(url)\", postgres: { table: h } }"
                                                                             : "{ path: \"\(url)\", sqlite: { table: h } }")
                .replacingOccurrences(of: "key: [id]", with: "key: \(key)"),
                   path: "rules.yml"))
        var options = AuditOptions(jobs: 2, chunkSize: 700, maxSamples: 7)
        options.hooks = hooks
        options.pushdown = pushdown
        return try AuditEngine(registry: registry, options: options).run(plan).report
    }

    /// Both reports, expected equal but for where the rules ran; returns the pushed-down one.
    static func expectSame(_ url: String, hooks: ValidationHooks, key: String = "[id]",
                           sourceLocation: SourceLocation = #_sourceLocation) throws -> AuditReport {
        let streamed = try audit(url, hooks: hooks, pushdown: false, key: key)
        let pushed = try audit(url, hooks: hooks, pushdown: true, key: key)
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

    @Test("attribute validators on text and number columns: same report, run in postgresql", postgres)
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

    @Test("a record validator runs first on a read of the columns it needs, and its failing records are sent by key", postgres)
    func recordValidator() throws {
        let server = try PostgresServer.shared.get()
        let url = server.url(database: try server.makeDatabase("hooks2", setup: Self.setup))
        let report = try Self.expectSame(url, hooks: Self.hooks(record: true))
        #expect(report.inputs.first?.ranIn == "postgresql", "\(String(describing: report.inputs.first?.pushdownRefused))")
        let rule = try #require(report.rules.first { $0.id == "h.record" })
        #expect(rule.violations == 333 && rule.evaluated == 5000 && rule.ranIn == "postgresql", "\(rule)")
    }

    @Test("attribute and record validators with SQLite pushdown: same report, run in sqlite")
    func sqlite() throws {
        let dir = try TemporaryDirectory()
        let path = dir.path("h.sqlite")
        try TestDatabase(path).exec("""
            CREATE TABLE h (id INTEGER, code TEXT, name TEXT, score INTEGER);
            WITH RECURSIVE g(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM g WHERE x < 5000)
            INSERT INTO h SELECT x, CASE WHEN x % 5 = 0 THEN NULL ELSE 'C' || (x % 97) END,
              CASE x % 7 WHEN 0 THEN 'Ann' WHEN 1 THEN 'bob' WHEN 2 THEN 'Cy' WHEN 3 THEN 'dee' WHEN 4 THEN 'Eve'
                         WHEN 5 THEN 'Zoë' ELSE 'émile' END,
              CASE WHEN x % 3 = 0 THEN NULL ELSE x % 50 END
            FROM g;
            """)
        let report = try Self.expectSame(path, hooks: Self.hooks(record: true))
        #expect(report.inputs.first?.ranIn == "sqlite", "\(String(describing: report.inputs.first?.pushdownRefused))")
        let record = try #require(report.rules.first { $0.id == "h.record" })
        #expect(record.violations == 333 && record.ranIn == "sqlite", "\(record)")
        let name = try #require(report.rules.first { $0.id == "h.name.capital" })
        #expect(name.violations > 300 && name.ranIn == "sqlite", "\(name)")
    }

    @Test("a validator of missing values, or a record validator without an integer key, needs every record: the entity streams, and says why",
          postgres)
    func everyRecord() throws {
        let server = try PostgresServer.shared.get()
        let url = server.url(database: try server.makeDatabase("hooks3", setup: Self.setup))
        let missing = AttributeValidator(id: "h.code.present", attribute: "code", includesMissing: true, RequiredValidator())
        for (hooks, reason, keyed) in [(Self.hooks([missing]), "Swift validator 'h.code.present' validates missing values", true),
                                       (Self.hooks(record: true), "Swift record validator 'h.record'", false)] {
            let report = try Self.expectSame(url, hooks: hooks, key: keyed ? "[id]" : "[id, name]")
            #expect(report.inputs.first?.ranIn == nil)
            #expect(report.inputs.first?.pushdownRefused?.contains(reason) == true, "\(String(describing: report.inputs.first))")
        }
    }
}
