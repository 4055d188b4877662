import Foundation
import TestSupport
import Testing
@testable import Auditor
@_spi(Testing) @testable import AuditorReaders

/// `schemas/rules.schema.json` (issue 19): editors complete and validate rules files with it,
/// so it must accept every rules file we ship and know exactly the keys the parser knows.
@Suite struct RulesSchemaTests {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func schema() throws -> [String: Any] {
        let data = try Data(contentsOf: root.appendingPathComponent("schemas/rules.schema.json"))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    /// Runs the checker (Python's jsonschema, the reference implementation) on `paths`.
    static func check(_ paths: [String]) throws -> (status: Int32, output: String) {
        let run = try ChildProcess.run(["python3", "scripts/check-rules-schema.py"] + paths, directory: root, mergeErrors: true)
        return (run.status, run.stdoutText)
    }

    /// Every rules file of the repository: rules/, examples/ (not message catalogs), and the
    /// whole rules files shown in README.md and docs/.
    static func repositoryRulesFiles() throws -> [String] {
        var files = [String]()
        let fm = FileManager.default
        for folder in ["rules", "examples"] {
            let enumerator = fm.enumerator(atPath: root.appendingPathComponent(folder).path)
            while let p = enumerator?.nextObject() as? String {
                guard p.hasSuffix(".yml") || p.hasSuffix(".yaml"), !p.contains("messages/"), !p.contains(".build") else { continue }
                files.append(folder + "/" + p)
            }
        }
        files.append("README.md")
        files += try fm.contentsOfDirectory(atPath: root.appendingPathComponent("docs").path)
            .filter { $0.hasSuffix(".md") }.map { "docs/" + $0 }
        return files.sorted()
    }

    @Test func everyRulesFileOfTheRepositoryIsValid() throws {
        let files = try Self.repositoryRulesFiles()
        #expect(files.contains("rules/people.yml"))
        let result = try Self.check(files)
        #expect(result.status == 0, "\(result.output)")
        // rules/people.yml, the snapshots example and the README's complete example at least.
        let checked = try #require(result.output.firstMatch(of: /checked (\d+) rules file/).map { Int($0.1)! })
        #expect(checked >= 3, "\(result.output)")
    }

    /// An editor takes a `dateFormat:` exactly when the reader does: the schema's pattern, run by
    /// Python's `re` as the checker's jsonschema runs it, against ``CSVDateFormat``, on every
    /// order, separator, time, clock and offset, and on near misses.
    @Test func dateFormatPatternIsTheReaders() throws {
        let defs = try #require(try Self.schema()["$defs"] as? [String: Any])
        let pattern = try #require(((defs["dateFormat"] as? [String: Any])?["additionalProperties"] as? [String: Any])?["pattern"] as? String)
        var formats = [String]()
        for date in ["DD.MM.YYYY", "M/D/YYYY", "YYYY-MM-DD", "D-M-YYYY", "YYYY/M/DD", "DD.MM.YY", "DD.MM/YYYY", "DD.DD.YYYY", "MM-YYYY"] {
            formats.append(date)
            for time in [" hh:mm", "Thh:mm:ss", " h:mm", " h:mm:ss", " hh", " H:mm", " hh:mm:ss:ff"] {
                for clock in ["", " AM/PM", " AM", " am/pm"] {
                    for zone in [" UTC", " Z", " +01:00", " -05:30", " +23:59", " +24:00", " +01:60", " +1:00", " CET", ""] {
                        formats.append(date + time + clock + zone)
                    }
                }
            }
        }
        let run = try ChildProcess.run(["python3", "-c", "import json, re, sys; p = sys.argv[1]; "
                                            + "print(json.dumps([re.search(p, f) is not None for f in json.loads(sys.stdin.read())]))", pattern],
                                       input: try JSONSerialization.data(withJSONObject: formats))
        try #require(run.status == 0, "\(run)")
        let schemaTakes = try #require(try JSONSerialization.jsonObject(with: run.stdout) as? [Bool])
        try #require(schemaTakes.count == formats.count)
        var taken = 0
        for (format, schema) in zip(formats, schemaTakes) {
            let reader = CSVDateFormat(format) != nil
            if reader { taken += 1 }
            #expect(schema == reader, "'\(format)': the schema \(schema ? "takes" : "refuses") it, the reader \(reader ? "takes" : "refuses") it")
        }
        #expect(taken > 100 && taken < formats.count / 2, "\(taken) of \(formats.count)")
    }

    /// The check is not vacuous: mistakes an editor must flag are flagged, with their path.
    @Test func theSchemaRejectsMistakes() throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("schema-\(UUID())")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let cases: [(String, String)] = [
            ("attributes:\n      age: { type: integer, minLenght: 3 }", "$.entities.P.attributes.age"),
            ("attributes:\n      age: { type: integr }", "$.entities.P.attributes.age"),
            ("attributes:\n      age: integer\n    rowCount: { min: 1, maximum: 3 }", "$.entities.P.rowCount"),
            ("attributes:\n      age: { type: integer, severity: fatal }", "$.entities.P.attributes.age"),
            ("attributes:\n      age: integer\n    rules:\n      - when: age > 1", "$.entities.P.rules[0]"),
            ("attributes:\n      age: integer\n    freshness: { attribute: age, maxAge: soon }", "$.entities.P.freshness.maxAge"),
        ]
        for (i, (entity, path)) in cases.enumerated() {
            let file = scratch.appendingPathComponent("r\(i).yml")
            try "version: 1\nsources:\n  s: { path: s.csv, csv: { header: true } }\nentities:\n  P:\n    \(entity)\n"
                .write(to: file, atomically: true, encoding: .utf8)
            let result = try Self.check([file.path])
            #expect(result.status == 1, "case \(i) passed: \(entity)")
            #expect(result.output.contains(path), "case \(i): \(result.output)")
        }
    }

    /// The keys the parser accepts, where it accepts them, are the schema's (and the reverse).
    @Test func everyKeyThatTheParserAcceptsIsInTheSchemaAndTheReverse() throws {
        let schema = try Self.schema()
        let defs = try #require(schema["$defs"] as? [String: Any])
        func properties(_ node: Any?, _ name: String) throws -> Set<String> {
            let object = try #require(node as? [String: Any], "\(name) is not an object schema")
            if let props = object["properties"] as? [String: Any] { return Set(props.keys) }
            // `anyOf: [shorthand, { mapping }]`: the mapping's properties.
            let alternatives = try #require(object["anyOf"] as? [[String: Any]], "\(name) has no properties")
            let mapping = try #require(alternatives.first { $0["properties"] != nil }, "\(name) has no mapping form")
            return Set((mapping["properties"] as! [String: Any]).keys)
        }
        func def(_ name: String) throws -> Set<String> { try properties(defs[name], name) }
        func enumValues(_ name: String) throws -> Set<String> {
            Set(try #require((defs[name] as? [String: Any])?["enum"] as? [String], "\(name) has no enum"))
        }

        #expect(try properties(schema, "the rules file") == Set(RulesFileParser.topKeys))
        #expect(try def("source") == Set(RulesFileParser.sourceKeys + StandardReaders.registry.formats))
        #expect(try def("entity") == Set(RulesFileParser.entityKeys))
        #expect(try def("attribute") == Set(RulesFileParser.attributeKeys))
        #expect(try def("relationship") == Set(RulesFileParser.relationshipKeys))
        #expect(try def("recordRule") == Set(RulesFileParser.recordRuleKeys))
        #expect(try def("uniqueKey") == Set(RulesFileParser.uniqueKeyKeys))
        #expect(try def("rowCount") == Set(RulesFileParser.rowCountKeys))
        #expect(try def("columns") == Set(RulesFileParser.columnsKeys))
        #expect(try def("freshness") == Set(RulesFileParser.freshnessKeys))
        #expect(try def("constraintTree") == Set(ConstraintTreeCompiler.keys))
        #expect(try def("csvOptions") == Set(CSVOptions.keys))
        #expect(try def("xmlOptions") == Set(XMLReaderOptions.keys))
        #expect(try def("xmlField") == Set(XMLReaderOptions.fieldKeys))
        #expect(try def("sqliteOptions") == Set(SQLiteOptions.keys))
        #expect(try def("postgresOptions") == Set(PostgresOptions.keys))
        #expect(try def("sparkOptions") == Set(SparkOptions.keys))
        #expect(try def("jsonlOptions") == Set(JSONLOptions.keys))
        #expect(try def("jsonlField") == Set(JSONLOptions.fieldKeys))

        // Every constraint of an attribute, written as a mapping with `value:`, takes exactly
        // the constraint options; a relationship's counts and delete rule take `value:` too.
        let attribute = try #require((defs["attribute"] as? [String: Any])?["anyOf"] as? [[String: Any]])
        let attributeProps = try #require(attribute.first { $0["properties"] != nil }?["properties"] as? [String: Any])
        for kind in ConstraintKind.allCases {
            #expect(try properties(attributeProps[kind.rawValue], kind.rawValue) == Set(RulesFileParser.constraintOptionKeys),
                    "\(kind.rawValue)")
        }
        let relationship = try #require((defs["relationship"] as? [String: Any])?["properties"] as? [String: Any])
        for key in ["minCount", "maxCount", "deleteRule"] {
            #expect(try properties(relationship[key], key) == Set(RulesFileParser.valueOptionKeys), "\(key)")
        }

        // The closed vocabularies.
        #expect(try enumValues("valueType") == Set(ValueType.allCases.map(\.rawValue)))
        #expect(try enumValues("severity") == Set(Severity.allCases.map(\.rawValue)))
        let deleteRule = try #require((relationship["deleteRule"] as? [String: Any])?["anyOf"] as? [[String: Any]])
        #expect(Set(try #require(deleteRule.first?["enum"] as? [String])) == Set(DeleteRule.allCases.map(\.rawValue)))
        let scope = try #require((defs["scope"] as? [String: Any])?["anyOf"] as? [[String: Any]])
        #expect(Set(try #require(scope.first?["enum"] as? [String])) == Set(LifecycleScope.words.map(\.0)))
    }
}
