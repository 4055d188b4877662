import Foundation
import TestSupport
import Testing

/// `auditor profile` end to end on data made by `../shared/bench/gen.py` (20 000 people with
/// 2 % injected faults): the suggested rules pass `auditor check`, and auditing the same data
/// with them fails exactly the flagged outliers, rule by rule (issue 19), on CSV, SQLite, XML,
/// JSON Lines and Parquet.
@Suite("Profile round trip")
struct ProfileRoundTripTests {
    enum Format: String, CaseIterable, Sendable { case csv, sqlite, xml, jsonl }

    /// JSON Lines: the people converted with numbers and booleans typed (`scripts/csv-to-jsonl.py --typed`).
    static func sources(_ format: Format, in data: URL) throws -> [String] {
        switch format {
        case .csv: return [data.appendingPathComponent("people.csv").path, data.appendingPathComponent("departments.csv").path]
        case .sqlite: return [data.appendingPathComponent("people.sqlite").path + "#people", data.appendingPathComponent("departments.csv").path]
        case .xml: return [data.appendingPathComponent("people.xml").path + "#person", data.appendingPathComponent("departments.xml").path + "#department"]
        case .jsonl: return [try JSONLEndToEndTests.typed.get().path, data.appendingPathComponent("departments.csv").path]
        }
    }

    static func object(_ data: Data) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test("profile → rules → check → audit the same data: only the flagged outliers fail", arguments: Format.allCases)
    func roundTrip(_ format: Format) throws {
        guard GeneratedData.available else { Issue.record(GeneratedData.skipReason); return }
        let data = try GeneratedData.dataset()
        try Self.roundTrip(try Self.sources(format, in: data), name: format.rawValue)
    }

    /// The people as pyarrow reads gen.py's CSV (types inferred; its ragged rows left out), written as Parquet.
    @Test("The same round trip on Parquet written by pyarrow",
          .enabled(if: GeneratedData.available && PyarrowPython.path != nil, "needs python3 and a Python with pyarrow (.ci/run's .venv)"))
    func roundTripParquet() throws {
        let data = try GeneratedData.dataset()
        let tmp = try Scratch("profile-parquet-data")
        defer { tmp.remove() }
        let parquet = tmp.url.appendingPathComponent("people.parquet").path
        let made = try ChildProcess.run([try #require(PyarrowPython.path), "-c", """
            import sys, pyarrow.csv as pc, pyarrow.parquet as pq
            options = pc.ParseOptions(newlines_in_values=True, invalid_row_handler=lambda row: 'skip')
            pq.write_table(pc.read_csv(sys.argv[1], parse_options=options), sys.argv[2])
            """, data.appendingPathComponent("people.csv").path, parquet])
        try #require(made.status == 0, "\(made)")
        try Self.roundTrip([parquet, data.appendingPathComponent("departments.csv").path], name: "parquet")
    }

    /// Profiles `sources`, checks the drafted rules, audits the same data with them, and expects
    /// exactly the flagged outliers, rule by rule.
    static func roundTrip(_ sources: [String], name: String) throws {
        let tmp = try Scratch("profile-\(name)")
        defer { tmp.remove() }
        try assertExecute(["profile"] + sources + ["--rules-out", "rules.yml", "--format", "json", "--output", "profile.json"],
                          in: tmp.url, exitCode: 0)
        let rules = try String(contentsOf: tmp.url.appendingPathComponent("rules.yml"), encoding: .utf8)
        #expect(rules.contains("# ") && rules.contains("flagged outliers"), "the rules carry their evidence")
        let expected = try outliersMatch(in: tmp.url)
        #expect(expected.count > 25, "only \(expected.count) rules suggested")
        #expect(expected.values.reduce(0, +) > 0, "the faulty data has flagged outliers")
    }

    /// Checks `rules.yml` in `folder` and audits the data with it: each rule fails exactly the
    /// outliers that `profile.json` flagged for it. Returns those, by rule.
    @discardableResult
    static func outliersMatch(in folder: URL) throws -> [String: Int] {
        try assertExecute(["check", "rules.yml"], in: folder, exitCode: 0)
        let run = try Auditor.run(["run", "rules.yml", "--format", "json", "--output", "report.json"], in: folder)
        // Outliers are findings at severity error: exit 1, the report written; none, exit 0.
        #expect(run.status == 0 || run.status == 1, "\(run)")
        let profile = try Self.object(Data(contentsOf: folder.appendingPathComponent("profile.json")))
        let report = try Self.object(Data(contentsOf: folder.appendingPathComponent("report.json")))
        var expected = [String: Int]()
        for s in profile["sources"] as? [[String: Any]] ?? [] {
            for r in s["suggestedRules"] as? [[String: Any]] ?? [] {
                expected[r["id"] as? String ?? "?"] = r["outliers"] as? Int ?? -1
            }
            if let m = s["malformedRecords"] as? Int, m > 0 { expected["csv.row.ragged@\(s["name"] as? String ?? "?")"] = m }
        }
        var got = [String: Int]()
        for r in report["rules"] as? [[String: Any]] ?? [] { got[r["id"] as? String ?? "?"] = r["violations"] as? Int ?? 0 }
        #expect(run.status == (expected.values.contains { $0 > 0 } ? 1 : 0), "\(run)")
        for id in Set(expected.keys).union(got.keys).sorted() {
            #expect(expected[id, default: 0] == got[id, default: 0], "\(id): the profile flagged \(expected[id, default: 0]), the audit found \(got[id, default: 0])")
        }
        // Rules the audit knows but the profile did not suggest are structural ones that passed.
        for id in got.keys where expected[id] == nil { #expect(got[id] == 0, "\(id)") }
        return expected
    }

    @Test("The suggested rules name the benchmark's keys, enum, pattern classes and the foreign key")
    func suggestions() throws {
        guard GeneratedData.available else { Issue.record(GeneratedData.skipReason); return }
        let data = try GeneratedData.dataset()
        let tmp = try Scratch("profile-suggestions")
        defer { tmp.remove() }
        try assertExecute(["profile"] + (try Self.sources(.csv, in: data)) + ["--rules-out", "rules.yml"], in: tmp.url, exitCode: 0)
        let rules = try String(contentsOf: tmp.url.appendingPathComponent("rules.yml"), encoding: .utf8)
        for needle in ["enum: [\"CA\", \"DE\", \"ES\", \"FR\", \"GB\", \"IT\", \"NL\", \"PL\", \"SE\", \"US\"]",
                       "pattern: \"[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\\\\.[A-Za-z]{2,}\"",
                       "references: Departments.id", "type: datetime", "type: boolean", "type: date\n"] {
            #expect(rules.contains(needle), "missing \(needle)\n\(rules)")
        }
    }

    @Test("Text and HTML output; an XML source without its record element is read by the element that repeats")
    func outputs() throws {
        guard GeneratedData.available else { Issue.record(GeneratedData.skipReason); return }
        let data = try GeneratedData.dataset()
        let text = try assertExecute(["profile", data.appendingPathComponent("departments.csv").path], exitCode: 0)
        #expect(text.stdoutText.contains("departments.csv (csv): 25 records"), "\(text)")
        #expect(text.stdoutText.contains("id: integer 100 %"), "\(text)")
        let html = try assertExecute(["profile", data.appendingPathComponent("departments.csv").path, "--format", "html"], exitCode: 0)
        #expect(html.stdoutText.hasPrefix("<!DOCTYPE html>") && html.stdoutText.contains("Content-Security-Policy"), "\(html)")
        let xml = try assertExecute(["profile", data.appendingPathComponent("people.xml").path], exitCode: 0)
        #expect(xml.stdoutText.contains("people.xml (xml, record '/people/person'): 20,000 records"), "\(xml)")
    }

    @Test("The profile and the rules are byte-identical for 1 and 2 jobs", arguments: [Format.csv, Format.sqlite])
    func jobsIndependent(_ format: Format) throws {
        guard GeneratedData.available else { Issue.record(GeneratedData.skipReason); return }
        let data = try GeneratedData.dataset()
        let tmp = try Scratch("profile-jobs")
        defer { tmp.remove() }
        for jobs in ["1", "2"] {
            try assertExecute(["profile"] + (try Self.sources(format, in: data)) + ["--jobs", jobs, "--rules-out", "rules\(jobs).yml",
                               "--format", "json", "--output", "profile\(jobs).json"], in: tmp.url, exitCode: 0)
        }
        #expect(try Data(contentsOf: tmp.url.appendingPathComponent("profile1.json")) == Data(contentsOf: tmp.url.appendingPathComponent("profile2.json")))
        #expect(try Data(contentsOf: tmp.url.appendingPathComponent("rules1.yml")) == Data(contentsOf: tmp.url.appendingPathComponent("rules2.yml")))
    }

    @Test("Keys, enums and dependencies on a small file: the rules say them and the file passes them")
    func dependencies() throws {
        let tmp = try Scratch("profile-deps")
        defer { tmp.remove() }
        var csv = "code,start,end,phone,phone_kind,status\n"
        for i in 0 ..< 200 {
            let has = i % 3 == 0
            csv += "C\(1000 + i),2024-01-\(String(format: "%02d", 1 + i % 28)),2024-02-\(String(format: "%02d", 1 + (i * 7) % 28)),"
            csv += has ? "555\(i),\(i % 2 == 0 ? "mobile" : "home")," : ",,"
            csv += ["open", "closed", "held"][i % 3] + "\n"
        }
        try tmp.write("deps.csv", csv)
        try assertExecute(["profile", "deps.csv", "--rules-out", "rules.yml"], in: tmp.url, exitCode: 0)
        let rules = try String(contentsOf: tmp.url.appendingPathComponent("rules.yml"), encoding: .utf8)
        for needle in ["key: [code]", "unique: true", "enum: [\"closed\", \"held\", \"open\"]",
                       "assert: \"isNull(phone) == isNull(phone_kind)\"", "assert: \"start <= end\"", "pattern: \"[A-Z0-9]+\""] {
            #expect(rules.contains(needle), "missing \(needle)\n\(rules)")
        }
        try assertExecute(["check", "rules.yml"], in: tmp.url, exitCode: 0)
        try assertExecute(["run", "rules.yml", "-q"], in: tmp.url, exitCode: 0)
    }

    @Test("Columns missing together give one rule per column, not one per pair; an empty value gives no minLength: 0")
    func nullTogetherChain() throws {
        let tmp = try Scratch("profile-null-chain")
        defer { tmp.remove() }
        var csv = "id,a,b,c,d,note,code\n"
        for i in 0 ..< 100 {
            csv += i % 4 == 0 ? "\(i),,,,,," : "\(i),\(i),x\(i),2024-01-0\(1 + i % 9),\(i % 2 == 0),n\(i),"
            csv += i == 1 ? "\"\"\n" : "k\(i)\n"       // one empty code: present, 0 characters
        }
        try tmp.write("t.csv", csv)
        try assertExecute(["profile", "t.csv", "--rules-out", "rules.yml"], in: tmp.url, exitCode: 0)
        let rules = try String(contentsOf: tmp.url.appendingPathComponent("rules.yml"), encoding: .utf8)
        let pairs = rules.split(separator: "\n").filter { $0.contains(".nullWith.") }.map { String($0) }
        #expect(pairs.count == 4, "\(pairs)")
        for other in ["b", "c", "d", "note"] {
            #expect(pairs.contains { $0.contains("isNull(a) == isNull(\(other))") }, "\(other): \(pairs)")
        }
        #expect(!rules.contains("minLength: 0") && rules.contains("maxLength: 3"), "\(rules)")
        try assertExecute(["run", "rules.yml", "-q"], in: tmp.url, exitCode: 0)
    }

    @Test("A column read with dateFormat: or decimalComma: is drafted as dates, date-times or decimals when 90 % of its values are (the rest are outliers)")
    func readingsKeepTheirType() throws {
        let python = try #require(GeneratedData.python3, "needs python3 on PATH")
        let tmp = try Scratch("profile-readings-type")
        defer { tmp.remove() }
        let made = try ChildProcess.run([python.path, "-c", #"""
            import datetime, json, random, sys
            rnd = random.Random(5)
            lines, bad = ["id;born;amount;at"], {"born": 0, "amount": 0, "at": 0}
            for i in range(2000):
                d = datetime.date(1950, 1, 1) + datetime.timedelta(days=rnd.randint(0, 20000))
                born = d.strftime("%d.%m.%Y")
                if rnd.random() < 0.03: born, bad["born"] = f"31.02.{d.year}", bad["born"] + 1
                amount = f"{rnd.randint(0, 9999)},{rnd.randint(0, 99):02d}"
                if rnd.random() < 0.03: amount, bad["amount"] = "n/a", bad["amount"] + 1
                at = (datetime.datetime(2020, 1, 1) + datetime.timedelta(seconds=rnd.randint(0, 10 ** 8))).strftime("%Y-%m-%d %H:%M:%S")
                if rnd.random() < 0.03: at, bad["at"] = at[:11] + "24" + at[13:], bad["at"] + 1
                lines.append(f"{i};{born};{amount};{at}")
            open(sys.argv[1] + "/eu.csv", "w").write("\n".join(lines) + "\n")
            print(json.dumps(bad))
            """#, tmp.url.path])
        try #require(made.status == 0, "\(made)")
        let bad = try #require(try JSONSerialization.jsonObject(with: made.stdout) as? [String: Int])
        try assertExecute(["profile", "eu.csv", "--rules-out", "rules.yml", "--format", "json", "--output", "profile.json"], in: tmp.url, exitCode: 0)
        let outliers = try Self.outliersMatch(in: tmp.url)
        #expect(outliers["eu.born.type"] == bad["born"] && outliers["eu.amount.type"] == bad["amount"] && outliers["eu.at.type"] == bad["at"],
                "\(outliers), Python: \(bad)")
        let rules = try String(contentsOf: tmp.url.appendingPathComponent("rules.yml"), encoding: .utf8)
        #expect(rules.contains("\"at\": \"YYYY-MM-DD hh:mm:ss UTC\""), "\(rules)")
    }

    @Test("The profile and the rules draft never overwrite a profiled input, however it is reached")
    func outputsNeverReachAnInput() throws {
        let tmp = try Scratch("profile-outputs")
        defer { tmp.remove() }
        try tmp.write("p.csv", "id,name\n1,a\n2,b\n")
        try FileManager.default.createSymbolicLink(atPath: tmp.path("link.csv"), withDestinationPath: "p.csv")
        let before = try Data(contentsOf: tmp.url.appendingPathComponent("p.csv"))
        for flag in ["--output", "--rules-out"] {
            for target in ["p.csv", "link.csv", "./p.csv"] {
                let run = try Auditor.run(["profile", "p.csv", flag, target], in: tmp.url)
                #expect(run.status == 64, "\(flag) \(target): \(run)")
            }
        }
        #expect(try Data(contentsOf: tmp.url.appendingPathComponent("p.csv")) == before)
        try assertExecute(["profile", "p.csv", "--output", "-"], in: tmp.url, exitCode: 0)
    }
}
