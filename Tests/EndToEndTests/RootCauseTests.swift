import Foundation
import TestSupport
import Testing

/// Root cause first (issue 13 §4): a file in another dialect or encoding is one error with the
/// fix (exit 65: the file was not really read, no finding is listed), and a column none of
/// whose values has its type is one root-cause finding (exit 1) that stands for the others,
/// which are counted as `suppressed`. The inputs are the bundled example converted by
/// Python's csv module and codecs (references this code did not write).
@Suite("Root causes")
struct RootCauseTests {
    /// Runs python3 with a program and arguments; fails the test when it fails.
    static func python(_ program: String, _ arguments: [String]) throws {
        let run = try ChildProcess.run(["python3", "-c", program] + arguments)
        #expect(run.status == 0, "python3 failed: \(arguments)\n\(run)")
    }

    static let example = Auditor.packageRoot.appendingPathComponent("examples/people/people.csv").path

    /// Rewrites the example with another delimiter (Python's csv module quotes what needs it).
    static let redelimit = """
        import csv, sys
        rows = list(csv.reader(open(sys.argv[1], newline='', encoding='utf-8')))
        with open(sys.argv[2], 'w', newline='', encoding='utf-8') as f:
            csv.writer(f, delimiter=sys.argv[3], lineterminator='\\r\\n').writerows(rows)
        """

    /// Re-encodes the example (characters Latin-1 lacks become '?').
    static let reencode = """
        import sys
        text = open(sys.argv[1], encoding='utf-8', newline='').read()
        open(sys.argv[2], 'wb').write(text.encode(sys.argv[3], errors='replace'))
        """

    /// Exit 65, the message, no Person finding, Person not evaluated; Department still audited.
    func expectRootCauseError(_ run: Execution, _ message: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(run.status == 65, "\(run)", sourceLocation: sourceLocation)
        #expect(run.stderrText.contains(message), "stderr lacks: \(message)\n\(run)", sourceLocation: sourceLocation)
        #expect(run.stderrLines.filter { !$0.isEmpty }.count == 1, "one error, nothing else: \(run)", sourceLocation: sourceLocation)
        let report = try ReportJSON(run.stdout)
        let person = report.rules.filter { $0["entity"] as? String == "Person" }
        #expect(!person.isEmpty && person.allSatisfy { $0["status"] as? String == "not-evaluated" && integer($0["violations"]) == 0 },
                sourceLocation: sourceLocation)
        #expect((report.root["records"] as? [Any])?.isEmpty == true, "no dependent finding", sourceLocation: sourceLocation)
        let department = report.rules.filter { $0["entity"] as? String == "Department" }
        #expect(!department.isEmpty && department.allSatisfy { integer($0["evaluated"]) == 25 }, sourceLocation: sourceLocation)
    }

    static let delimiters: [(name: String, byte: String, shown: String)] = [
        ("semicolon", ";", "';'"), ("TAB", "\t", "TAB"), ("pipe", "|", "'|'"),
    ]

    @Test("Another delimiter: 65 once, naming the delimiter and the csv: option to set",
          arguments: [0, 1, 2])
    func otherDelimiter(_ i: Int) throws {
        let d = Self.delimiters[i]
        let tmp = try Scratch("delimiter-\(d.name)")
        defer { tmp.remove() }
        try Self.python(Self.redelimit, [Self.example, tmp.path("people.csv"), d.byte])
        try tmp.write("rules.yml", try DataErrorTests.rules(people: "people.csv"))
        let run = try Auditor.run(["run", "rules.yml", "--format", "json"], in: tmp.url)
        let option = d.byte == "\t" ? "\\t" : d.byte
        try expectRootCauseError(run, "people.csv:1:1: people.csv looks \(d.shown)-delimited, not ','-delimited: "
                                     + "its header split on \(d.shown) gives 11 of the 11 declared columns. "
                                     + "Set `csv: { delimiter: \"\(option)\" }` on source 'people' in the rules file")
    }

    @Test("UTF-16 and UTF-32, with and without a byte order mark: 65 once, naming the encoding and iconv",
          arguments: ["utf-16", "utf-16-le", "utf-16-be", "utf-32"])
    func utf16(_ codec: String) throws {
        let tmp = try Scratch("encoding-\(codec)")
        defer { tmp.remove() }
        try Self.python(Self.reencode, [Self.example, tmp.path("people.csv"), codec])
        try tmp.write("rules.yml", try DataErrorTests.rules(people: "people.csv"))
        let run = try Auditor.run(["run", "rules.yml", "--format", "json"], in: tmp.url)
        let name = ["utf-16": "UTF-16LE", "utf-16-le": "UTF-16LE", "utf-16-be": "UTF-16BE", "utf-32": "UTF-32LE"][codec] ?? ""
        try expectRootCauseError(run, "people.csv:1:1: people.csv looks \(name)-encoded, not UTF-8. Convert it "
                                     + "(iconv -f \(name) -t UTF-8 'people.csv' > converted.csv)")
    }

    @Test("Latin-1: 65 once at the first accented byte, naming Latin-1 and iconv")
    func latin1() throws {
        let tmp = try Scratch("encoding-latin1")
        defer { tmp.remove() }
        try Self.python(Self.reencode, [Self.example, tmp.path("people.csv"), "latin-1"])
        try tmp.write("rules.yml", try DataErrorTests.rules(people: "people.csv"))
        let run = try Auditor.run(["run", "rules.yml", "--format", "json"], in: tmp.url)
        // Line 4 is `3,Julia Pérez,...`: the é is the 10th character.
        try expectRootCauseError(run, "people.csv:4:10: people.csv looks Latin-1 (ISO-8859-1) encoded, not UTF-8: "
                                     + "byte 0xE9 here is 'é' in Latin-1")
        #expect(run.stderrText.contains("iconv -f LATIN1 -t UTF-8 'people.csv' > converted.csv"), "\(run)")
    }

    /// Writes the example in a codec (characters it lacks as `?`) and, as UTF-8, the text
    /// that Python decodes from those bytes: the twin the audit must equal. Cp1252 gets a `€`
    /// and curly quotes in the first name, which Latin-1 lacks.
    static let twins = #"""
        import sys
        text = open(sys.argv[1], encoding='utf-8', newline='').read()
        if sys.argv[3] == 'cp1252':
            text = text.replace('Julia', 'Ju\u20ac\u201clia\u201d', 1)
        data = text.encode(sys.argv[3], errors='replace')
        open(sys.argv[2], 'wb').write(data)
        open(sys.argv[2] + '.utf8.csv', 'w', encoding='utf-8', newline='').write(data.decode(sys.argv[3]))
        """#

    @Test("encoding: latin-1 and windows-1252 read the file as Python decodes it: the same report as its UTF-8 twin",
          arguments: [("latin-1", "latin-1"), ("cp1252", "windows-1252")])
    func readWithEncoding(codec: String, option: String) throws {
        let tmp = try Scratch("encoding-\(codec)")
        defer { tmp.remove() }
        try Self.python(Self.twins, [Self.example, tmp.path("people.csv"), codec])
        let people = try DataErrorTests.rules(people: "people.csv")
        let csv = #"csv: { delimiter: ",", header: true, nullValues: [""] }"#
        try #require(people.contains(csv))
        try tmp.write("encoded.yml", people.replacingOccurrences(of: csv, with: #"csv: { delimiter: ",", header: true, nullValues: [""], encoding: \#(option) }"#))
        try tmp.write("twin.yml", try DataErrorTests.rules(people: "people.csv.utf8.csv"))
        func audit(_ file: String, jobs: String) throws -> [String] {
            let run = try Auditor.run(["run", file, "--format", "json", "-j", jobs, "--chunk-size", "64"], in: tmp.url)
            #expect(run.status == 1, "\(run)")
            return try ReportJSON(run.stdout).rules.map { rule in
                let samples = (rule["samples"] as? [[String: Any]] ?? []).map {
                    "\($0["value"] ?? "-") @\(($0["location"] as? [String: Any])?["text"] ?? "")"
                }
                return "\(rule["id"] ?? "") \(rule["violations"] ?? "") \(samples)"
            }
        }
        let twin = try audit("twin.yml", jobs: "1")
        #expect(twin.contains { $0.contains("Ju€“lia”") } == (codec == "cp1252"), "the twin holds the cp1252 name")
        for jobs in ["1", "2"] {
            let encoded = try audit("encoded.yml", jobs: jobs)
            #expect(encoded == twin.map { $0.replacingOccurrences(of: "people.csv.utf8.csv", with: "people.csv") }, "-j \(jobs)")
        }
    }

    @Test("UTF-8 with one stray byte is read: the record is a csv.encoding finding, not a root cause")
    func strayByteIsAFinding() throws {
        let tmp = try Scratch("encoding-stray")
        defer { tmp.remove() }
        var bytes = try Data(contentsOf: URL(fileURLWithPath: Self.example))
        let at = try #require(bytes.firstRange(of: Data("Julia".utf8)))
        bytes.replaceSubrange(at, with: Data([0x4A, 0xFF, 0x6C, 0x69, 0x61]))
        try tmp.write("people.csv", bytes: bytes)
        try tmp.write("rules.yml", try DataErrorTests.rules(people: "people.csv"))
        let run = try Auditor.run(["run", "rules.yml", "--format", "json"], in: tmp.url)
        #expect(run.status == 1, "\(run)")
        let report = try ReportJSON(run.stdout)
        #expect(report.rules(withID: "csv.encoding@people").compactMap { integer($0["violations"]) }.reduce(0, +) == 1)
    }

    // MARK: A whole column failing its type

    /// Replaces one column of the example (by name) with the value Python computes from its
    /// row number: `program` is an expression over `i` (1-based) and `v` (the old value).
    static let replaceColumn = """
        import csv, sys
        rows = list(csv.reader(open(sys.argv[1], newline='', encoding='utf-8')))
        c = rows[0].index(sys.argv[3])
        for i, row in enumerate(rows[1:], 1):
            if len(row) == len(rows[0]) and row[c] != '':
                row[c] = eval(sys.argv[4], {'i': i, 'v': row[c]})
        with open(sys.argv[2], 'w', newline='', encoding='utf-8') as f:
            csv.writer(f, lineterminator='\\r\\n').writerows(rows)
        """

    @Test("Every value of a column fails its type: one root-cause finding, the others counted as suppressed")
    func wholeColumnFailsItsType() throws {
        let tmp = try Scratch("column-type")
        defer { tmp.remove() }
        try Self.python(Self.replaceColumn, [Self.example, tmp.path("people.csv"), "age", "'about ' + v"])
        try tmp.write("rules.yml", try DataErrorTests.rules(people: "people.csv"))
        let run = try Auditor.run(["run", "rules.yml", "--format", "json", "--max-samples", "50"], in: tmp.url)
        #expect(run.status == 1, "\(run)")
        let report = try ReportJSON(run.stdout)
        let rule = try #require(report.rules(withID: "person.age.type").first)
        // 500 records: 6 ragged (not evaluated) and 1 without an age leave 493 present values.
        let violations = try #require(integer(rule["violations"]))
        #expect(violations == 493, "\(rule)")
        #expect(integer(rule["suppressed"]) == violations - 1)
        #expect(rule["status"] as? String == "violated")
        let samples = try #require(rule["samples"] as? [[String: Any]])
        #expect(samples.count == 1)
        let message = try #require(samples.first?["message"] as? String)
        #expect(message.hasPrefix("every one of the 493 values of 'age' in people.csv fails its type integer (the first, here: 'about "),
                "\(message)")
        #expect(message.hasSuffix("; 492 findings of this rule are suppressed"), "\(message)")
        // The record groups hold the root cause once, not 50 dependent findings.
        let groups = try #require(report.root["records"] as? [[String: Any]])
        let ageFindings = groups.flatMap { ($0["findings"] as? [[String: Any]]) ?? [] }.filter { $0["rule"] as? String == "person.age.type" }
        #expect(ageFindings.count <= 1)
        // The text report says so on the rule's row.
        let text = try Auditor.run(["run", "rules.yml"], in: tmp.url)
        #expect(text.stdoutText.contains("492 suppressed: one root cause"), "\(text)")
        #expect(text.stdoutText.contains("492 more findings of this rule suppressed"), "\(text)")
        let html = try Auditor.run(["run", "rules.yml", "--format", "html"], in: tmp.url)
        #expect(html.stdoutText.contains("(492 suppressed: one root cause)"), "HTML rule row")
        #expect(html.stdoutText.contains("492 more findings of this rule suppressed: the finding above is their root cause"))
        #expect(!html.stdoutText.contains("more not shown"), "nothing else is hidden")
    }

    @Test("One value of the declared type is enough: each failing value stays its own finding")
    func aColumnWithOneGoodValueIsNotARootCause() throws {
        let tmp = try Scratch("column-type-one-good")
        defer { tmp.remove() }
        try Self.python(Self.replaceColumn, [Self.example, tmp.path("people.csv"), "age", "v if i == 250 else 'about ' + v"])
        try tmp.write("rules.yml", try DataErrorTests.rules(people: "people.csv"))
        let run = try Auditor.run(["run", "rules.yml", "--format", "json", "--max-samples", "5"], in: tmp.url)
        #expect(run.status == 1, "\(run)")
        let rule = try #require(try ReportJSON(run.stdout).rules(withID: "person.age.type").first)
        #expect(integer(rule["violations"]) == 492, "\(rule)")
        #expect(integer(rule["suppressed"]) == 0)
        #expect((rule["samples"] as? [Any])?.count == 5)
    }
}
