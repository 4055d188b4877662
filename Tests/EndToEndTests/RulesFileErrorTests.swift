import Foundation
import Testing

/// Mistakes in the rules file: `rules.yml:LINE:COLUMN: message`, exit 78, for `run` and for
/// `check` (which reads no data: the data paths here do not exist unless a case needs them).
@Suite("Rules file errors")
struct RulesFileErrorTests {
    /// A broken rules file and where its diagnostic must point.
    struct Broken: Sendable, CustomTestStringConvertible {
        var name: String
        var yaml: String
        var line: Int
        var column: Int
        /// A regular expression the message after `rules.yml:L:C: ` must match.
        var message: String
        var testDescription: String { name }
    }

    static let header = "version: 1\nsources:\n  people:\n    path: nowhere.csv\n"
    static let entity = "entities:\n  P:\n    source: people\n    attributes:\n"

    static let broken: [Broken] = [
        Broken(name: "YAML: a second ':' in a plain scalar",
               yaml: "version: 1\nsources:\n  people:\n    path: a.csv: b\n",
               line: 4, column: 16, message: "(?i)yaml.*mapping values"),
        Broken(name: "YAML: a tab for indentation",
               yaml: "version: 1\nsources:\n\tpeople: {}\n",
               line: 3, column: 1, message: "(?i)yaml"),
        Broken(name: "unknown key minLenght",
               yaml: header + entity + "      name: { type: string, minLenght: 3 }\n",
               line: 9, column: 29, message: "unknown key 'minLenght'.*did you mean 'minLength'\\?"),
        Broken(name: "unknown type integr",
               yaml: header + entity + "      age: { type: integr }\n",
               line: 9, column: 20, message: "'integr'.*did you mean 'integer'\\?"),
        Broken(name: "unknown severity",
               yaml: header + "entities:\n  P:\n    source: people\n    severity: fatal\n    attributes:\n      age: { type: integer }\n",
               line: 8, column: 15, message: "severity.*'fatal'"),
        Broken(name: "entity names an unknown source",
               yaml: header + "entities:\n  P:\n    source: peeple\n    attributes:\n      age: { type: integer }\n",
               line: 7, column: 13, message: "'peeple'.*did you mean 'people'\\?"),
        Broken(name: "unknown top-level key",
               yaml: header + "entites:\n  P: {}\n",
               line: 5, column: 1, message: "'entites'.*did you mean 'entities'\\?"),
        Broken(name: "minLength is not a number",
               yaml: header + entity + "      name: { type: string, minLength: three }\n",
               line: 9, column: 40, message: "(?i)minLength.*'?three'?"),
        Broken(name: "bad regex (double-quoted)",
               yaml: header + entity + "      name: { type: string, pattern: \"[a-z\" }\n",
               line: 9, column: 38, message: "invalid pattern.*'\\[a-z'"),
    ]

    @Test("run: 78 and rules.yml:LINE:COL: message", arguments: broken)
    func runReportsRulesError(_ c: Broken) throws {
        let tmp = try Scratch("rules-error")
        defer { tmp.remove() }
        try tmp.write("rules.yml", c.yaml)
        let run = try assertExecute(["run", "rules.yml"], in: tmp.url, exitCode: 78)
        expectDiagnostic(run, c)
        #expect(run.stdout.isEmpty, "a report was printed for an invalid rules file\n\(run)")
    }

    @Test("check: 78 and the same diagnostic, without touching the (missing) data", arguments: broken)
    func checkReportsRulesError(_ c: Broken) throws {
        let tmp = try Scratch("check-error")
        defer { tmp.remove() }
        try tmp.write("rules.yml", c.yaml)
        let run = try assertExecute(["check", "rules.yml"], in: tmp.url, exitCode: 78)
        expectDiagnostic(run, c)
        #expect(!run.stderrText.contains("cannot open"), "check tried to read data\n\(run)")
    }

    /// The diagnostic starts a stderr line with `rules.yml:LINE:` and a column: the exact one
    /// where the mistake is, give or take the quote before a quoted scalar.
    func expectDiagnostic(_ run: Execution, _ c: Broken, sourceLocation: SourceLocation = #_sourceLocation) {
        let prefix = #"^(.*/)?rules\.yml:([0-9]+):([0-9]+): "#
        guard let line = run.stderrLines.first(where: { $0.range(of: prefix, options: .regularExpression) != nil }) else {
            Issue.record("no 'rules.yml:LINE:COL: ' line on stderr\n\(run)", sourceLocation: sourceLocation)
            return
        }
        let parts = line.split(separator: ":", maxSplits: 3, omittingEmptySubsequences: false)
        let (l, col) = (Int(parts[1]) ?? -1, Int(parts[2]) ?? -1)
        #expect(l == c.line && (c.column...c.column + 1).contains(col),
                "points at \(l):\(col), the mistake is at \(c.line):\(c.column)\n\(run)", sourceLocation: sourceLocation)
        #expect(line.range(of: c.message, options: .regularExpression) != nil,
                "message does not match /\(c.message)/: \(line)", sourceLocation: sourceLocation)
    }

    // MARK: Unknown attribute (needs the CSV header, so `run` only)

    /// A header without a declared column is a data problem (DataErrorTests), not a rules-file
    /// error: exit 65 at the input, still naming the attribute's line and a did-you-mean.
    @Test("Unknown attribute: 65 at data.csv:1:1, naming rules.yml:LINE:COL and 'age'")
    func unknownAttribute() throws {
        let tmp = try Scratch("unknown-attribute")
        defer { tmp.remove() }
        try tmp.write("data.csv", "id,name,age\n1,Alice,30\n")
        let yaml = "version: 1\nsources:\n  people:\n    path: data.csv\n" + Self.entity
            + "      id: { type: integer }\n      agee: { type: integer }\n"
        try tmp.write("rules.yml", yaml)
        let run = try assertExecute(["run", "rules.yml", "--format", "json"], in: tmp.url, exitCode: 65)
        #expect(run.stderrText.contains("data.csv:1:1: the header of data.csv lacks the column 'agee' that 'P' declares at rules.yml:10:7"),
                "\(run)")
        #expect(run.stderrText.contains("did you mean 'age'? Its columns: 'id', 'name', 'age'."), "\(run)")
        #expect(!run.stdout.isEmpty, "the report is still written")
    }

    @Test("check: 78 for an unknown attribute when the source declares its columns (no data needed)")
    func checkUnknownAttributeWithDeclaredColumns() throws {
        let tmp = try Scratch("check-columns")
        defer { tmp.remove() }
        let yaml = "version: 1\nsources:\n  people:\n    path: nowhere.csv\n    csv: { header: false, columns: [id, name, age] }\n"
            + Self.entity + "      agee: { type: integer }\n"
        try tmp.write("rules.yml", yaml)
        let run = try assertExecute(["check", "rules.yml"], in: tmp.url, exitCode: 78)
        expectDiagnostic(run, Broken(name: "agee", yaml: yaml, line: 10, column: 7, message: "did you mean 'age'\\?"))
    }

    // MARK: Bad regular expressions: the location is inside the pattern's text

    struct BadPattern: Sendable, CustomTestStringConvertible {
        var name: String
        /// The attribute's YAML, indented under `attributes:`.
        var attribute: String
        /// The pattern's source text as it stands in the file (to find its line and columns).
        var text: String
        var testDescription: String { name }
    }

    static let badPatterns: [BadPattern] = [
        BadPattern(name: "double-quoted, error at the start", attribute: "      name: { type: string, pattern: \"[a-z\" }\n", text: "\"[a-z\""),
        BadPattern(name: "double-quoted, error inside", attribute: "      name: { type: string, pattern: \"abc(d\" }\n", text: "\"abc(d\""),
        BadPattern(name: "double-quoted with an escape", attribute: "      name: { type: string, pattern: \"a\\\\.b[c\" }\n", text: "\"a\\\\.b[c\""),
        BadPattern(name: "single-quoted", attribute: "      name: { type: string, pattern: 'x{2,1}' }\n", text: "'x{2,1}'"),
        BadPattern(name: "plain, block mapping", attribute: "      name:\n        type: string\n        pattern: ab[c\n", text: "ab[c"),
    ]

    @Test("Bad regex: 78 and a line:column inside the pattern", arguments: badPatterns)
    func badRegex(_ p: BadPattern) throws {
        try checkBadRegex(p)
    }

    @Test("Bad regex in a folded block scalar: the location is inside the pattern")
    func badRegexInBlockScalar() throws {
        try checkBadRegex(BadPattern(name: "folded", attribute: "      name:\n        type: string\n        pattern: >-\n          ab[c\n", text: "ab[c"))
    }

    func checkBadRegex(_ p: BadPattern, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let tmp = try Scratch("bad-regex")
        defer { tmp.remove() }
        let yaml = Self.header + Self.entity + p.attribute
        try tmp.write("rules.yml", yaml)
        let at = try #require(position(of: p.text, in: yaml, after: "attributes:"), sourceLocation: sourceLocation)
        for command in ["check", "run"] {
            let run = try assertExecute([command, "rules.yml"], in: tmp.url, exitCode: 78, sourceLocation: sourceLocation)
            let pattern = #"^(.*/)?rules\.yml:([0-9]+):([0-9]+): .*pattern"#
            guard let line = run.stderrLines.first(where: { $0.range(of: pattern, options: .regularExpression) != nil }) else {
                Issue.record("no 'rules.yml:LINE:COL: … pattern' line on stderr\n\(run)", sourceLocation: sourceLocation)
                continue
            }
            let parts = line.split(separator: ":", maxSplits: 3, omittingEmptySubsequences: false)
            let (l, col) = (Int(parts[1]) ?? -1, Int(parts[2]) ?? -1)
            let span = at.column...(at.column + p.text.count - 1)
            #expect(l == at.line && span.contains(col),
                    "\(command): points at \(l):\(col); the pattern's text is on line \(at.line), columns \(span)\n\(run)",
                    sourceLocation: sourceLocation)
        }
    }

    // MARK: All errors at once

    @Test("Several mistakes: one diagnostic per stderr line, each with its location")
    func severalMistakesOnSeparateLines() throws {
        let tmp = try Scratch("several")
        defer { tmp.remove() }
        try tmp.write("rules.yml", Self.header + "entities:\n  P:\n    source: peeple\n    severity: fatal\n    attributes:\n      age: { type: integr }\n")
        let run = try assertExecute(["check", "rules.yml"], in: tmp.url, exitCode: 78)
        let located = run.stderrLines.filter { $0.range(of: #"^(.*/)?rules\.yml:[0-9]+:[0-9]+: "#, options: .regularExpression) != nil }
        #expect(located.count == 3, "\(run)")
        #expect(!run.stderrText.contains("\\nrules.yml:"), "diagnostics glued with a literal \\n\n\(run)")
    }

    // MARK: check on valid files

    @Test("check: 0 on a valid file whose data does not exist; on the bundled rules")
    func checkValid() throws {
        let tmp = try Scratch("check-valid")
        defer { tmp.remove() }
        try tmp.write("rules.yml", Fixture.rules(path: "no/such/data.csv"))
        let run = try assertExecute(["check", "rules.yml"], in: tmp.url, exitCode: 0)
        #expect(run.stdoutText.contains("ok"), "\(run)")
        #expect(!FileManager.default.fileExists(atPath: tmp.path("no")))
        try assertExecute(["check", "rules/people.yml"], exitCode: 0)
        let quiet = try assertExecute(["check", "--quiet", "rules/people.yml"], exitCode: 0)
        #expect(quiet.stdout.isEmpty && quiet.stderr.isEmpty, "\(quiet)")
    }
}
