import Foundation
import TestSupport
import Testing

/// A `;` export whose amounts and dates are written the German way (`1.234,50`, `31.12.1970`),
/// as Python's `decimal` and `strftime` write them: audited with `decimalComma:` and
/// `dateFormat:`, the counts are Python's, on one thread and on
/// two (the file then parsed in blocks), and `auditor profile` finds the column and drafts
/// rules that the file passes.
@Suite struct LocaleFormatsEndToEndTests {
    /// Writes argv[1]/export.csv and prints the counts that rules.yml must give.
    static let generator = #"""
        import datetime, decimal, json, random, sys
        rnd = random.Random(17)
        low, high = decimal.Decimal("-1000.005"), decimal.Decimal("99999.99")
        counts = {"csv.decimal.point": 0, "Export.amount.type": 0, "Export.amount.min": 0, "Export.amount.max": 0,
                  "Export.born.type": 0, "Export.born.min": 0}
        lines = ["id;amount;born;note"]
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
            born = datetime.date(1930, 1, 1) + datetime.timedelta(days=rnd.randint(0, 30000))
            day = born.strftime("%d.%m.%Y")
            if rnd.random() < 0.01:
                day = f"31.{rnd.choice(['02', '04', '06', '09', '11'])}.{born.year}"    # no such day
                counts["Export.born.type"] += 1
            elif born < datetime.date(1950, 1, 1):
                counts["Export.born.min"] += 1
            note = "a; b" if i % 7 == 0 else "ok"
            lines.append(f'{i};{text};{day};"{note}"')
        with open(sys.argv[1] + "/export.csv", "w", encoding="utf-8", newline="") as f:
            f.write("\r\n".join(lines) + "\r\n")
        print(json.dumps(counts))
        """#

    /// Runs `script` with python3, the scratch directory as its argv[1]; what it printed.
    static func python(_ script: String, in tmp: Scratch) throws -> Data {
        let python = try #require(GeneratedData.python3, "needs python3 on PATH")
        let made = try ChildProcess.run([python.path, "-c", script, tmp.url.path])
        try #require(made.status == 0, "\(made)")
        return made.stdout
    }

    @Test("Counts equal Python's decimal and datetime on one and two threads; the profile reads the columns so")
    func countsAndProfile() throws {
        let tmp = try Scratch("decimal-comma")
        defer { tmp.remove() }
        let expected = try #require(try JSONSerialization.jsonObject(with: Self.python(Self.generator, in: tmp)) as? [String: Int])
        #expect(expected.values.allSatisfy { $0 > 0 }, "every rule has something to find: \(expected)")
        try tmp.write("rules.yml", """
            version: 1
            sources:
              export: { path: export.csv, csv: { delimiter: ";", decimalComma: [amount], dateFormat: { born: DD.MM.YYYY } } }
            entities:
              Export:
                source: export
                attributes:
                  id: { type: integer, unique: true }
                  amount: { type: decimal, min: -1000.005, max: 99999.99 }
                  born: { type: date, min: "1950-01-01" }

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

        // An order that is none, and a column in both lists: 78 where they are written.
        let rules = try String(contentsOf: tmp.url.appendingPathComponent("rules.yml"), encoding: .utf8)
        try tmp.write("order.yml", rules.replacingOccurrences(of: "born: DD.MM.YYYY", with: "born: D.M.Y"))
        try assertExecute(["check", "order.yml"], in: tmp.url, exitCode: 78,
                          stderrContains: ["order.yml:3:98: dateFormat of 'born' must be DD or D, MM or M, and YYYY in any order, with one "
                                           + "of . / - between them (DD.MM.YYYY, MM/DD/YYYY, M/D/YYYY; D and M take one or two digits), or such a date",
                                           "(DD.MM.YYYY hh:mm UTC, YYYY-MM-DD hh:mm:ss +01:00), with AM/PM before the offset for a 12-hour "
                                           + "clock (M/D/YYYY h:mm:ss AM/PM UTC); got 'D.M.Y'"])
        try tmp.write("both.yml", rules.replacingOccurrences(of: "born: DD.MM.YYYY", with: "amount: DD.MM.YYYY"))
        try assertExecute(["check", "both.yml"], in: tmp.url, exitCode: 78,
                          stderrContains: ["'amount' is in both decimalComma and dateFormat; a column holds numbers or dates"])

        // The profile: the column is decimals, and the drafted rules read it so (the values with
        // a point or an x are its flagged outliers: one type finding or decimal-point finding each).
        let profiled = try assertExecute(["profile", "export.csv", "--rules-out", "drafted.yml"], in: tmp.url, exitCode: 0)
        #expect(profiled.stdoutText.hasPrefix("export.csv (csv, ';'-delimited, decimal comma in 'amount', dates DD.MM.YYYY in 'born'): "
                                              + "20,000 records\n"), "\(profiled)")
        #expect(profiled.stdoutText.contains("  amount: decimal 99"), "\(profiled)")
        let drafted = try String(contentsOf: tmp.url.appendingPathComponent("drafted.yml"), encoding: .utf8)
        #expect(drafted.contains("csv: { delimiter: \";\", decimalComma: [\"amount\"], dateFormat: { \"born\": \"DD.MM.YYYY\" } }"), "\(drafted)")
        let audit = try Auditor.run(["run", "drafted.yml", "--format", "json", "-q"], in: tmp.url)
        let got = try ReportJSON(audit.stdout).violationsByRule()
        #expect(got["csv.decimal.point"] == expected["csv.decimal.point"], "\(got)")
        #expect(got["export.amount.type"] == expected["Export.amount.type"], "\(got)")
        #expect(got["export.born.type"] == expected["Export.born.type"], "\(got)")
    }

    /// Writes argv[1]/us.csv, dates as a US spreadsheet writes them (`1/2/2024`, `12/25/2024`),
    /// and prints the counts that us.yml must give and the first failing hire date as Python reads it.
    static let usGenerator = #"""
        import datetime, decimal, json, random, sys
        rnd = random.Random(23)
        counts = {"Us.hired.type": 0, "Us.hired.min": 0, "Us.hired.max": 0, "Us.amount.type": 0, "Us.amount.max": 0}
        lines, first = ["id,hired,amount"], None
        for i in range(1, 20001):
            d = datetime.date(1990, 1, 1) + datetime.timedelta(days=rnd.randint(0, 14000))
            r = rnd.random()
            if r < 0.005:                                    # few enough for the profile to call the column dates
                text = rnd.choice(["2/30/2024", "13/1/2024", "0/5/2020", "1/2/24", "1-2-2024", "01/002/2024", " 1/2/2024"])
                counts["Us.hired.type"] += 1
            else:
                text = f"{d.month}/{d.day}/{d.year}" if r < 0.6 else d.strftime("%m/%d/%Y")
                if d < datetime.date(1995, 1, 1): counts["Us.hired.min"] += 1
                if d > datetime.date(2025, 12, 31): counts["Us.hired.max"] += 1
                if first is None and d < datetime.date(1995, 1, 1): first = d.isoformat()
            v = decimal.Decimal(rnd.randint(-10 ** 8, 10 ** 8)).scaleb(-rnd.choice([0, 2]))
            amount = f'"{v:,f}"' if rnd.random() < 0.7 else f"{v:f}"
            if rnd.random() < 0.005:
                amount = '"1,23.5"'                             # not grouped in threes
                counts["Us.amount.type"] += 1
            elif v > 100000:
                counts["Us.amount.max"] += 1
            lines.append(f"{i},{text},{amount}")
        with open(sys.argv[1] + "/us.csv", "w", encoding="utf-8", newline="") as f:
            f.write("\n".join(lines) + "\n")
        print(json.dumps({"counts": counts, "first": first}))
        """#

    @Test("M/D/YYYY and 1,234.50: dates as Python's datetime reads them, amounts as its decimal, on one and two threads; the profile finds both")
    func usDates() throws {
        let tmp = try Scratch("us-dates")
        defer { tmp.remove() }
        let answer = try #require(try JSONSerialization.jsonObject(with: Self.python(Self.usGenerator, in: tmp)) as? [String: Any])
        let expected = try #require(answer["counts"] as? [String: Int])
        #expect(expected.values.allSatisfy { $0 > 0 }, "every rule has something to find: \(expected)")
        try tmp.write("us.yml", """
            version: 1
            sources:
              us: { path: us.csv, csv: { dateFormat: { hired: M/D/YYYY }, thousandsComma: [amount] } }
            entities:
              Us:
                source: us
                attributes:
                  id: { type: integer, unique: true }
                  hired: { type: date, min: "1995-01-01", max: "2025-12-31" }
                  amount: { type: decimal, max: 100000 }

            """)
        var reports = [String: Int]()
        for jobs in ["1", "2"] {
            let run = try Auditor.run(["run", "us.yml", "--format", "json", "-q", "-j", jobs, "--chunk-size", "1000"], in: tmp.url)
            #expect(run.status == 1, "\(run)")
            let report = try ReportJSON(run.stdout)
            let got = try report.violationsByRule()
            for (rule, count) in expected { #expect(got[rule] == count, "-j \(jobs) \(rule): \(got[rule] ?? -1), Python: \(count)") }
            if jobs == "2" { #expect(got == reports) } else { reports = got }
            // A date is shown as it is read.
            let sample = report.rules(withID: "Us.hired.min").first.flatMap { ($0["samples"] as? [[String: Any]])?.first?["value"] as? String }
            #expect(sample == answer["first"] as? String, "\(sample ?? "none")")
        }
        let profiled = try assertExecute(["profile", "us.csv", "--rules-out", "drafted.yml"], in: tmp.url, exitCode: 0)
        #expect(profiled.stdoutText.hasPrefix("us.csv (csv, thousands commas in 'amount', dates M/D/YYYY in 'hired'): 20,000 records\n"),
                "\(profiled)")
        let drafted = try Auditor.run(["run", "drafted.yml", "--format", "json", "-q"], in: tmp.url)
        let draftedCounts = try ReportJSON(drafted.stdout).violationsByRule()
        #expect(draftedCounts["us.hired.type"] == expected["Us.hired.type"], "\(drafted)")
        #expect(draftedCounts["us.amount.type"] == expected["Us.amount.type"], "\(drafted)")
    }

    /// Writes argv[1]/export.xml from argv[1]/export.csv: one `<row>` per record, the texts as they are.
    static let toXML = #"""
        import csv, sys
        from xml.sax.saxutils import escape, quoteattr
        with open(sys.argv[1] + "/export.csv", newline="", encoding="utf-8") as f:
            rows = list(csv.DictReader(f, delimiter=";"))
        with open(sys.argv[1] + "/export.xml", "w", encoding="utf-8") as out:
            out.write("<export>\n")
            for r in rows:
                out.write(f"<row id={quoteattr(r['id'])}><amount>{escape(r['amount'])}</amount><born>{escape(r['born'])}</born>"
                          f"<note>{escape(r['note'])}</note></row>\n")
            out.write("</export>\n")
        """#

    @Test("The same export as XML: decimalComma: and dateFormat: in the xml: block give Python's counts; the profile drafts them")
    func xmlExport() throws {
        let tmp = try Scratch("decimal-comma-xml")
        defer { tmp.remove() }
        var expected = try #require(try JSONSerialization.jsonObject(with: Self.python(Self.generator, in: tmp)) as? [String: Int])
        _ = try Self.python(Self.toXML, in: tmp)
        expected["xml.decimal.point"] = expected.removeValue(forKey: "csv.decimal.point")
        try tmp.write("rules.yml", """
            version: 1
            sources:
              export: { path: export.xml, xml: { record: row, decimalComma: [amount], dateFormat: { born: DD.MM.YYYY } } }
            entities:
              Export:
                source: export
                attributes:
                  id: { type: integer, unique: true }
                  amount: { type: decimal, min: -1000.005, max: 99999.99 }
                  born: { type: date, min: "1950-01-01" }

            """)
        let run = try Auditor.run(["run", "rules.yml", "--format", "json", "-q"], in: tmp.url)
        #expect(run.status == 1, "\(run)")
        let got = try ReportJSON(run.stdout).violationsByRule()
        for (rule, count) in expected { #expect(got[rule] == count, "\(rule): \(got[rule] ?? -1), Python: \(count)") }

        // A name that no rule reads: 78, where it is written.
        try tmp.write("typo.yml", try String(contentsOf: tmp.url.appendingPathComponent("rules.yml"), encoding: .utf8)
            .replacingOccurrences(of: "decimalComma: [amount]", with: "decimalComma: [amout]"))
        for command in ["run", "check"] {     // check finds it without the file
            try assertExecute([command, "typo.yml"], in: tmp.url, exitCode: 78,
                              stderrContains: ["typo.yml:3:65: decimalComma names 'amout', which is no field that the rules read from 'export.xml'; "
                                               + "did you mean 'amount'?"])
        }
        // Two entities read the source; one of them reads the amounts.
        try tmp.write("two.yml", try String(contentsOf: tmp.url.appendingPathComponent("rules.yml"), encoding: .utf8)
            + "  Notes:\n    source: export\n    attributes:\n      id: { type: integer }\n      note: { required: true }\n")
        let two = try Auditor.run(["run", "two.yml", "--format", "json", "-q"], in: tmp.url)
        #expect(two.status == 1, "\(two)")
        let both = try ReportJSON(two.stdout).violationsByRule()
        for (rule, count) in expected { #expect(both[rule] == count, "two entities, \(rule): \(both[rule] ?? -1), Python: \(count)") }
        #expect(both["Notes.note.required"] == 0, "\(both)")

        let profiled = try assertExecute(["profile", "export.xml", "--rules-out", "drafted.yml"], in: tmp.url, exitCode: 0)
        #expect(profiled.stdoutText.hasPrefix("export.xml (xml, record '/export/row', decimal comma in 'amount', dates DD.MM.YYYY in 'born'): "
                                              + "20,000 records\n"), "\(profiled)")
        let drafted = try String(contentsOf: tmp.url.appendingPathComponent("drafted.yml"), encoding: .utf8)
        #expect(drafted.contains("decimalComma: [\"amount\"]") && drafted.contains("dateFormat: { \"born\": \"DD.MM.YYYY\" }"), "\(drafted)")
        let audit = try Auditor.run(["run", "drafted.yml", "--format", "json", "-q"], in: tmp.url)
        let again = try ReportJSON(audit.stdout).violationsByRule()
        #expect(again["xml.decimal.point"] == expected["xml.decimal.point"], "\(again)")
        #expect(again["export.amount.type"] == expected["Export.amount.type"], "\(again)")
        #expect(again["export.born.type"] == expected["Export.born.type"], "\(again)")
    }

    /// Writes argv[1]/times.csv, date-times as German spreadsheets write them (`31.12.2024 14:05`,
    /// local time at +01:00, no offset written), and prints the counts that times.yml must give.
    static let timesGenerator = #"""
        import datetime, json, random, sys
        rnd = random.Random(31)
        zone = datetime.timezone(datetime.timedelta(hours=1))
        low = datetime.datetime(2010, 1, 1, tzinfo=datetime.timezone.utc)
        high = datetime.datetime(2024, 6, 30, 22, 30, tzinfo=datetime.timezone.utc)
        counts = {"Times.at.type": 0, "Times.at.min": 0, "Times.at.max": 0, "Times.pm.type": 0, "Times.pm.min": 0, "Times.pm.max": 0}
        eastern = datetime.timezone(datetime.timedelta(hours=-5))
        lines = ["id;at;pm"]
        for i in range(1, 20001):
            t = datetime.datetime(2000, 1, 1) + datetime.timedelta(minutes=rnd.randint(0, 13_000_000))
            text = t.strftime("%d.%m.%Y %H:%M")
            r = rnd.random()
            if r < 0.005: text, t = t.strftime("%d.%m.%Y 24:%M"), None
            elif r < 0.01: text, t = f"31.02.{t.year} 10:00", None
            elif r < 0.015: text, t = t.strftime("%d.%m.%Y %H:%M:%S"), None
            if t is None:
                counts["Times.at.type"] += 1
            else:
                instant = t.replace(tzinfo=zone)
                if instant < low: counts["Times.at.min"] += 1
                if instant > high: counts["Times.at.max"] += 1
            # A 12-hour clock, as .NET writes en-US times: 12 AM is midnight.
            u = datetime.datetime(2000, 1, 1) + datetime.timedelta(seconds=rnd.randint(0, 780_000_000))
            twelve = u.strftime("%m/%d/%Y %I:%M:%S %p")
            r = rnd.random()
            if r < 0.005: twelve, u = u.strftime("%m/%d/%Y 00:%M:%S %p"), None
            elif r < 0.01: twelve, u = u.strftime("%m/%d/%Y 13:%M:%S PM"), None
            elif r < 0.015: twelve, u = u.strftime("%m/%d/%Y %I:%M:%S"), None
            if u is None:
                counts["Times.pm.type"] += 1
            else:
                instant = u.replace(tzinfo=eastern)
                if instant < low: counts["Times.pm.min"] += 1
                if instant > high: counts["Times.pm.max"] += 1
            lines.append(f"{i};{text};{twelve}")
        open(sys.argv[1] + "/times.csv", "w").write("\n".join(lines) + "\n")
        print(json.dumps(counts))
        """#

    @Test("Date-times written without an offset, read with dateFormat: in the offset it names, on a 24- or 12-hour clock: Python's counts on one and two threads")
    func localTimes() throws {
        let tmp = try Scratch("local-times")
        defer { tmp.remove() }
        let expected = try #require(try JSONSerialization.jsonObject(with: Self.python(Self.timesGenerator, in: tmp)) as? [String: Int])
        #expect(expected.values.allSatisfy { $0 > 0 }, "\(expected)")
        try tmp.write("times.yml", """
            version: 1
            sources:
              times: { path: times.csv, csv: { delimiter: ";", dateFormat: { at: "DD.MM.YYYY hh:mm +01:00", pm: "MM/DD/YYYY hh:mm:ss AM/PM -05:00" } } }
            entities:
              Times:
                source: times
                attributes:
                  id: { type: integer }
                  at: { type: datetime, min: "2010-01-01T00:00:00Z", max: "2024-06-30T22:30:00Z" }
                  pm: { type: datetime, min: "2010-01-01T00:00:00Z", max: "2024-06-30T22:30:00Z" }

            """)
        var first = [String: Int]()
        for jobs in ["1", "2"] {
            let run = try Auditor.run(["run", "times.yml", "--format", "json", "-q", "-j", jobs, "--chunk-size", "1000"], in: tmp.url)
            #expect(run.status == 1, "\(run)")
            let got = try ReportJSON(run.stdout).violationsByRule()
            for (rule, count) in expected { #expect(got[rule] == count, "-j \(jobs) \(rule): \(got[rule] ?? -1), Python: \(count)") }
            if jobs == "2" { #expect(got == first) } else { first = got }
        }
        let text = try Auditor.run(["run", "times.yml", "-q"], in: tmp.url)
        // A bad value shows as written; a bound's sample as read, in the offset it was read in.
        #expect(text.stdoutText.contains(" 24:") && text.stdoutText.contains(":00+01:00. [value '"), "\(text)")
    }

    /// A `type:` rule of a column that an option reads says how the column is written: the
    /// message named the ISO form only, which the file's values were never meant to have.
    @Test("type messages and summaries name the declared form, in csv: and xml:", arguments: ["csv", "xml"])
    func typeMessagesNameTheDeclaredForm(format: String) throws {
        let tmp = try Scratch("type-names-\(format)")
        defer { tmp.remove() }
        let rows = [("1", "31.02.2024", "12,5", "1.234", "31.12.2024 24:05"), ("2", "01.01.2024", "x", "7", "31.12.2024 10:05")]
        if format == "csv" {
            try tmp.write("t.csv", "id;born;amount;n;at\n" + rows.map { "\($0.0);\($0.1);\($0.2);\($0.3);\($0.4)\n" }.joined())
        } else {
            try tmp.write("t.xml", "<rows>" + rows.map { "<row><id>\($0.0)</id><born>\($0.1)</born><amount>\($0.2)</amount><n>\($0.3)</n><at>\($0.4)</at></row>" }
                .joined() + "</rows>")
        }
        let block = format == "csv" ? "csv: { delimiter: \";\", " : "xml: { record: row, "
        try tmp.write("rules.yml", """
            version: 1
            sources:
              t: { path: t.\(format), \(block)dateFormat: { born: DD.MM.YYYY, at: "DD.MM.YYYY hh:mm UTC" }, decimalComma: [amount, n] } }
            entities:
              Row:
                source: t
                attributes:
                  id:     { type: integer }
                  born:   { type: date }
                  amount: { type: decimal }
                  n:      { type: integer }
                  at:     { type: datetime }

            """)
        let run = try Auditor.run(["run", "rules.yml", "-q"], in: tmp.url)
        #expect(run.status == 1, "\(run)")
        for line in ["born must be a date (DD.MM.YYYY, or YYYY-MM-DD); got '31.02.2024'.",
                     "amount must be a decimal number (written 1.234,5); got 'x'.",
                     "at must be a date-time (DD.MM.YYYY hh:mm UTC, or YYYY-MM-DDTHH:MM:SSZ); got '31.12.2024 24:05'.",
                     "born is a date (DD.MM.YYYY, or YYYY-MM-DD)"] {
            #expect(run.stdoutText.contains(line), "\(line)\n\(run)")
        }
        let json = try ReportJSON(try Auditor.run(["run", "rules.yml", "--format", "json"], in: tmp.url).stdout)
        let summaries = (json.root["rules"] as? [[String: Any]] ?? []).reduce(into: [String: String]()) { $0[$1["id"] as? String ?? ""] = $1["summary"] as? String }
        #expect(summaries["Row.n.type"] == "n is an integer (written 1.234)" && summaries["Row.id.type"] == "id is an integer", "\(summaries)")
    }
}
