import Foundation
import Testing

/// Source-neutral locations (issue 14) from the built binary, checked against references we did
/// not write: Python's `csv` module for CSV record lines, `xml.parsers.expat` for XML start-tag
/// lines, Python's `sqlite3` for rowids. The same generated people go into all three formats;
/// every short name is a finding, and its JSON `locator` must be where the reference says.
@Suite("Locations cross-checked with Python")
struct LocationCrossCheckTests {
    /// Writes people.csv (names with quoted commas and line breaks), people.xml (records spread
    /// over several lines) and people.sqlite (rowids with gaps), and prints the expected
    /// locators of the short names as JSON: `{"csv": [line...], "xml": [line...], "sqlite": [rowid...]}`.
    static let generator = #"""
        import csv, io, json, random, sqlite3, sys, xml.parsers.expat
        random.seed(int(sys.argv[1]))
        folder = sys.argv[2]
        names = []
        for i in range(60):
            n = random.choice(["Al", "Bo", "Ann", "Carol", "Dave", "a, b", "x\ny", "Eve\nline", "Zed"])
            names.append(n)
        with open(folder + "/people.csv", "w", newline="") as f:
            w = csv.writer(f, lineterminator="\n")
            w.writerow(["id", "name"])
            for i, n in enumerate(names):
                w.writerow([i + 1, n])
        # Reference: the line where each record starts, from Python's csv reader (line_num is
        # the last line a record consumed, so a record starts one after the previous one's).
        csv_lines, previous = [], 1
        with open(folder + "/people.csv", newline="") as f:
            reader = csv.reader(f)
            next(reader)
            for i, row in enumerate(reader):
                assert row == [str(i + 1), names[i]]
                if len(row[1]) < 3: csv_lines.append(previous + 1)
                previous = reader.line_num
        # XML: records over a varying number of lines; expat gives each start tag's line.
        with open(folder + "/people.xml", "w") as f:
            f.write("<?xml version='1.0'?>\n<people>\n")
            for i, n in enumerate(names):
                gap = "\n" * random.randint(0, 2)
                esc = n.replace("&", "&amp;").replace("<", "&lt;")
                f.write(f"{gap}<person id='{i + 1}'>\n  <name>{esc}</name>\n</person>\n")
            f.write("</people>\n")
        xml_lines, record = [], [0]
        p = xml.parsers.expat.ParserCreate()
        def start(tag, attrs):
            if tag == "person":
                if len(names[record[0]]) < 3: xml_lines.append(p.CurrentLineNumber)
                record[0] += 1
        p.StartElementHandler = start
        with open(folder + "/people.xml", "rb") as f:
            p.ParseFile(f)
        db = sqlite3.connect(folder + "/people.sqlite")
        db.execute("create table people (id integer, name text)")
        for i, n in enumerate(names):
            db.execute("insert into people (rowid, id, name) values (?, ?, ?)", (3 * i + 7, i + 1, n))
        db.commit()
        rowids = [r for (r,) in db.execute("select rowid from people where length(name) < 3 order by rowid")]
        print(json.dumps({"csv": csv_lines, "xml": xml_lines, "sqlite": rowids}))
        """#

    static let rules = """
        version: 1
        sources:
          csvPeople: { path: people.csv }
          xmlPeople:
            path: people.xml
            xml: { record: /people/person, fields: { id: "@id", name: name } }
          sqlPeople: { path: people.sqlite, sqlite: { table: people } }
        entities:
          C:
            source: csvPeople
            attributes: { name: { type: string, minLength: 3 } }
          X:
            source: xmlPeople
            attributes: { name: { type: string, minLength: 3 } }
          S:
            source: sqlPeople
            attributes: { name: { type: string, minLength: 3 } }
        """

    @Test("CSV lines, XML element lines and SQLite rowids match Python", arguments: [1, 2, 3])
    func crossCheck(seed: Int) throws {
        try #require(GeneratedData.python3 != nil, "needs python3 on PATH")
        let tmp = try Scratch("locations-\(seed)")
        defer { tmp.remove() }
        try tmp.write("rules.yml", Self.rules)
        let expectedText = try DescriptionHintTests.python(["-c", Self.generator, String(seed), tmp.url.path])
        let expected = try #require(try JSONSerialization.jsonObject(with: Data(expectedText.utf8)) as? [String: [Int]],
                                    "generator output: \(expectedText)")
        let run = try assertExecute(["run", "rules.yml", "--format", "json", "--max-samples", "1000"], in: tmp.url, exitCode: 1)
        let report = try ReportJSON(Data(run.stdoutText.utf8))
        func locators(_ id: String) throws -> [[String: Any]] {
            let rule = try #require(report.rules(withID: id).first, "no rule \(id)")
            let samples = try #require(rule["samples"] as? [[String: Any]])
            #expect(integer(rule["violations"]) == samples.count)
            return samples.compactMap { ($0["location"] as? [String: Any])?["locator"] as? [String: Any] }
        }
        let csv = try locators("C.name.minLength")
        #expect(csv.map { $0["kind"] as? String } == Array(repeating: "line", count: csv.count))
        #expect(csv.map { integer($0["line"]) } == (expected["csv"] ?? []).map { $0 }, "CSV lines differ from Python's csv")
        #expect(csv.allSatisfy { Set($0.keys) == ["kind", "line"] }, "a CSV finding has only a line")

        let xml = try locators("X.name.minLength")
        #expect(xml.map { $0["element"] as? String } == Array(repeating: "/people/person", count: xml.count))
        #expect(xml.map { integer($0["line"]) } == (expected["xml"] ?? []).map { $0 }, "XML lines differ from expat's")

        let sqlite = try locators("S.name.minLength")
        #expect(sqlite.map { $0["container"] as? String } == Array(repeating: "people", count: sqlite.count))
        #expect(sqlite.map { $0["key"] as? String } == Array(repeating: "rowid", count: sqlite.count))
        #expect(sqlite.map { integer($0["value"]) } == (expected["sqlite"] ?? []).map { $0 }, "rowids differ from sqlite3's")
        #expect(!(expected["csv"] ?? []).isEmpty && !(expected["sqlite"] ?? []).isEmpty)
    }
}
