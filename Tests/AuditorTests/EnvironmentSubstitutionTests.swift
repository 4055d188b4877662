import Foundation
import TestSupport
import Testing
@testable import Auditor

/// `${VAR}` and `${VAR:-default}` in a rules file's string values (issue 19).
@Suite struct EnvironmentSubstitutionTests {
    static func parse(_ body: String, _ environment: [String: String]) throws -> RulesSpec {
        try RulesFileParser(formats: ["csv"], environment: environment)
            .parse("version: 1\n" + body, path: "/rules/rules.yml")
    }

    static let file = """
        sources:
          people:
            path: ${DATA_DIR}/people-${DAY:-latest}.csv
            csv: { nullValues: ["${NULL_TOKEN:-NA}"] }
        entities:
          Person:
            attributes:
              id: { type: integer, pattern: "[0-9]+$${literal}" }
        """

    @Test func variablesAndDefaultsAreReplacedInValues() throws {
        let spec = try Self.parse(Self.file, ["DATA_DIR": "/exports", "DAY": "2026-11-25"])
        let source = try #require(spec.sources.first)
        #expect(source.path == "/exports/people-2026-11-25.csv")
        #expect(source.resolvedPath == "/exports/people-2026-11-25.csv")
        let csv = try #require(source.options["csv"]).mapping("csv")
        #expect(csv["nullValues"]?.sequenceOrSingle().first?.scalar == "NA")
        let pattern = try #require(spec.entities.first?.attributes.first?.constraints.first { $0.kind == .pattern })
        #expect(pattern.value.scalar == "[0-9]+${literal}", "$${ is a literal ${")
    }

    @Test func anEmptyVariableTakesTheDefaultLikeAShell() throws {
        let spec = try Self.parse(Self.file, ["DATA_DIR": "d", "DAY": ""])
        #expect(spec.sources.first?.path == "d/people-latest.csv")
        let set = try Self.parse(Self.file, ["DATA_DIR": "", "DAY": "x"])
        #expect(set.sources.first?.path == "/people-x.csv", "without a default, an empty variable is empty")
    }

    @Test func aMissingVariableIsALocatedErrorNamingIt() throws {
        let error = try #require(throws: AuditError.self) { try Self.parse(Self.file, [:]) }
        let d = try #require(error.diagnostics.first)
        #expect(error.code == .invalidRules)
        #expect(d.message.contains("DATA_DIR is not set"))
        #expect(d.message.contains("${DATA_DIR:-value}"))
        // Line 4 of the file ("version: 1" is line 1), at the `${`.
        #expect(d.mark.line == 4)
        #expect(d.mark.column == 11)
    }

    @Test func malformedReferencesAreErrorsNotLiteralText() throws {
        for (text, expected) in [("${DATA DIR}", "is not a variable reference"), ("${}", "is not a variable reference"),
                                 ("a/${DATA_DIR", "never closed"), ("${1X}", "is not a variable reference")] {
            let body = "sources:\n  people: { path: \"\(text)\" }\nentities:\n  P: { attributes: { id: integer } }\n"
            let error = try #require(throws: AuditError.self) { try Self.parse(body, ["DATA_DIR": "d"]) }
            #expect(error.diagnostics.contains { $0.message.contains(expected) }, "\(text): \(error.diagnostics)")
        }
    }

    @Test func keysAndTextWithoutReferencesAreLeftAlone() throws {
        let body = "sources:\n  people: { path: \"costs $5 and $x.csv\" }\nentities:\n  P: { attributes: { id: integer } }\n"
        let spec = try Self.parse(body, [:])
        #expect(spec.sources.first?.path == "costs $5 and $x.csv")
    }

    /// Differential: the substitution agrees with POSIX sh's `${VAR}` / `${VAR:-default}`.
    @Test func agreesWithTheShell() throws {
        let environment = ["A": "alpha", "EMPTY": "", "SP": "two words"]
        let cases = ["${A}", "x${A}y", "${A:-d}", "${EMPTY:-d}", "${UNSET:-d}", "${EMPTY}", "${A}${SP}", "${UNSET:-}", "pre-${SP:-z}-post"]
        for text in cases {
            var problems = [String]()
            let ours = ConfigNode.substitute(text, environment) { _, m in problems.append(m) }
            #expect(problems.isEmpty, "\(text): \(problems)")
            let shell = try ChildProcess.run(["/bin/sh", "-c", "printf '%s' \"\(text)\""], environment: environment).stdoutText
            #expect(ours == shell, "\(text)")
        }
    }
}
