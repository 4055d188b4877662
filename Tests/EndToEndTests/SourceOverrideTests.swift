import Foundation
import Testing

/// `--source NAME=PATH` replaces only the path: the source's format options stay.
@Suite("--source")
struct SourceOverrideTests {
    static let rules = Fixture.rules(path: "a.csv", csv: #"{ delimiter: ";", header: true, nullValues: ["NA"] }"#)
        .replacingOccurrences(of: "id: { type: integer, required: true }",
                              with: "id: { type: integer, required: true }\n      note: { type: string, required: true }")

    @Test("A semicolon CSV audited via --source keeps delimiter and nullValues")
    func keepsOptions() throws {
        let tmp = try Scratch("source")
        defer { tmp.remove() }
        try tmp.write("rules.yml", Self.rules)
        try tmp.write("a.csv", "id;name;age;note\n1;Alice;30;ok\n")
        // Another export: "Dave, Jr" holds the default delimiter; "NA" is a null value.
        try tmp.write("exports/b.csv", "id;name;age;note\n1;Alice;30;fine\n2;Bo;40;NA\n3;Dave, Jr;x;a, b\n4;Eve;NA;c\n")

        // The configured file first: clean.
        try assertExecute(["run", "rules.yml"], in: tmp.url, exitCode: 0)

        let run = try assertExecute(["run", "rules.yml", "--source", "people=exports/b.csv", "--format", "json"],
                                    in: tmp.url, exitCode: 1)
        let report = try ReportJSON(run.stdout)
        let counts = try report.violationsByRule()
        #expect(counts["csv.row.ragged"] == 0, "the delimiter was lost: \(counts)")
        #expect(counts["P.name.minLength"] == 1, "\(counts)")   // Bo
        #expect(counts["P.age.type"] == 1, "\(counts)")         // x (NA is null, not a type error)
        #expect(counts["P.note.required"] == 1, "\(counts)")    // NA
        #expect(integer(report.summary["records"]) == 4)
        #expect((report.inputs.first?["path"] as? String)?.hasSuffix("exports/b.csv") == true,
                "inputs: \(report.inputs)")

        // The text report names the overriding file in its locations.
        let text = try assertExecute(["run", "rules.yml", "--source", "people=exports/b.csv", "--color", "never"],
                                     in: tmp.url, exitCode: 1)
        #expect(text.stdoutLines.contains { $0.contains("exports/b.csv:3: error: P.name.minLength:") }, "\(text)")
        #expect(!text.stdoutText.contains("a.csv:"), "\(text)")
    }

    @Test("--source switches a source to SQLite by extension, keeping its sqlite options (table)")
    func switchesToSQLite() throws {
        let run = try assertExecute(["run", "rules/people.yml", "--source", "people=examples/people/people.sqlite", "--format", "json"],
                                    exitCode: 1)
        let report = try ReportJSON(run.stdout)
        #expect(report.inputs.first?["format"] as? String == "sqlite")
        let expected = try expectedCounts(BundledExampleTests.expectedJSON, format: "sqlite")
        try expectCounts(report, equal: expected,
                         requiring: Set(expected.keys).subtracting(deferredRuleIDs).subtracting(["csv.row.ragged"]))
    }
}
