import Foundation
import TestSupport
@testable import AuditorReports
import Testing

/// `schemas/report.schema.json` against the JSON reports: with Python's `jsonschema` (full
/// draft 2020-12, formats checked) when it is installed, else skipped with a message; and
/// always with the small ``SchemaValidator``.
@Suite("Report schema")
struct SchemaTests {
    /// The schema in the source tree (it is not a test resource: it ships with the package).
    static let schemaURL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("schemas/report.schema.json")

    /// Every document to validate: the golden files and fresh renders (standard and HTML-safe).
    static func documents() throws -> [(name: String, text: String)] {
        var documents = Fixture.all.flatMap { fixture in
            [("\(fixture.name) (rendered)", JSONReporter().render(fixture.report)),
             ("\(fixture.name) (rendered, htmlSafe)", JSONReporter(htmlSafe: true).render(fixture.report))]
        }
        let goldens = Golden.names(withSuffix: ".json")
        #expect(goldens.count == Fixture.all.count, "expected one golden JSON per fixture, found \(goldens)")
        for name in goldens {
            documents.append(("Golden/\(name)", try #require(Golden.load(name))))
        }
        return documents
    }

    @Test("every property of the schema has a description")
    func descriptions() throws {
        let schema = try JSONSerialization.jsonObject(with: Data(contentsOf: Self.schemaURL))
        var missing: [String] = []
        func walk(_ node: Any, _ path: String) {
            if let object = node as? [String: Any] {
                for (key, property) in object["properties"] as? [String: Any] ?? [:]
                where (property as? [String: Any])?["description"] == nil {
                    missing.append(path + "/properties/" + key)
                }
                for (key, child) in object { walk(child, path + "/" + key) }
            } else if let array = node as? [Any] {
                for (index, child) in array.enumerated() { walk(child, path + "/\(index)") }
            }
        }
        walk(schema, "")
        #expect(missing.isEmpty, "properties without a description: \(missing.sorted())")
    }

    @Test("reports are valid (built-in validator)")
    func builtInValidator() throws {
        let validator = try SchemaValidator(schemaData: Data(contentsOf: Self.schemaURL))
        for document in try Self.documents() {
            let parsed = try JSONSerialization.jsonObject(with: Data(document.text.utf8))
            let errors = validator.errors(in: parsed)
            #expect(errors.isEmpty, "\(document.name): \(errors)")
        }
    }

    @Test("built-in validator rejects a broken report")
    func builtInValidatorRejects() throws {
        let validator = try SchemaValidator(schemaData: Data(contentsOf: Self.schemaURL))
        let broken = try Self.brokenDocument()
        let errors = validator.errors(in: try JSONSerialization.jsonObject(with: broken))
        #expect(errors.contains { $0.contains("additional property 'extra'") }, "\(errors)")
        #expect(errors.contains { $0.contains("missing required property 'code'") }, "\(errors)")
        #expect(errors.contains { $0.contains("/summary/outcome") }, "\(errors)")
    }

    @Test("reports are valid (Python jsonschema, draft 2020-12)",
          .enabled(if: Python.hasJSONSchema,
                   "python3 with the jsonschema module is not installed: full schema validation skipped (pip install jsonschema); the built-in validator still ran"))
    func pythonValidator() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var paths: [String] = []
        for (index, document) in try Self.documents().enumerated() {
            let url = folder.appendingPathComponent("document-\(index).json")
            try Data(document.text.utf8).write(to: url)
            paths.append(url.path)
        }
        let result = Python.run(["-c", Python.validateScript, Self.schemaURL.path] + paths)
        #expect(result.status == 0, "jsonschema found errors:\n\(result.output)")
        #expect(result.output.contains("validated \(paths.count) documents, 0 errors"), "\(result.output)")
    }

    @Test("Python jsonschema rejects a broken report (the check is live)",
          .enabled(if: Python.hasJSONSchema, "python3 with the jsonschema module is not installed: skipped"))
    func pythonValidatorRejects() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("broken.json")
        try Self.brokenDocument().write(to: url)
        let result = Python.run(["-c", Python.validateScript, Self.schemaURL.path, url.path])
        #expect(result.status == 1, "\(result.output)")
        #expect(result.output.contains("'extra'") && result.output.contains("'code' is a required property"),
                "\(result.output)")
    }

    /// The failing report with an unknown key in a rule, a rule without `code`, and a bad outcome.
    static func brokenDocument() throws -> Data {
        let text = JSONReporter().render(Fixture.failing.report)
        var document = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        var rules = try #require(document["rules"] as? [[String: Any]])
        rules[0]["extra"] = true
        rules[1]["code"] = nil
        document["rules"] = rules
        var summary = try #require(document["summary"] as? [String: Any])
        summary["outcome"] = "maybe"
        document["summary"] = summary
        return try JSONSerialization.data(withJSONObject: document)
    }

    static func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("auditor-schema-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}

/// Runs `python3` (found on `PATH` through `/usr/bin/env`).
enum Python {
    /// Whether `python3 -c 'import jsonschema'` succeeds. Evaluated once.
    static let hasJSONSchema: Bool = run(["-c", "import jsonschema"]).status == 0

    /// Validates each file named after the schema; prints one line per error and a total line;
    /// exits 1 when any document is invalid.
    static let validateScript = """
        import json, sys, jsonschema
        cls = jsonschema.Draft202012Validator
        schema = json.load(open(sys.argv[1], encoding="utf-8"))
        cls.check_schema(schema)
        validator = cls(schema, format_checker=cls.FORMAT_CHECKER)
        errors = 0
        for path in sys.argv[2:]:
            for error in validator.iter_errors(json.load(open(path, encoding="utf-8"))):
                errors += 1
                where = "/".join(str(p) for p in error.absolute_path) or "(root)"
                print(f"{path}: {where}: {error.message}")
        print(f"validated {len(sys.argv) - 2} documents, {errors} errors")
        sys.exit(1 if errors else 0)
        """

    /// Runs python3 with `arguments`; stdout and stderr together. Status -1 if it cannot start.
    static func run(_ arguments: [String]) -> (status: Int32, output: String) {
        do {
            let run = try ChildProcess.run(["python3"] + arguments, mergeErrors: true)
            return (run.status, run.stdoutText)
        } catch {
            return (-1, "cannot run python3: \(error)")
        }
    }
}
