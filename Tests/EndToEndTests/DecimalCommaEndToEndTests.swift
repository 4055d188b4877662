import Foundation
import TestSupport
import Testing

/// A `;` export whose amounts are written the German way (`1.234,50`), as Python's `decimal`
/// formats them: audited with `decimalComma:`, the counts are Python's, on one thread and on
/// two (the file then parsed in blocks), and `auditor profile` finds the column and drafts
/// rules that the file passes.
@Suite struct DecimalCommaEndToEndTests {
    /// Writes argv[1]/export.csv and prints the counts that rules.yml must give.
    static let generator = #"""
        import decimal, json, random, sys
        rnd = random.Random(17)
        low, high = decimal.Decimal("-1000.005"), decimal.Decimal("99999.99")
        counts = {"csv.decimal.point": 0, "Export.amount.type": 0, "Export.amount.min": 0, "Export.amount.max": 0}
        lines = ["id;amount;note"]
        for i in range(1, 20001):
            v = decimal.Decimal(rnd.randint(-10 ** 9, 10 ** 9)).scaleb(-rnd.choice([0, 1, 2, 3, 4]))
            text = (f"{v:,f}" if rnd.random() < 0.5 else f"{v:f}").translate(str.maketrans(",.", ".,"))
            r = rnd.random()
            if r < 0.01:
                text = f"{abs(v) + decimal.Decimal('0.5'):f}"          # written with a decimal point
                counts["csv.decimal.point"] += 1
                v = decimal.Decimal(text)
            elif r < 0.02:
                text += "x"
                counts["Export.amount.type"] += 1
                v = None
            if v is not None and v < low: counts["Export.amount.min"] += 1
            if v is not None and v > high: counts["Export.amount.max"] += 1
            note = "a; b" if i % 7 == 0 else "ok"
            lines.append(f'{i};{text};"{note}"')
        with open(sys.argv[1] + "/export.csv", "w", encoding="utf-8", newline="") as f:
            f.write("\r\n".join(lines) + "\r\n")
        print(json.dumps(counts))
        """#

    @Test("Counts equal Python's decimal on one and two threads; the profile reads the column as decimals")
    func countsAndProfile() throws {
        let python = try #require(GeneratedData.python3, "needs python3 on PATH")
        let tmp = try Scratch("decimal-comma")
        defer { tmp.remove() }
        let made = try ChildProcess.run([python.path, "-c", Self.generator, tmp.url.path])
        try #require(made.status == 0, "\(made)")
        let expected = try #require(try JSONSerialization.jsonObject(with: made.stdout) as? [String: Int])
        #expect(expected.values.allSatisfy { $0 > 0 }, "every rule has something to find: \(expected)")
        try tmp.write("rules.yml", """
            version: 1
            sources:
              export: { path: export.csv, csv: { delimiter: ";", decimalComma: [amount] } }
            entities:
              Export:
                source: export
                attributes:
                  id: { type: integer, unique: true }
                  amount: { type: decimal, min: -1000.005, max: 99999.99 }

            """)
        var reports = [String: Int]()
        for jobs in ["1", "2"] {
            let run = try Auditor.run(["run", "rules.yml", "--format", "json", "-q", "-j", jobs, "--chunk-size", "1000"], in: tmp.url)
            #expect(run.status == 1, "\(run)")
            let got = try ReportJSON(run.stdout).violationsByRule()
            for (rule, count) in expected { #expect(got[rule] == count, "-j \(jobs) \(rule): \(got[rule] ?? -1), Python: \(count)") }
            if jobs == "2" { #expect(got == reports) } else { reports = got }
        }
        // A name that is no column: 78, where it is written.
        try tmp.write("typo.yml", try String(contentsOf: tmp.url.appendingPathComponent("rules.yml"), encoding: .utf8)
            .replacingOccurrences(of: "decimalComma: [amount]", with: "decimalComma: [amout]"))
        try assertExecute(["run", "typo.yml"], in: tmp.url, exitCode: 78,
                          stderrContains: ["typo.yml:3:68: decimalComma names 'amout', which is no column of 'export.csv'; did you mean 'amount'?"])

        // The profile: the column is decimals, and the drafted rules read it so (the values with
        // a point or an x are its flagged outliers: one type finding or decimal-point finding each).
        let profiled = try assertExecute(["profile", "export.csv", "--rules-out", "drafted.yml"], in: tmp.url, exitCode: 0)
        #expect(profiled.stdoutText.hasPrefix("export.csv (csv, ';'-delimited, decimal comma in 'amount'): 20,000 records\n"), "\(profiled)")
        #expect(profiled.stdoutText.contains("  amount: decimal 99"), "\(profiled)")
        let drafted = try String(contentsOf: tmp.url.appendingPathComponent("drafted.yml"), encoding: .utf8)
        #expect(drafted.contains("csv: { delimiter: \";\", decimalComma: [\"amount\"] }"), "\(drafted)")
        let audit = try Auditor.run(["run", "drafted.yml", "--format", "json", "-q"], in: tmp.url)
        let got = try ReportJSON(audit.stdout).violationsByRule()
        #expect(got["csv.decimal.point"] == expected["csv.decimal.point"], "\(got)")
        #expect(got["export.amount.type"] == expected["Export.amount.type"], "\(got)")
    }
}
