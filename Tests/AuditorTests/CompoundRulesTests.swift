import Auditor
import Testing

/// Compound, list and map constraints from the rules file, and Swift hooks in the engine.
@Suite struct CompoundRulesTests {
    let yaml = """
        version: 1
        sources: { t: { path: t.mem } }
        entities:
          E:
            key: [id]
            attributes:
              id: integer
              code:
                anyOf: [ { pattern: "[A-Z]{3}" }, { enum: [n/a] } ]
                not: { enum: [XXX] }
              tags:
                split: ";"
                minCount: 2
                maxCount: 3
                each: { pattern: "[a-z]+", maxLength: 5 }
                uniqueItems: { value: true, id: e.tags.distinct, severity: warning }
        """
    let rows: [[String?]] = [
        ["1", "ABC", "red;blue"],                 // clean
        ["2", "n/a", "red"],                       // too few tags
        ["3", "abcd", "red;red;Blue"],             // code matches neither; tags repeat; Blue fails each
        ["4", "XXX", "a;b;c;d"],                   // not; too many tags
        ["5", nil, nil],                            // missing: constraints skip
    ]

    @Test func everyConstraintIsARuleWithExactCounts() throws {
        let r = try audit(yaml, fields: ["id", "code", "tags"], rows: rows)
        // `id: integer` is a type rule too (issue 13 §1), passed by every record.
        #expect(r.counts == ["E.id.type": 0, "E.code.anyOf": 1, "E.code.not": 1, "E.tags.minCount": 1, "E.tags.maxCount": 1,
                             "E.tags.each": 1, "e.tags.distinct": 1])
        let rules = Dictionary(uniqueKeysWithValues: r.report.rules.map { ($0.id, $0) })
        #expect(rules["E.tags.minCount"]?.code == 1580)
        #expect(rules["E.tags.maxCount"]?.code == 1590)
        #expect(rules["E.code.anyOf"]?.code == 2010)
        #expect(rules["e.tags.distinct"]?.severity == .warning)
        let each = try #require(rules["E.tags.each"]?.samples.first)
        #expect(each.location.line == 4)
        #expect(each.message.hasPrefix("tags is invalid: tags[2]"), "\(each.message)")
        let anyOf = try #require(rules["E.code.anyOf"]?.samples.first)
        #expect(anyOf.value == "abcd")
    }

    @Test func mistakesInConstraintTreesAreLocated() {
        let bad = yaml.replacingOccurrences(of: "maxLength: 5", with: "maxLenght: 5")
        #expect {
            try audit(bad, fields: ["id", "code", "tags"], rows: rows)
        } throws: { error in
            (error as? AuditError)?.diagnostics.first?.message.contains("did you mean 'maxLength'?") == true
        }
    }

    @Test(arguments: [1, 2])
    func swiftHooksRunInTheEngine(jobs: Int) throws {
        var hooks = ValidationHooks()
        hooks.add(AttributeValidator(id: "e.code.upper", attribute: "code",
                                     StringValidator(pattern: try Pattern("[A-Z/a-z]+"))), to: "E")
        hooks.add(RecordValidator(id: "e.id.odd-has-code", attributes: ["id", "code"], severity: .warning,
                                  message: "odd ids need a code: {values}", summary: "odd ids have a code") { view in
            guard case .integer(let id) = view["id"], id % 2 == 1 else { return true }
            return view["code"] != .null
        }, to: "E")
        let registry = ReaderRegistry([InMemoryReader.factory(fields: ["id", "code", "tags"], rows: rows)])
        let plan = try RuleCompiler.compile(try RulesFileParser(formats: registry.formats).parse(yaml, path: "rules.yml"))
        var options = AuditOptions(jobs: jobs, chunkSize: 2)
        options.hooks = hooks
        let r = try AuditEngine(registry: registry, options: options).run(plan)
        let rules = Dictionary(uniqueKeysWithValues: r.report.rules.map { ($0.id, $0) })
        #expect(rules["e.code.upper"]?.violations == 0)
        let odd = try #require(rules["e.id.odd-has-code"])
        #expect(odd.violations == 1)
        #expect(odd.severity == .warning)
        #expect(odd.samples.first?.location.line == 6)
        #expect(odd.samples.first?.message == "odd ids need a code: id=5, code=null")
    }

    @Test func hooksOnUnknownAttributesAreRefused() throws {
        var hooks = ValidationHooks()
        hooks.add(AttributeValidator(id: "x", attribute: "nope", StringValidator(minLength: 1)), to: "E")
        let registry = ReaderRegistry([InMemoryReader.factory(fields: ["id", "code", "tags"], rows: rows)])
        let plan = try RuleCompiler.compile(try RulesFileParser(formats: registry.formats).parse(yaml, path: "rules.yml"))
        var options = AuditOptions()
        options.hooks = hooks
        #expect(throws: AuditError.self) { try AuditEngine(registry: registry, options: options).run(plan) }
    }
}
