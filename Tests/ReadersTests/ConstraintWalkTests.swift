import Auditor
import Foundation
import TestSupport
import AuditorReaders
import Testing

/// Issue 13 §1, the walk: every constraint kind (enumerated from ``ConstraintKind``, so that a
/// new kind without a case here fails), in shorthand and long form, on CSV, XML and SQLite
/// files built from one table of rows: exactly one bad value gives exactly one finding, of
/// that rule, with the expected code.
@Suite struct ConstraintWalkTests {
    /// A value of the walk's table, written in each format's own way.
    enum Val {
        case text(String)
        case null
        /// An explicit null: `NULL` under `explicitNullValues` in CSV, `xsi:nil="true"` in XML;
        /// SQL has none (written as NULL, which is absent).
        case explicitNull
        case list([String])
        case map([(String, String)])
    }

    /// The field shape a case needs.
    enum Shape { case scalar, list, map }

    /// One constraint kind's walk: the attribute `v` of entity `E`, rows keyed `id` 1...n.
    struct Case {
        var type: ValueType
        /// The constraint's value as YAML (`3`, `"[a-z]+"`, `[a, b]`).
        var value: String
        var shape: Shape = .scalar
        /// The current snapshot, exactly one value bad.
        var rows: [Val]
        /// The previous snapshot (lifecycle constraints), same ids.
        var previous: [Val]? = nil
        var code: Int
        /// The source's `csv:` block, if the case needs one.
        var csvOptions: String? = nil
    }

    static func t(_ s: String...) -> [Val] { s.map(Val.text) }

    /// Every kind's case; `nil` for a kind the walk does not know yet (the test fails).
    static func walkCase(_ kind: ConstraintKind) -> Case? {
        switch kind {
        case .required: return Case(type: .string, value: "true", rows: t("a", "b") + [.null] + t("c"), code: 1570)
        case .allowsNull:
            return Case(type: .string, value: "false", rows: t("a", "b") + [.explicitNull] + t("c"), code: 2008,
                        csvOptions: "{ explicitNullValues: [NULL] }")
        case .allowsMissing: return Case(type: .string, value: "false", rows: t("a", "b") + [.null] + t("c"), code: 2009)
        case .type: return Case(type: .integer, value: "integer", rows: t("1", "2", "abc", "4"), code: 2001)
        case .min: return Case(type: .integer, value: "10", rows: t("10", "20", "5", "30"), code: 1620)
        case .max: return Case(type: .integer, value: "10", rows: t("10", "-3", "11", "0"), code: 1610)
        case .exclusiveMin: return Case(type: .decimal, value: "0", rows: t("0.5", "2.25", "0", "7"), code: 1620)
        case .exclusiveMax:
            return Case(type: .date, value: "2024-01-01", rows: t("2023-12-31", "2000-02-29", "2024-01-01", "1999-01-01"), code: 1630)
        case .minLength: return Case(type: .string, value: "3", rows: t("abc", "abcd", "ab", "xyz"), code: 1670)
        case .maxLength: return Case(type: .string, value: "3", rows: t("abc", "a", "abcd", "xy"), code: 1660)
        case .pattern: return Case(type: .string, value: "\"[a-z]+\"", rows: t("abc", "x", "A1", "zz"), code: 1680)
        case .enum: return Case(type: .string, value: "[a, b]", rows: t("a", "b", "c", "a"), code: 2002)
        case .integral: return Case(type: .decimal, value: "true", rows: t("2", "3", "2.5", "-4"), code: 2003)
        case .unique: return Case(type: .integer, value: "true", rows: t("1", "2", "2", "3"), code: 1551)
        case .allOf:
            return Case(type: .string, value: "[ { minLength: 2 }, { maxLength: 3 } ]", rows: t("ab", "abc", "a", "xy"), code: 2007)
        case .anyOf:
            return Case(type: .string, value: "[ { enum: [a] }, { pattern: \"[0-9]+\" } ]", rows: t("a", "12", "b", "7"), code: 2010)
        case .oneOf:
            return Case(type: .string, value: "[ { pattern: \"[a-z]+\" }, { maxLength: 1 } ]", rows: t("ab", "1", "a", "xyz"), code: 2011)
        case .not: return Case(type: .string, value: "{ enum: [x] }", rows: t("a", "y", "x", "b"), code: 2012)
        case .minCount:
            return Case(type: .string, value: "2", shape: .list, rows: [.list(["a", "b"]), .list(["c", "d", "e"]), .list(["f"]), .list(["g", "h"])], code: 1580)
        case .maxCount:
            return Case(type: .string, value: "2", shape: .list, rows: [.list(["a", "b"]), .list(["c"]), .list(["d", "e", "f"]), .list(["g", "h"])], code: 1590)
        case .each:
            return Case(type: .string, value: "{ pattern: \"[a-z]+\" }", shape: .list,
                        rows: [.list(["a", "b"]), .list(["c"]), .list(["d", "E1"]), .list(["g"])], code: 2007)
        case .uniqueItems:
            return Case(type: .string, value: "true", shape: .list, rows: [.list(["a", "b"]), .list(["c"]), .list(["d", "d"]), .list(["a", "g"])], code: 2005)
        case .keys:
            return Case(type: .string, value: "{ zip: { pattern: \"[0-9]{5}\" } }", shape: .map,
                        rows: [.map([("zip", "12345")]), .map([("city", "Oslo")]), .map([("zip", "123")]), .map([("zip", "54321")])], code: 2007)
        case .requiredKeys:
            return Case(type: .string, value: "[city]", shape: .map,
                        rows: [.map([("city", "Oslo")]), .map([("city", "Rome"), ("zip", "1")]), .map([("zip", "2")]), .map([("city", "Nice")])], code: 1570)
        case .allowedKeys:
            return Case(type: .string, value: "[city, zip]", shape: .map,
                        rows: [.map([("city", "Oslo")]), .map([("zip", "1")]), .map([("city", "Lyon"), ("planet", "Earth")]), .map([("city", "Nice")])], code: 2006)
        case .eachKey:
            return Case(type: .string, value: "{ pattern: \"[a-z]+\" }", shape: .map,
                        rows: [.map([("zip", "1")]), .map([("city", "x")]), .map([("Zip2", "3")]), .map([("a", "b")])], code: 2007)
        case .eachValue:
            return Case(type: .string, value: "{ pattern: \"[0-9]+\" }", shape: .map,
                        rows: [.map([("a", "1")]), .map([("b", "22")]), .map([("c", "x")]), .map([("d", "4")])], code: 2007)
        case .pairs:
            return Case(type: .string, value: "[ { keyPattern: \"tel_.*\", value: { pattern: \"[0-9]+\" } } ]", shape: .map,
                        rows: [.map([("tel_a", "1")]), .map([("name", "x")]), .map([("tel_b", "x")]), .map([("tel_c", "2")])], code: 2007)
        case .immutable:
            return Case(type: .string, value: "true", rows: t("a", "b", "x", "d"), previous: t("a", "b", "c", "d"), code: 2040)
        case .transitions:
            return Case(type: .string, value: "[\"a -> b\"]", rows: t("b", "a", "d", "c"), previous: t("a", "a", "c", "c"), code: 2041)
        }
    }

    enum Format: String, CaseIterable { case csv, xml, sqlite }

    /// The attribute as written: shorthand (`v: integer`, `minLength: 3`) or long form
    /// (`type: { value: integer }`, `minLength: { value: 3 }`).
    static func attribute(_ kind: ConstraintKind, _ c: Case, format: Format, long: Bool) -> String {
        if kind == .type {
            return long ? "{ type: { value: \(c.type.rawValue) } }" : c.type.rawValue
        }
        var parts = ["type: \(c.type.rawValue)"]
        if c.shape == .list, format != .xml { parts.append("split: \";\"") }
        parts.append(long ? "\(kind.rawValue): { value: \(c.value) }" : "\(kind.rawValue): \(c.value)")
        return "{ " + parts.joined(separator: ", ") + " }"
    }

    static func rules(_ kind: ConstraintKind, _ c: Case, format: Format, long: Bool) -> String {
        let options: String
        switch format {
        case .csv: options = c.csvOptions.map { "\n    csv: \($0)" } ?? ""
        case .xml:
            let field = c.shape == .list ? ", fields: { v: { path: v/i, as: list } }"
                : c.shape == .map ? ", fields: { v: { path: v, as: map } }" : ""
            options = "\n    xml: { record: row\(field) }"
        case .sqlite: options = "\n    sqlite: { table: t }"
        }
        return """
            version: 1
            sources:
              s:
                path: data.\(format.rawValue)\(options)
            entities:
              E:
                source: s
                key: [id]
                attributes:
                  id: integer
                  v: \(attribute(kind, c, format: format, long: long))

            """
    }

    /// Writes `rows` in a format; ids are 1...n.
    static func write(_ rows: [Val], type: ValueType, format: Format, to path: String) throws {
        func xmlEscaped(_ s: String) -> String {
            s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
        }
        switch format {
        case .csv:
            var text = "id,v\n"
            for (i, v) in rows.enumerated() {
                switch v {
                case .text(let s): text += "\(i + 1),\(s)\n"
                case .null: text += "\(i + 1),\n"
                case .explicitNull: text += "\(i + 1),NULL\n"
                case .list(let items): text += "\(i + 1),\(items.joined(separator: ";"))\n"
                case .map: throw WalkError.unsupported
                }
            }
            try text.write(toFile: path, atomically: true, encoding: .utf8)
        case .xml:
            var text = "<?xml version=\"1.0\"?>\n<rows>\n"
            for (i, v) in rows.enumerated() {
                text += "  <row><id>\(i + 1)</id>"
                switch v {
                case .text(let s): text += "<v>\(xmlEscaped(s))</v>"
                case .null: break
                case .explicitNull: text += "<v xsi:nil=\"true\" xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\"/>"
                case .list(let items): text += "<v>" + items.map { "<i>\(xmlEscaped($0))</i>" }.joined() + "</v>"
                case .map(let pairs): text += "<v>" + pairs.map { "<\($0.0)>\(xmlEscaped($0.1))</\($0.0)>" }.joined() + "</v>"
                }
                text += "</row>\n"
            }
            try (text + "</rows>\n").write(toFile: path, atomically: true, encoding: .utf8)
        case .sqlite:
            let column = type == .integer ? "INTEGER" : type == .decimal ? "REAL" : type == .boolean ? "INTEGER" : "TEXT"
            var sql = "CREATE TABLE t (id INTEGER PRIMARY KEY, v \(column));\n"
            for (i, v) in rows.enumerated() {
                let literal: String
                switch v {
                case .text(let s):
                    let isNumber = s.range(of: #"^-?[0-9]+(\.[0-9]+)?$"#, options: .regularExpression) != nil
                    literal = (type == .integer || type == .decimal) && isNumber ? s
                        : "'" + s.replacingOccurrences(of: "'", with: "''") + "'"
                case .null, .explicitNull: literal = "NULL"
                case .list(let items): literal = "'" + items.joined(separator: ";") + "'"
                case .map: throw WalkError.unsupported
                }
                sql += "INSERT INTO t VALUES (\(i + 1), \(literal));\n"
            }
            try TestDatabase(path).exec(sql)
        }
    }

    enum WalkError: Error { case unsupported }

    /// Parses, checks and compiles as `auditor check` does (options, list and map shapes).
    static func plan(_ yaml: String, path: String) throws -> (AuditPlan?, [Diagnostic]) {
        let registry = StandardReaders.registry
        let spec = try RulesFileParser(formats: registry.formats).parse(yaml, path: path)
        let decoded = registry.decodeOptions(spec.sources)
        var d = decoded.diagnostics
        d += RuleCompiler.collectionDiagnostics(spec) { source in decoded.options.fieldShapes(source: source.name) }
        guard d.isEmpty else { return (nil, d) }
        var plan = try RuleCompiler.compile(spec)
        plan.adopt(decoded.options)
        return (plan, [])
    }

    @Test("Every constraint kind, shorthand and long form, on CSV, XML and SQLite: one bad value, one finding",
          arguments: ConstraintKind.allCases, Format.allCases)
    func walk(kind: ConstraintKind, format: Format) throws {
        guard let c = Self.walkCase(kind) else {
            Issue.record("the walk has no case for the constraint kind '\(kind.rawValue)': add one to walkCase(_:)")
            return
        }
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("auditor-walk-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let data = dir.appendingPathComponent("data.\(format.rawValue)").path
        let rulesPath = dir.appendingPathComponent("rules.yml").path
        for long in [false, true] {
            let form = long ? "long form" : "shorthand"
            let yaml = Self.rules(kind, c, format: format, long: long)
            if c.shape == .map, format != .xml {
                // CSV and SQLite have no maps: the constraint is a located rules-file error.
                let (_, d) = try Self.plan(yaml, path: rulesPath)
                #expect(d.count == 1 && d.first?.message.contains("applies to a map") == true, "\(form): \(d)")
                continue
            }
            try? FileManager.default.removeItem(atPath: data)
            try Self.write(c.rows, type: c.type, format: format, to: data)
            var options = AuditOptions(jobs: 1, chunkSize: 2)
            if let previous = c.previous {
                let prev = dir.appendingPathComponent("previous.\(format.rawValue)").path
                try? FileManager.default.removeItem(atPath: prev)
                try Self.write(previous, type: c.type, format: format, to: prev)
                options.previousPaths = ["s": prev]
            }
            let (plan, d) = try Self.plan(yaml, path: rulesPath)
            #expect(d.isEmpty, "\(form): \(d)")
            guard let plan else { continue }
            let report = try AuditEngine(registry: StandardReaders.registry, options: options).run(plan).report
            let id = "E.v.\(kind.rawValue)"
            let rule = report.rules.first { $0.id == id }
            if format == .sqlite, c.rows.contains(where: { if case .explicitNull = $0 { true } else { false } }) {
                // SQL NULL is absent, never an explicit null: nothing for allowsNull to find.
                #expect(rule?.violations == 0, "\(form): \(id) has \(rule?.violations ?? -1) violations")
                continue
            }
            #expect(rule?.violations == 1, "\(form): \(id) has \(rule?.violations ?? -1) violations")
            #expect(rule?.samples.first?.code == c.code, "\(form): \(id) code \(rule?.samples.first?.code ?? -1)")
            #expect(rule?.codes == [c.code], "\(form)")
            #expect(rule?.samples.first?.key == "id=3", "\(form): the third row holds the bad value")
            let others = report.rules.filter { $0.id != id && $0.violations > 0 }.map { "\($0.id): \($0.violations)" }
            #expect(others.isEmpty, "\(form): other rules have findings: \(others)")
            #expect(report.inputs.allSatisfy { $0.complete }, "\(form): \(report.inputs.compactMap(\.error))")
            // Every rule's codes, structural ones of the reader included, are documented codes.
            for r in report.rules {
                #expect(r.codes.allSatisfy { FindingCode(rawValue: $0) != nil }, "\(r.id): \(r.codes) not in FindingCode")
            }
        }
    }
}
