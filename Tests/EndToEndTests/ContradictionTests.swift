import Foundation
import Testing

/// `auditor check` finds contradictions (issue 19): every diagnostic is located
/// (`rules.yml:L:C`), errors exit 78 for `check` and `run`, warnings are printed by `check`,
/// which then exits 0.
@Suite("Rules-file contradictions")
struct ContradictionTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        /// The attributes, relationships or rules, under `entities: P: source: people`.
        var body: String
        /// The text the diagnostic points at (first occurrence, after `anchor` if given).
        var at: String
        var anchor: String? = nil
        /// A regular expression the message must match.
        var message: String
        var warning = false
        var extraSources = ""
        var people = "    path: nowhere.csv\n"
        var testDescription: String { name }
    }

    static func yaml(_ c: Case) -> String {
        "version: 1\nsources:\n  people:\n" + c.people + c.extraSources
            + "entities:\n  P:\n    source: people\n" + c.body
    }

    static let cases: [Case] = [
        Case(name: "min > max", body: "    attributes:\n      age: { type: integer, min: 10, max: 5 }\n",
             at: "max: 5", message: "'age' has min 10 and max 5, which leave no value"),
        Case(name: "date min > max", body: "    attributes:\n      d: { type: date, min: 2024-02-01, max: 2024-01-31 }\n",
             at: "max: 2024-01-31", message: "min 2024-02-01 and max 2024-01-31"),
        Case(name: "exclusive bounds equal on decimals", body: "    attributes:\n      x: { type: decimal, exclusiveMin: 2.5, max: 2.5 }\n",
             at: "max: 2.5", message: "exclusiveMin 2.5 and max 2.5, which leave no value"),
        Case(name: "exclusive bounds leave no integer", body: "    attributes:\n      n: { type: integer, exclusiveMin: 3, exclusiveMax: 4 }\n",
             at: "exclusiveMax: 4", message: "exclusiveMin 3 and exclusiveMax 4, which leave no value"),
        Case(name: "exclusive bounds leave no date", body: "    attributes:\n      d: { type: date, exclusiveMin: 2024-01-01, exclusiveMax: 2024-01-02 }\n",
             at: "exclusiveMax", message: "which leave no value"),
        Case(name: "minLength > maxLength", body: "    attributes:\n      s: { type: string, minLength: 5, maxLength: 3 }\n",
             at: "maxLength: 3", message: "minLength 5 greater than maxLength 3"),
        Case(name: "minCount > maxCount on a list", body: "    attributes:\n      tags: { type: string, split: \";\", minCount: 4, maxCount: 2 }\n",
             at: "maxCount: 2", message: "minCount 4 greater than maxCount 2"),
        Case(name: "minCount > maxCount on a relationship",
             body: "    key: [id]\n    attributes:\n      id: { type: integer, unique: true }\n      boss: { type: integer }\n    relationships:\n      reports: { from: P.manager, minCount: 3, maxCount: 1 }\n      manager: { attribute: boss, references: P.id }\n",
             at: "reports:", message: "minCount 3 greater than maxCount 1"),
        Case(name: "enum value not of the integer type", body: "    attributes:\n      n: { type: integer, enum: [1, 2.5] }\n",
             at: "2.5", message: "enum value '2.5' of 'n' is not an integer"),
        Case(name: "enum value not a boolean", body: "    attributes:\n      b: { type: boolean, enum: [true, yes] }\n",
             at: "yes", message: "enum value 'yes' of 'b' is not true or false"),
        Case(name: "enum value not a date", body: "    attributes:\n      d: { type: date, enum: [2024-02-30] }\n",
             at: "2024-02-30", message: "enum value '2024-02-30' of 'd' is not a date"),
        Case(name: "enum value fails the pattern", body: "    attributes:\n      c: { type: string, pattern: \"[A-Z]{2}\", enum: [US, gb] }\n",
             at: "gb", message: "enum value 'gb' of 'c' does not match its pattern \\[A-Z\\]\\{2\\}"),
        Case(name: "enum value too long", body: "    attributes:\n      c: { type: string, maxLength: 2, enum: [US, GBR] }\n",
             at: "GBR", message: "enum value 'GBR' of 'c' has 3 characters, more than maxLength 2"),
        Case(name: "enum value too short", body: "    attributes:\n      c: { type: string, minLength: 2, enum: [X, US] }\n",
             at: "X,", message: "enum value 'X' of 'c' has 1 character, fewer than minLength 2"),
        Case(name: "enum value outside max", body: "    attributes:\n      n: { type: integer, max: 10, enum: [5, 11] }\n",
             at: "11", message: "enum value '11' of 'n' is outside max 10"),
        Case(name: "bound not an integer (a warning: it is exact, min 1.5 means 2)", body: "    attributes:\n      n: { type: integer, min: 1.5 }\n",
             at: "1.5", message: "min 1.5 is not a valid value of 'n', which is an integer; write min 2, which means the same", warning: true),
        Case(name: "exclusive bound not an integer", body: "    attributes:\n      n: { type: integer, exclusiveMax: -2.5 }\n",
             at: "-2.5", message: "exclusiveMax -2.5 is not a valid value of 'n', which is an integer; write max -3, which means the same", warning: true),
        Case(name: "bound not a real date", body: "    attributes:\n      d: { type: date, max: 2023-02-29 }\n",
             at: "2023-02-29", message: "max must be a date like 2020-01-31; got '2023-02-29'"),
        Case(name: "bound not a number", body: "    attributes:\n      x: { type: decimal, min: 1e3 }\n",
             at: "1e3", message: "min must be a number like 0 or -12.5; got '1e3'"),
        Case(name: "required key outside the allowed keys", body: "    attributes:\n      addr: { type: string, requiredKeys: [city, zip], allowedKeys: [street, city] }\n",
             at: "zip", message: "required key 'zip' of 'addr' is not in its allowedKeys",
             people: "    path: nowhere.xml\n    xml: { record: person, fields: { addr: { path: addr, as: map } } }\n"),
        Case(name: "record rule never holds (bounds)",
             body: "    attributes:\n      age: { type: integer, min: 0, max: 150 }\n    rules:\n      - assert: age > 200\n",
             at: "age > 200", message: "the assertion 'age > 200' can never hold"),
        Case(name: "record rule never holds (contradictory conjunction)",
             body: "    attributes:\n      x: { type: decimal }\n    rules:\n      - assert: x > 5 and x < 3\n",
             at: "x > 5", message: "can never hold"),
        Case(name: "record rule never holds (enum)",
             body: "    attributes:\n      c: { type: string, enum: [US, GB] }\n    rules:\n      - assert: c == 'FR'\n",
             at: "c == 'FR'", message: "can never hold"),
        Case(name: "record rule never holds under its condition",
             body: "    attributes:\n      age: { type: integer }\n      licence: { type: boolean }\n    rules:\n      - when: age < 16\n        assert: age >= 18 or licence == false and age > 30\n",
             at: "age >= 18", message: "can never hold"),
        Case(name: "record rule comparing two attributes never holds",
             body: "    attributes:\n      a: { type: date, max: 2020-12-31 }\n      b: { type: date, min: 2021-01-01 }\n    rules:\n      - assert: a > b\n",
             at: "a > b", message: "can never hold"),
        Case(name: "reference to an undeclared attribute",
             body: "    attributes:\n      id: { type: integer, unique: true }\n      parent: integer\n    relationships:\n      up: { attribute: parent, references: P.ident }\n",
             at: "P.ident", message: "'ident' is not an attribute of 'P'"),
        Case(name: "reference to an undeclared entity",
             body: "    attributes:\n      id: { type: integer, unique: true }\n      parent: integer\n    relationships:\n      up: { attribute: parent, references: Q.id }\n",
             at: "Q.id", message: "references an unknown entity 'Q'"),
        // Warnings: printed, exit 0.
        Case(name: "record rule always holds", body: "    attributes:\n      age: { type: integer, min: 0 }\n    rules:\n      - assert: age >= 0 or age < -5\n",
             at: "age >= 0", message: "always holds", warning: true),
        Case(name: "record rule whose condition never holds",
             body: "    attributes:\n      age: { type: integer, max: 120 }\n    rules:\n      - when: age between 130 and 140\n        assert: age > 0\n",
             at: "age between", message: "the condition 'age between 130 and 140' can never hold.*never applies", warning: true),
        Case(name: "reference to a key not declared unique",
             body: "    attributes:\n      id: { type: integer }\n      parent: { type: integer }\n    relationships:\n      up: { attribute: parent, references: P.id }\n",
             at: "P.id", message: "references 'P.id', which is not declared unique.*declare unique: true on id", warning: true),
        Case(name: "source no entity reads", body: "    attributes:\n      id: { type: integer }\n",
             at: "orphans:", message: "source 'orphans' is not read by any entity", warning: true,
             extraSources: "  orphans:\n    path: elsewhere.csv\n"),
    ]

    @Test("check: located diagnostic, 78 for errors and 0 for warnings", arguments: cases)
    func check(_ c: Case) throws {
        let tmp = try Scratch("contradiction")
        defer { tmp.remove() }
        let text = Self.yaml(c)
        try tmp.write("rules.yml", text)
        let run = try assertExecute(["check", "rules.yml"], in: tmp.url, exitCode: c.warning ? 0 : 78)
        let pos = try #require(position(of: c.at, in: text, after: c.anchor))
        let level = c.warning ? "warning: " : ""
        let line = run.stderrLines.first { $0.hasPrefix("rules.yml:\(pos.line):") }
        #expect(line != nil, "no diagnostic on line \(pos.line)\n\(run)")
        if let line {
            let parts = line.split(separator: ":", maxSplits: 3)
            let col = Int(parts[2]) ?? -1
            #expect((pos.column - 1...pos.column + 1).contains(col), "points at column \(col), expected \(pos.column)\n\(run)")
            #expect(line.range(of: "^rules\\.yml:\(pos.line):\(col): \(level).*\(c.message)", options: .regularExpression) != nil,
                    "message does not match /\(c.message)/: \(line)")
        }
        if c.warning { #expect(run.stdoutText.contains("1 warning"), "\(run)") }
    }

    @Test("run: the same contradictions stop the audit with 78 before any data is read",
          arguments: cases.filter { !$0.warning })
    func run(_ c: Case) throws {
        let tmp = try Scratch("contradiction-run")
        defer { tmp.remove() }
        try tmp.write("rules.yml", Self.yaml(c))
        let run = try assertExecute(["run", "rules.yml"], in: tmp.url, exitCode: 78)
        #expect(!run.stderrText.contains("cannot open"), "\(run)")
    }

    @Test("No false alarms: satisfiable bounds, enums and rules are clean")
    func clean() throws {
        let tmp = try Scratch("contradiction-clean")
        defer { tmp.remove() }
        let body = """
                key: [id]
                attributes:
                  id: { type: integer, unique: true }
                  n: { type: integer, exclusiveMin: 3, exclusiveMax: 5, enum: [4] }
                  x: { type: decimal, min: 2.5, max: 2.5 }
                  d: { type: date, exclusiveMin: 2024-01-01, exclusiveMax: 2024-01-03 }
                  c: { type: string, pattern: "[A-Z]{2}", minLength: 2, maxLength: 2, enum: [US, GB] }
                  parent: { type: integer }
                rules:
                  - assert: id > 0 and x >= 2.5
                  - when: c == 'US'
                    assert: d >= date("2024-01-02") and parent != 3
                  - assert: parent > id or isNull(parent)
                relationships:
                  up: { attribute: parent, references: P.id }

            """
        try tmp.write("rules.yml", Self.yaml(Case(name: "clean", body: body, at: "", message: "")))
        let run = try assertExecute(["check", "rules.yml"], in: tmp.url, exitCode: 0)
        #expect(run.stderrText.isEmpty, "\(run)")
    }
}
