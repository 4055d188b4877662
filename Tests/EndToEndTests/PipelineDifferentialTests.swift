import Foundation
import TestSupport
import Testing

/// The pipeline's promise, through the binary: the same audit with `--jobs 1`, 2 and 3 and
/// any `--chunk-size` gives a byte-identical JSON report (timings aside), on CSV, XML and
/// SQLite inputs with data errors, ragged rows, quoted line breaks, a reference, uniqueness
/// and lifecycle rules against a `--previous` snapshot (including the delete pass); and a
/// reader error mid-stream gives its documented exit code (65) and the same report.
///
/// The CSV is larger than two morsels (512 KiB each), so with several jobs records straddle
/// morsel cuts and line numbers are placed across them.
@Suite("Pipeline: same report for any --jobs and --chunk-size")
struct PipelineDifferentialTests {
    static let rules = """
        version: 1
        sources:
          people:
            path: people.csv
            csv: { delimiter: ",", header: true, nullValues: [""] }
            xml: { record: /people/person }
            sqlite: { table: people }
          departments:
            path: departments.csv
        entities:
          Person:
            source: people
            key: [id]
            attributes:
              id: { type: integer, required: true, unique: true }
              name: { type: string, required: true, minLength: 2, pattern: "[A-Za-z ]+", immutable: true }
              age: { type: integer, required: true, min: 0 }
              status:
                type: string
                enum: [draft, active, retired]
                transitions: ["draft -> active", "active -> retired", "* -> draft"]
              dept: integer
              notes: string
            relationships:
              department: { attribute: dept, references: Department.id }
            rules:
              - id: person.adult_active
                when: status == 'active'
                assert: age >= 18
              - id: person.delete.retired
                on: [delete]
                assert: status == 'retired'
          Department:
            source: departments
            key: [id]
            attributes: { id: integer, name: string }
        """

    static let fields = ["id", "name", "age", "status", "dept", "notes"]

    /// A small deterministic generator (SplitMix64).
    struct Generator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
    }

    /// `count` people; `day` 0 is the previous snapshot, 1 today (some deleted, changed, added).
    /// Values are `nil` when missing. About 1 in 40 values is bad data of some kind.
    static func people(count: Int, day: Int) -> [[String?]] {
        var g = Generator(state: 42)
        var rows = [[String?]]()
        let names = ["Ann Lee", "Bob", "Cy Young", "Dee", "Eve Adams", "Fay", "Gus Grant", "Hal"]
        let statuses = ["draft", "active", "retired"]
        for i in 1 ... count {
            let deletedToday = g.below(50) == 0
            let changed = g.below(10) == 0
            var id: String? = String(i)
            if g.below(400) == 0 { id = String(max(1, i - 3)) }       // a duplicate key
            if g.below(900) == 0 { id = "x\(i)" }                        // not an integer
            var name: String? = names[g.below(names.count)]
            if g.below(60) == 0 { name = nil }
            if g.below(70) == 0 { name = "Z" }
            if g.below(80) == 0 { name = "R2-D2" }
            var age: String? = String(g.below(90))
            if g.below(90) == 0 { age = "old" }
            if g.below(100) == 0 { age = "-\(g.below(9) + 1)" }
            var status = statuses[g.below(3)]
            if day == 1, changed { status = statuses[(statuses.firstIndex(of: status)! + 1 + g.below(2)) % 3] }
            if g.below(300) == 0 { status = "paused" }
            var dept: String? = String(g.below(12) + 1)                   // 11 and 12 do not exist
            if g.below(50) == 0 { dept = nil }
            var notes: String? = String(repeating: "n", count: g.below(90))
            switch g.below(40) {
            case 0: notes = "two\nlines, \"quoted\""
            case 1: notes = "ü — 日本, ok"
            case 2: notes = nil
            default: break
            }
            if day == 1, changed, g.below(4) == 0 { name = (name ?? "") + " Jr" }
            if day == 1, deletedToday { continue }
            rows.append([id, name, age, status, dept, notes])
        }
        if day == 1 {
            for i in count + 1 ... count + count / 30 {
                rows.append([String(i), "New Person", String(g.below(90)), "draft", String(g.below(12) + 1), nil])
            }
        }
        return rows
    }

    static func csv(_ rows: [[String?]], ragged: Bool) -> String {
        var out = fields.joined(separator: ",") + "\n"
        var g = Generator(state: 7)
        for row in rows {
            var cells = row.map { value -> String in
                guard let value else { return "" }
                if value.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" }) {
                    return "\"" + value.replacingOccurrences(of: "\"", with: "\"\"") + "\""
                }
                return value
            }
            if ragged, g.below(150) == 0 { cells.append("extra") }
            if ragged, g.below(150) == 0 { cells.removeLast(2) }
            out += cells.joined(separator: ",") + (g.below(20) == 0 ? "\r\n" : "\n")
        }
        return out
    }

    static func xml(_ rows: [[String?]]) -> String {
        func escape(_ s: String) -> String {
            s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
                .replacingOccurrences(of: ">", with: "&gt;")
        }
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<people>\n"
        for row in rows {
            out += "  <person>"
            for (f, value) in zip(fields, row) {
                if let value { out += "<\(f)>\(escape(value))</\(f)>" }
            }
            out += "</person>\n"
        }
        return out + "</people>\n"
    }

    /// Builds `name` from `csvPath` with Python's sqlite3 module (typed columns: SQLite's own
    /// affinity decides each value's storage class).
    static func sqlite(_ scratch: Scratch, csv csvPath: String, name: String) throws {
        let script = """
            import csv, sqlite3, sys
            db = sqlite3.connect(sys.argv[2])
            db.execute("CREATE TABLE people (id INTEGER, name TEXT, age INTEGER, status TEXT, dept INTEGER, notes TEXT)")
            with open(sys.argv[1], newline="", encoding="utf-8") as f:
                r = csv.reader(f)
                next(r)
                rows = [[v if v != "" else None for v in (row + [""] * 6)[:6]] for row in r]
            db.executemany("INSERT INTO people VALUES (?, ?, ?, ?, ?, ?)", rows)
            db.commit()
            db.close()
            """
        let run = try ChildProcess.run(["/usr/bin/python3", "-c", script, csvPath, scratch.path(name)])
        try #require(run.status == 0, "python3 could not build \(name): \(run)")
    }

    enum Format: String, CaseIterable, Sendable { case csv, xml, sqlite }

    /// Today's and yesterday's people in `format`, the departments and the rules.
    static func scratch(_ format: Format, count: Int) throws -> Scratch {
        let s = try Scratch("pipeline-\(format)")
        try s.write("rules.yml", rules)
        try s.write("departments.csv", "id,name\n" + (1 ... 10).map { "\($0),Dept \($0)\n" }.joined())
        for (day, name) in [(0, "yesterday"), (1, "today")] {
            let rows = people(count: count, day: day)
            switch format {
            case .csv:
                try s.write("\(name).csv", csv(rows, ragged: true))
            case .xml:
                try s.write("\(name).xml", xml(rows))
            case .sqlite:
                try s.write("\(name)-source.csv", csv(rows, ragged: false))
                try sqlite(s, csv: s.path("\(name)-source.csv"), name: "\(name).sqlite")
            }
        }
        return s
    }

    /// (jobs, chunk size) runs compared with `--jobs 1 --chunk-size 8192`.
    static let variants = [(1, 7), (2, 1), (2, 7), (2, 8192), (3, 64), (3, 8192)]

    @Test("Same JSON report for --jobs 1/2/3 and chunk sizes 1, 7, 64, 8192", arguments: Format.allCases)
    func sameReport(_ format: Format) throws {
        // CSV: ~1.4 MB, three morsels; XML and SQLite smaller (they are not cut into morsels).
        let s = try Self.scratch(format, count: format == .csv ? 16_000 : 6_000)
        defer { s.remove() }
        let base = ["run", s.path("rules.yml"), "--source", "people=\(s.path("today.\(format)"))",
                    "--previous", "people=\(s.path("yesterday.\(format)"))", "--format", "json"]
        let reference = try assertExecute(base + ["--jobs", "1", "--chunk-size", "8192"], exitCode: 1, timeout: 300)
        let expected = try withoutTimings(reference.stdout)
        let violations = try ReportJSON(reference.stdout).violationsByRule()
        // The report must hold what the comparison claims to cover.
        for id in ["Person.id.unique", "Person.name.immutable", "Person.status.transitions", "Person.dept.fk",
                   "person.delete.retired", "person.adult_active", "Person.name.pattern"] {
            #expect((violations[id] ?? 0) > 0, "\(format): no violation of \(id) in \(violations)")
        }
        if format == .csv {
            #expect((violations["csv.row.ragged"] ?? 0) > 0)
            #expect(try Data(contentsOf: URL(fileURLWithPath: s.path("today.csv"))).count > 2 * 512 << 10)
        }
        for (jobs, chunk) in Self.variants {
            let run = try assertExecute(base + ["--jobs", String(jobs), "--chunk-size", String(chunk)],
                                        exitCode: 1, timeout: 300)
            let got = try withoutTimings(run.stdout)
            #expect(got.replaced == expected.replaced)
            #expect(got.text == expected.text,
                    "\(format) --jobs \(jobs) --chunk-size \(chunk): \(firstDifference(expected.text, got.text))")
        }
    }

    @Test("A reader error mid-stream: exit 65 and the same report with --jobs 1, 2 and 3", arguments: [Format.csv, .xml])
    func errorMidStream(_ format: Format) throws {
        let s = try Self.scratch(format, count: 16_000)
        defer { s.remove() }
        // Break the input three quarters in: a character after a closing quote, an unclosed element.
        let path = s.path("today.\(format)")
        var text = try String(contentsOfFile: path, encoding: .utf8)
        let at = text.index(text.startIndex, offsetBy: text.count * 3 / 4)
        let lineStart = text[..<at].lastIndex(of: "\n").map { text.index(after: $0) } ?? at
        text.insert(contentsOf: format == .csv ? "\"broken\"x,1,2,3,4,5\n" : "<person><id>1</id><name>", at: lineStart)
        try s.write("today.\(format)", text)
        let base = ["run", s.path("rules.yml"), "--source", "people=\(path)", "--format", "json"]
        var reports = [String]()
        for jobs in [1, 2, 3] {
            for chunk in [8192, 5] {
                let run = try assertExecute(base + ["--jobs", String(jobs), "--chunk-size", String(chunk)],
                                            exitCode: 65, stderrContains: ["today.\(format):"], timeout: 300)
                reports.append(try withoutTimings(run.stdout).text)
            }
        }
        let report = try #require(reports.first)
        let input = try ReportJSON(Data(report.utf8)).inputs.first
        #expect(input?["complete"] as? Bool == false, "input not marked incomplete: \(String(describing: input))")
        for (i, other) in reports.enumerated() {
            #expect(other == report, "run \(i): \(firstDifference(report, other))")
        }
    }
}
